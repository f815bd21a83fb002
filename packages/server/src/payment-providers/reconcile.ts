import type { ProvidersRepository, ProviderPaymentRow } from './payment-providers.repository.js';
import type { ProviderPayments } from './provider-payments.js';
import type { ProviderSettingsService } from './provider-settings.service.js';
import { OneRunAtATime } from '../jobs/periodic.js';
import type { RefundRequests } from './refund-requests.js';
import type { RefundRequestRow } from './refund-requests.repository.js';

export interface ReconcileOptions {
  /** PROVIDER_RECONCILE_INTERVAL_MS; 0: no periodic run. */
  intervalMs: number;
  /** PROVIDER_QUERY_AFTER_SECONDS in ms: payments awaiting longer than this are queried at the provider. */
  queryAfterMs: number;
  /** PROVIDER_LATE_QUERY_SECONDS in ms: the result view asks the provider at most this often per order. */
  lateQueryMs: number;
}

export interface ReconcileReport {
  queried: number;
  paid: number;
  closed: number;
  failed: number;
}

/** What one run's look at the unsettled refund requests did. */
export interface RefundReconcileReport {
  looked: number;
  succeeded: number;
  refused: number;
  failed: number;
}

/** Payments one run looks at (each provider call is one request; the rest wait for the next run). */
const BATCH = 100;
/** How long a payment is leased to the instance looking at it. */
const LEASE_MS = 5 * 60_000;

/**
 * The browser's return is never trusted, and a notification may never come: written once for every provider.
 * - `lateQuery`: the result view reads an order still awaiting payment; once it has waited PROVIDER_LATE_QUERY_SECONDS,
 *   the provider is asked (its order query), at most that often per order on any instance.
 * - `run` (every PROVIDER_RECONCILE_INTERVAL_MS): payments awaiting longer than PROVIDER_QUERY_AFTER_SECONDS are
 *   queried and applied once paid; those past the order's lifetime are closed at the provider and here (order
 *   cancelled), so a late payment of a closed order is refused and recorded, never granted. Several instances share
 *   the work through a lease per payment.
 */
export class ProviderReconciliation {
  readonly #runs = new OneRunAtATime<ReconcileReport>();

  constructor(
    private readonly repo: ProvidersRepository,
    private readonly settings: ProviderSettingsService,
    private readonly payments: ProviderPayments,
    private readonly options: ReconcileOptions,
    private readonly onError: (err: unknown, payment: ProviderPaymentRow) => void,
    private readonly now: () => number = Date.now,
    /** Operators' refunds (provider-refunds.ts): their unsettled requests are looked at in the same run. */
    private readonly refunds: RefundRequests | null = null,
    private readonly onRefundError: (err: unknown, refund: RefundRequestRow) => void = () => {},
  ) {}

  /**
   * The page's read of an order awaiting payment: asks its provider when the notification is late. Answers whether
   * the provider's answer changed the order (read it again).
   */
  async lateQuery(trxNo: number): Promise<boolean> {
    if (!(await this.repo.takeCheck(trxNo, this.now(), this.options.lateQueryMs))) return false;
    const payment = await this.repo.payment(trxNo);
    if (!payment) return false;
    try {
      return (await this.look(payment, 'query'))?.outcome === 'applied';
    } catch (e) {
      // The page keeps waiting; the reconciliation tries again.
      this.onError(e, payment);
      return false;
    }
  }

  /** One run now (a run already going is joined). */
  run(): Promise<ReconcileReport> {
    return this.#runs.run(() => this.#run());
  }

  async #run(): Promise<ReconcileReport> {
    const report: ReconcileReport = { queried: 0, paid: 0, closed: 0, failed: 0 };
    const now = this.now();
    const due = await this.repo.leaseDue(now, now - this.options.queryAfterMs, now + LEASE_MS, BATCH);
    for (const payment of due) {
      report.queried++;
      try {
        const result = await this.look(payment, 'reconcile');
        if (result?.outcome === 'applied' && result.reason === null) report.paid++;
        if (result?.outcome === 'applied' && result.reason === 'closed') report.closed++;
      } catch (e) {
        report.failed++;
        this.onError(e, payment);
      }
    }
    await this.reconcileRefunds();
    return report;
  }

  /**
   * Refund requests the provider has not settled (lost webhooks, a provider that could not be reached) and older than
   * PROVIDER_QUERY_AFTER_SECONDS: `requested` ones are sent again under their key, `pending` ones queried; a success
   * is applied to the order once (provider-refunds.ts). Leased per request, as the payments.
   */
  async reconcileRefunds(): Promise<RefundReconcileReport> {
    const report: RefundReconcileReport = { looked: 0, succeeded: 0, refused: 0, failed: 0 };
    if (!this.refunds) return report;
    const now = this.now();
    const due = await this.refunds.leaseUnsettled(now, now - this.options.queryAfterMs, now + LEASE_MS, BATCH);
    for (const row of due) {
      report.looked++;
      try {
        const after = await this.refunds.settle(row);
        if (after.state === 'succeeded') report.succeeded++;
        if (after.state === 'refused') report.refused++;
      } catch (e) {
        report.failed++;
        this.onRefundError(e, row);
      }
    }
    return report;
  }

  /** Asks the provider about one payment (closing it when past its lifetime) and applies what it says. */
  private async look(payment: ProviderPaymentRow, source: 'query' | 'reconcile') {
    const provider = this.settings.registry.get(payment.provider);
    const settings = await this.settings.forApp(Number(payment.app_id), payment.provider);
    if (!provider || !settings) return null;
    const expired = this.now() >= Number(payment.expires_at);
    const finding = expired ? await provider.close(settings, payment) : await provider.query(settings, payment);
    return this.payments.queried(provider.id, source, payment, finding);
  }

  /** The periodic job (boot.ts): a run every intervalMs, unref'd, never overlapping itself; null when off. */
  start(onError: (err: unknown) => void): NodeJS.Timeout | null {
    return this.#runs.every(this.options.intervalMs, () => this.#run(), onError);
  }
}
