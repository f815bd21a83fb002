import type client from 'prom-client';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { AppError } from '../errors/app-error.js';
import type { OrderService } from '../orders/orders.service.js';
import type { ChannelMessageLog } from '../orders/payments/channel-messages.js';
import {
  ProvidersRepository,
  type ProviderMessageFilter,
  type ProviderMessageRow,
  type ProviderPaymentRow,
} from './payment-providers.repository.js';
import type { ProviderMessagesTable } from './payment-providers.tables.js';
import { ProviderError, type ProviderFinding, type VerifiedNotification } from './provider.js';
import { applyRefundFinding, type ApplyRefund } from './provider-refunds.js';
import type { FindingResult } from './finding-result.js';
import { safeText } from './safe-text.js';

type Source = ProviderMessagesTable['source'];
type Message = { eventId: string | null; type: string | null; excerpt: string };
/** Records the message that made a change, in the change's transaction (ProviderPayments.notified). */
type Claim = (trx: Kysely<Tables>, result: FindingResult) => Promise<void>;
const EXCERPT_MAX = 500;

/**
 * The provider-independent rules of a payment, written once (docs/web-payment.md, "What every provider gets"):
 * a provider's finding pays its order exactly once, amount and currency checked against the order, the provider's
 * transaction id as bankTrxNo; a finding for an unknown or another app's order, another amount or currency, a closed
 * order, a transaction that paid before, or a replayed message pays nothing and is recorded; refunds and lost disputes
 * are applied to their order once each, a 2.5 to the game (provider-refunds.ts). Every message and find is counted by
 * provider and outcome.
 */
export class ProviderPayments {
  constructor(
    /** For the transaction of a change and the record of the message that made it. */
    private readonly db: Kysely<Tables>,
    private readonly repo: ProvidersRepository,
    /** provider_messages, through the channels' one message log (its metric: provider_notifications_total). */
    private readonly log: ChannelMessageLog<'provider_messages'>,
    private readonly orders: Pick<OrderService, 'applyChannelEvent' | 'cancel'>,
    private readonly isUniqueViolation: (err: unknown) => boolean,
    private readonly now: () => number = Date.now,
    /** Applies refunds and lost disputes to their orders (OrdersDomain.webRefunds); null: recorded only. */
    private readonly applyRefund: ApplyRefund | null = null,
  ) {}

  /** A message whose verification failed: recorded (no dedup key), never applied. */
  async refused(provider: string, appId: number, e: ProviderError, claimed: string): Promise<FindingResult> {
    const result: FindingResult = { outcome: 'refused', reason: e.code, trxNo: null, verified: false };
    await this.log.record(
      this.messageRow(provider, appId, 'notify', { eventId: null, type: null, excerpt: claimed }, result, null),
    );
    return result;
  }

  /**
   * A verified notification: deduplicated by its event id, applied, recorded. The delivery whose change took effect
   * (the payment, the close) is recorded `applied` in the change's own transaction, holding the event id, so copies
   * of it racing one another are its duplicates and never the other way round. A refused message holds no key: each
   * try is refused and recorded again (docs/web-payment.md), never answered as a harmless duplicate.
   */
  async notified(provider: string, appId: number, n: VerifiedNotification): Promise<FindingResult> {
    const message = { eventId: n.eventId, type: n.type, excerpt: JSON.stringify(n.excerpt) };
    const taken = await this.log.byKey(provider, appId, n.eventId);
    // A key a refusal held (recorded before refusals stopped holding one) does not make its replay a duplicate.
    if (taken && taken.outcome !== 'refused') {
      const replay: FindingResult = { outcome: 'duplicate', reason: 'replayed', trxNo: null, verified: true };
      await this.log.record(this.messageRow(provider, appId, 'notify', message, replay, n.finding));
      return replay;
    }
    const claimed: { result?: FindingResult } = {};
    const result = await this.apply(provider, appId, n.finding, async (trx, r) => {
      await this.log.recordClaiming(trx, this.messageRow(provider, appId, 'notify', message, r, n.finding, true));
      claimed.result = r;
    });
    if (claimed.result === result) {
      this.log.count(provider, result.outcome);
      return result;
    }
    try {
      await this.log.record(
        this.messageRow(provider, appId, 'notify', message, result, n.finding, result.outcome !== 'refused'),
      );
    } catch (e) {
      if (!this.isUniqueViolation(e)) throw e;
      // The same message delivered twice at once: the other delivery's record holds the key.
      const replay: FindingResult = { outcome: 'duplicate', reason: 'replayed', trxNo: result.trxNo, verified: true };
      await this.log.record(this.messageRow(provider, appId, 'notify', message, replay, n.finding));
      return replay;
    }
    return result;
  }

