import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { toMinor } from '../orders/money.js';
import type { ProvidersRepository, ProviderPaymentRow } from './payment-providers.repository.js';
import { ProviderError, refundRefused, type RefundCall, type RefundFinding } from './provider.js';
import type { ProviderSettingsService } from './provider-settings.service.js';
import {
  RefundRequestsRepository,
  type InsertOutcome,
  type NewRefundRequest,
  type RefundRequestRow,
} from './refund-requests.repository.js';
import type { ApplyRefund } from './provider-refunds.js';

/** An operator's or a studio's refund of a web order. */
export interface RefundInput {
  trxNo: number;
  /** The portal's app: an order of another app is "not found". Absent: any app (the admin API, the CLI). */
  appId?: number;
  /** Decimal amount in the order's currency; absent: all that remains unrefunded. */
  amount?: string | number;
  reason: string;
  /** The caller's Idempotency-Key; null: derived from the amount and the reason (the same refund asked again). */
  idempotencyKey: string | null;
  /** `operator:<name>`, `studio:<name>`, `cli`. */
  requestedBy: string;
}

/** Locks a paid web order's row in the transaction and answers what remains unrefunded of it; null: not paid. */
export type LockOrder = (trx: Kysely<Tables>, trxNo: number) => Promise<{ remainingMinor: number } | null>;

/** What the core answers when the order has (now or before) taken the refund. */
const TAKEN = new Set(['applied', 'duplicate', 'already_covered']);

/** How long the first caller holds a new request while it asks the provider (the reconciliation waits that long). */
const CALL_LEASE_MS = 2 * 60_000;

/** The provider's idempotency key of a request: from its row, so every retry of the row sends the same. */
export const providerKeyOf = (row: Pick<RefundRequestRow, 'app_id' | 'trx_no' | 'refund_request_id'>) =>
  `gpr-${row.app_id}-${row.trx_no}-${row.refund_request_id}`;

/**
 * Operators' refunds of web orders through the provider that took them (docs/web-payment.md "Refunds"): one row per
 * (order, idempotency key), written only when its amount fits what remains (refund-requests.repository.ts); the
 * caller whose insert made the row asks the provider, under a key derived from the row, so two clicks or a retried
 * request reach the provider once. The provider's answer settles the row: succeeded (applied to the order by the
 * core, `apply`, exactly once whoever confirms it: this answer, a query, or the provider's webhook), pending (its
 * webhook or the reconciliation's query tells), or refused (the order stays paid; the caller gets
 * PROVIDER_REFUND_REFUSED). No answer leaves the row `requested`: the reconciliation sends it again under its key.
 */