  /**
   * What the provider's order query said about one of our payments (the page's late query, the reconciliation):
   * applied as a message would be; recorded when it changed something or was refused.
   */
  async queried(provider: string, source: Source, payment: ProviderPaymentRow, finding: ProviderFinding) {
    if (finding.kind === 'open') return null;
    const result =
      finding.kind === 'closed'
        ? await this.close(payment, `closed at ${provider}`)
        : await this.apply(provider, payment.app_id, finding);
    if (result.outcome === 'applied' || result.outcome === 'refused')
      await this.log.record(
        this.messageRow(
          provider,
          payment.app_id,
          source,
          {
            eventId: null,
            type: `query:${finding.kind}`,
            excerpt: JSON.stringify({ ref: payment.ref, finding: finding.kind }),
          },
          result,
          finding,
        ),
      );
    return result;
  }

  /** An unpaid payment past its lifetime, closed at the provider: closed here and its order cancelled (2 -> 4). */
  async close(payment: ProviderPaymentRow, why: string, claim?: Claim): Promise<FindingResult> {
    const trxNo = Number(payment.trx_no);
    const applied: FindingResult = { outcome: 'applied', reason: 'closed', trxNo, verified: true };
    const closed = await this.decide((repo) => repo.markClosed(trxNo, this.now()), applied, claim);
    if (!closed) return { outcome: 'duplicate', reason: 'not_open', trxNo, verified: true };
    try {
      await this.orders.cancel(trxNo, `unpaid past its lifetime: ${why}`);
    } catch (e) {
      // Paid or ended otherwise meanwhile: the order keeps its status (a payment is never undone here).
      if (!(e instanceof AppError && e.reason === 'ORDER_STATE')) throw e;
    }
    return applied;
  }

  /**
   * Runs a conditional update and, when it changed the row, `claim` (the record of the message that made the change)
   * in the same transaction.
   */
  private async decide(
    change: (repo: ProvidersRepository) => Promise<boolean>,
    result: FindingResult,
    claim?: Claim,
  ): Promise<boolean> {
    if (!claim) return change(this.repo);
    return this.db.transaction().execute(async (trx) => {
      const changed = await change(new ProvidersRepository(trx));
      if (changed) await claim(trx, result);
      return changed;
    });
  }

  /**
   * The rules of a finding against our records (see the class comment). `claim` records the message whose finding
   * made a change, inside the change's transaction.
   */
  async apply(provider: string, appId: number, f: ProviderFinding, claim?: Claim): Promise<FindingResult> {
    const refuse = (reason: string, trxNo: number | null = null): FindingResult => ({
      outcome: 'refused',
      reason,
      trxNo,
      verified: true,
    });
    if (f.kind === 'ignored') return { outcome: 'ignored', reason: f.reason, trxNo: null, verified: true };
    if (f.kind === 'open') return { outcome: 'ignored', reason: 'still_open', trxNo: null, verified: true };
    if (f.kind === 'refund' || f.kind === 'dispute') {
      const row = await this.repo.paymentByProviderTrxId(provider, f.providerTrxId);
      if (!row) return { outcome: 'ignored', reason: 'unknown_transaction', trxNo: null, verified: true };
      if (Number(row.app_id) !== appId) return refuse('other_app_order');
      // Issue 39: refunds and lost disputes reach the game (2.5), each once (provider-refunds.ts).
      if (this.applyRefund) return applyRefundFinding(this.applyRefund, provider, row, f, this.now());
      return { outcome: 'recorded', reason: f.kind, trxNo: Number(row.trx_no), verified: true };
    }
    const row =
      (f.ref !== null ? await this.repo.paymentByRef(provider, f.ref) : undefined) ??
      (f.ref === null && f.trxNo !== null ? await this.repo.payment(f.trxNo) : undefined);
    if (!row || row.provider !== provider) return refuse('unknown_order');
    const trxNo = Number(row.trx_no);
    if (Number(row.app_id) !== appId) return refuse('other_app_order');
    if (f.trxNo !== null && f.trxNo !== trxNo) return refuse('order_mismatch', trxNo);
    if (f.kind === 'closed') return this.close(row, `closed at ${provider}`, claim);
    if (f.kind === 'failed') {
      const failed: FindingResult = { outcome: 'applied', reason: 'failed', trxNo, verified: true };
      const closed =
        row.state === 'open' && (await this.decide((repo) => repo.markClosed(trxNo, this.now()), failed, claim));
      if (!closed) {
        // Paid or closed before (or meanwhile, by a racing delivery): this one changes nothing.
        const state = row.state === 'open' ? (await this.repo.payment(trxNo))?.state : row.state;
        return { outcome: 'ignored', reason: `payment_${state}`, trxNo, verified: true };
      }
      await this.orders
        .applyChannelEvent({ kind: 'failed', trxNo, reason: `${provider}: ${f.reason}` })
        .catch((e) => ignoreState(e));
      return failed;
    }
    if (f.currency !== row.currency) return refuse('currency_mismatch', trxNo);
    if (f.amountMinor !== Number(row.amount_minor)) return refuse('amount_mismatch', trxNo);
    if (row.state === 'paid')
      return row.provider_trx_id === f.providerTrxId
        ? { outcome: 'duplicate', reason: 'already_paid', trxNo, verified: true }
        : refuse('paid_by_another_transaction', trxNo);
    if (row.state === 'closed') return refuse('order_closed', trxNo);
    const paid: FindingResult = { outcome: 'applied', reason: null, trxNo, verified: true };
    try {
      await this.orders.applyChannelEvent({
        kind: 'paid',
        trxNo,
        bankTrxNo: f.providerTrxId,
        client: null,
        // Same transaction as the payment: the provider transaction is written once (unique), the payment row paid.
        alsoWrite: async (trx) => {
          if (!(await new ProvidersRepository(trx).markPaid(trxNo, f.providerTrxId, this.now())))
            throw new AppError('ORDER_STATE', `the ${provider} payment of order ${trxNo} is no longer open`);
          await claim?.(trx, paid);
        },
      });
    } catch (e) {
      if (e instanceof AppError && e.reason === 'ORDER_STATE') {
        // Paid by a concurrent delivery of the same payment, or closed meanwhile.
        const now = await this.repo.payment(trxNo);
        if (now?.state === 'paid' && now.provider_trx_id === f.providerTrxId)
          return { outcome: 'duplicate', reason: 'already_paid', trxNo, verified: true };
        return refuse(now?.state === 'paid' ? 'paid_by_another_transaction' : 'order_closed', trxNo);
      }
      if (this.isUniqueViolation(e)) return refuse('transaction_used', trxNo);
      throw e;
    }
    return paid;
  }

  /** The row of a message; `keyed`: it holds its event id as the dedup key (the delivery that took effect). */
  private messageRow(
    provider: string,
    appId: number,
    source: Source,
    m: Message,
    result: FindingResult,
    finding: ProviderFinding | null,
    keyed = false,
  ): Insertable<ProviderMessagesTable> {
    const money = finding && 'amountMinor' in finding ? finding : null;
    return {
      app_id: appId,
      provider,
      source,
      event_id: m.eventId,
      dedup_key: keyed ? m.eventId : null,
      type: m.type,
      outcome: result.outcome,
      reason: result.reason,
      trx_no: result.trxNo,
      provider_trx_id: finding && 'providerTrxId' in finding ? finding.providerTrxId : null,
      amount_minor: money?.amountMinor ?? null,
      currency: money?.currency ?? null,
      received_at: this.now(),
      excerpt: safeText(m.excerpt, EXCERPT_MAX),
    };
  }

  /** Registers the metric into the instance's registry (app.metrics). */
  attach(registry: client.Registry): void {
    this.log.attach(registry);
  }

  /** The operator's list of an app's provider messages, newest first. */
  messages(f: ProviderMessageFilter): Promise<ProviderMessageRow[]> {
    const equal = { provider: f.provider, outcome: f.outcome, type: f.type, trx_no: f.trxNo };
    return this.log.list({ ...f, equal });
  }
}

function ignoreState(e: unknown): void {
  if (!(e instanceof AppError && e.reason === 'ORDER_STATE')) throw e;
}