export class RefundRequests {
  constructor(
    /** For the transaction that takes a request. */
    private readonly db: Kysely<Tables>,
    private readonly repo: RefundRequestsRepository,
    /** The provider payments (payment-providers.repository.ts): the order's payment and its provider. */
    private readonly payments: ProvidersRepository,
    private readonly settings: ProviderSettingsService,
    private readonly apply: ApplyRefund,
    private readonly isUniqueViolation: (e: unknown) => boolean,
    /**
     * The orders' core: locks a paid web order's row in the caller's transaction and answers what remains unrefunded
     * of it (WebRefunds.lockRemaining); null: not a paid web order.
     */
    private readonly lockOrder: LockOrder,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a refund and asks the provider once; `created` false: the same request again (its row as it is now). */
  async request(input: RefundInput): Promise<{ created: boolean; refund: RefundRequestRow }> {
    const payment = await this.payments.payment(input.trxNo);
    if (!payment || (input.appId !== undefined && Number(payment.app_id) !== input.appId))
      throw new AppError('NOT_FOUND', `no web order ${input.trxNo} paid through a payment provider`);
    if (payment.state !== 'paid') throw new AppError('REFUND_NOT_ALLOWED', `order ${input.trxNo} is not paid`);
    const amountMinor = input.amount === undefined ? null : toMinor('amount', input.amount, payment.currency);
    if (amountMinor === 0) throw invalidParameter('amount', 'must be more than 0');
    const key = input.idempotencyKey ?? derivedKey(amountMinor, input.reason);
    const at = this.now();
    const outcome = await this.insertWithin(
      {
        app_id: payment.app_id,
        trx_no: payment.trx_no,
        provider: payment.provider,
        idempotency_key: key,
        amount_minor: amountMinor,
        currency: payment.currency,
        reason: input.reason,
        requested_by: input.requestedBy,
        state: 'requested',
        provider_refund_id: null,
        error_code: null,
        error_message: null,
        requested_at: at,
        updated_at: at,
        lease_until: at + CALL_LEASE_MS,
      },
      Number(payment.amount_minor),
    );
    switch (outcome.kind) {
      case 'not_paid':
        throw new AppError('REFUND_NOT_ALLOWED', `order ${input.trxNo} is not paid`);
      case 'exceeds':
        throw new AppError(
          'REFUND_EXCEEDS_PAID',
          outcome.remaining > 0
            ? `at most ${outcome.remaining} minor units of ${payment.currency} remain unrefunded`
            : 'nothing remains unrefunded of this order',
          { data: { remainingMinor: outcome.remaining } },
        );
      case 'exists': {
        const row = outcome.row;
        if ((amountMinor !== null && Number(row.amount_minor) !== amountMinor) || row.reason !== input.reason)
          throw new AppError('CONFLICT', 'this Idempotency-Key was used for another refund of this order');
        return { created: false, refund: row };
      }
      case 'created':
        return { created: true, refund: await this.send(outcome.row, payment) };
    }
  }

  /**
   * Writes the request only if its amount fits what remains, read under the order's row lock: the lock the orders'
   * core takes to apply any refund of it (orders/refunds/web-refunds.ts), so two requests at once, or a request and a
   * refund from the provider, take turns. What remains is the least of the payment's amount less every request not
   * refused, and what the core says remains (a refund made at the provider's dashboard, applied from its webhook,
   * leaves less) less the requests not yet applied. A second row of the same (order, key) is the first one.
   */
  private async insertWithin(row: NewRefundRequest, paidMinor: number): Promise<InsertOutcome> {
    const trxNo = Number(row.trx_no);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const order = await this.lockOrder(trx, trxNo);
        if (!order) return { kind: 'not_paid' as const };
        const requests = new RefundRequestsRepository(trx);
        const existing = await requests.byKey(trxNo, row.idempotency_key);
        if (existing) return { kind: 'exists' as const, row: existing };
        const { taken, unsettled } = await requests.sums(trxNo);
        const remaining = Math.min(paidMinor - taken, order.remainingMinor - unsettled);
        const amount = row.amount_minor ?? remaining;
        if (amount < 1 || amount > remaining) return { kind: 'exceeds' as const, remaining };
        return { kind: 'created' as const, row: await requests.insert({ ...row, amount_minor: amount }) };
      });
    } catch (e) {
      if (!this.isUniqueViolation(e)) throw e;
      const existing = await this.repo.byKey(trxNo, row.idempotency_key);
      if (!existing) throw e;
      return { kind: 'exists', row: existing };
    }
  }

  /** The reconciliation's batch of unsettled requests (refund-requests.repository.ts, leaseUnsettled). */
  leaseUnsettled(now: number, before: number, leaseUntil: number, limit: number): Promise<RefundRequestRow[]> {
    return this.repo.leaseUnsettled(now, before, leaseUntil, limit);
  }

  /** Whether the order was paid through a provider (refunded here, not through a store or the sandbox). */
  async isWebOrder(trxNo: number): Promise<boolean> {
    return (await this.payments.payment(trxNo))?.state === 'paid';
  }

  /**
   * The refund requests of an order, oldest first, and its provider when it was paid through one; `appId` (the
   * portal's): an order of another app is as if unknown.
   */
  async ofOrder(trxNo: number, appId?: number): Promise<{ provider: string | null; refunds: RefundRequestRow[] }> {
    const payment = await this.payments.payment(trxNo);
    if (!payment || (appId !== undefined && Number(payment.app_id) !== appId)) return { provider: null, refunds: [] };
    return {
      provider: payment.state === 'paid' ? payment.provider : null,
      refunds: await this.repo.ofOrder(trxNo),
    };
  }

  /**
   * The reconciliation's look at one unsettled request: a `requested` one (no answer yet) is sent again under its
   * key, a `pending` one is queried; what the provider says settles it.
   */
  async settle(row: RefundRequestRow): Promise<RefundRequestRow> {
    const payment = await this.payments.payment(Number(row.trx_no));
    if (!payment) return row;
    if (row.state === 'requested') return this.send(row, payment);
    const target = await this.target(row);
    if (!target) return row;
    const finding = await target.provider.queryRefund(target.settings, payment, callOf(row), row.provider_refund_id);
    if (finding.state === 'unknown') return this.send(row, payment);
    return this.record(row, finding);
  }

  private async target(row: RefundRequestRow) {
    const provider = this.settings.registry.get(row.provider);
    const settings = provider ? await this.settings.forApp(Number(row.app_id), row.provider) : null;
    return provider && settings ? { provider, settings } : null;
  }

  /** Asks the provider (again, under the same key) and records its answer; no answer leaves the row `requested`. */
  private async send(row: RefundRequestRow, payment: ProviderPaymentRow): Promise<RefundRequestRow> {
    const target = await this.target(row);
    if (!target) return this.record(row, refundRefused('not_configured', `the app has no ${row.provider} settings`));
    let finding: RefundFinding;
    try {
      finding = await target.provider.refund(target.settings, payment, callOf(row));
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e;
      // Not an answer (unreachable, an answer that does not verify): asked again by the reconciliation.
      const noted = await this.repo.move(
        Number(row.refund_request_id),
        ['requested'],
        { error_code: e.code, error_message: e.message.slice(0, 500), lease_until: 0 },
        this.now(),
      );
      return noted ?? row;
    }
    if (finding.state === 'unknown') return row;
    return this.record(row, finding);
  }

  /** Settles the row as the provider says; a success is applied to the order (once, by the core) before it is marked. */
  private async record(row: RefundRequestRow, finding: Exclude<RefundFinding, { state: 'unknown' }>) {
    const id = Number(row.refund_request_id);
    const at = this.now();
    if (finding.state === 'refused')
      return (
        (await this.repo.move(
          id,
          ['requested', 'pending'],
          {
            state: 'refused',
            provider_refund_id: finding.providerRefundId,
            error_code: finding.code.slice(0, 100),
            error_message: finding.message.slice(0, 500),
            lease_until: 0,
          },
          at,
        )) ?? row
      );
    const pending = await this.repo.move(
      id,
      ['requested', 'pending'],
      {
        state: 'pending',
        provider_refund_id: finding.providerRefundId,
        error_code: null,
        error_message: null,
        lease_until: 0,
      },
      at,
    );
    if (finding.state === 'pending' || !pending) return pending ?? row;
    // The core applies it once by the provider's id, whoever confirms it first (this answer, a query, the webhook).
    const applied = await this.apply({
      appId: Number(row.app_id),
      trxNo: Number(row.trx_no),
      provider: row.provider,
      providerRefundId: finding.providerRefundId,
      amountMinor: finding.amountMinor,
      currency: finding.currency,
      kind: 'refund',
      reason: row.reason,
      refundedAt: at,
      initiatedBy: { operator: row.requested_by, requestId: String(row.refund_request_id) },
    });
    // The money went back whatever the order says; an order that could not take it (another currency, more than
    // it shows remaining) is left for operators to see on the request, never hidden.
    const taken = TAKEN.has(applied.outcome);
    return (
      (await this.repo.move(
        id,
        ['pending'],
        {
          state: 'succeeded',
          error_code: taken ? null : `not_applied:${applied.outcome}`,
          error_message: taken ? null : 'the provider refunded, but the order could not take the refund',
        },
        this.now(),
      )) ?? pending
    );
  }
}

/** The same amount and reason on the same order, asked without a key, is the same refund. */
function derivedKey(amountMinor: number | null, reason: string): string {
  const digest = crypto
    .createHash('sha256')
    .update(`${amountMinor ?? 'rest'}\n${reason}`)
    .digest('base64url');
  return `derived:${digest}`;
}

function callOf(row: RefundRequestRow): RefundCall {
  return { key: providerKeyOf(row), amountMinor: Number(row.amount_minor), currency: row.currency, reason: row.reason };
}

/** A settled request the caller is to hear of as an error: the provider's refusal. */
export function refusalOf(row: RefundRequestRow): AppError | null {
  if (row.state !== 'refused') return null;
  return new AppError(
    'PROVIDER_REFUND_REFUSED',
    `${row.provider} refused the refund: ${row.error_code ?? 'refused'}${row.error_message ? ` (${row.error_message})` : ''}`,
    { data: { refundRequestId: Number(row.refund_request_id), provider: row.provider, providerCode: row.error_code } },
  );
}
