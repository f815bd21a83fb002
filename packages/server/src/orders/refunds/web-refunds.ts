import type { Kysely } from 'kysely';
import type { Tables } from '../../db/tables.js';
import type { Dialect } from '../../db/dialect.js';
import { OrderStatus, TrxType, isStoreChannel } from '../enums.js';
import { MAX_MINOR, minorToText } from '../money.js';
import { notifyGame } from '../notify-game.js';
import { OrdersRepository, type OrderRow } from '../orders.repository.js';
import { granted, insertFollowing, supplementOf } from './refunds.js';
import { WebRefundsRepository, type WebRefundRow } from './web-refunds.store.js';

/**
 * Refunds of web payments (issue 39; docs/web-payment.md "Refunds and disputes", docs/web-payment.md "Web refunds"):
 * a refund made at the payment provider (its dashboard, or an operator through the provider's API) or a dispute
 * (chargeback) the merchant lost. Each is applied to its paid order exactly once, keyed by the provider's own id of
 * it, whole or in part, and reaches the game as a 2.5 refund notification, as a store refund does (refunds.ts):
 * a refund order of its own (trxType 2, its own trxNo) naming the payment (originalTrxNo), for the refunded amount,
 * with the payment's products and attach. The payment keeps status 0 (2.7 has no "refunded" status); what was
 * given back is its `refunded_minor`, and its status history gets a row naming the refund.
 */
export interface ProviderRefund {
  appId: number;
  /** The payment refunded (its trxNo). */
  trxNo: number;
  /** The payment provider (payment-providers PROVIDER_IDS). */
  provider: string;
  /** The provider's id of the refund (or of the dispute, for a lost one): what makes it happen once. */
  providerRefundId: string;
  /**
   * Minor units of `currency` (orders/money.ts). `amountIs: 'total_refunded'`: the provider's running total of
   * what it refunded of this payment (Alipay's `refund_fee`), of which this refund is what is not yet applied.
   */
  amountMinor: number;
  amountIs?: 'this_refund' | 'total_refunded';
  currency: string;
  kind: 'refund' | 'dispute_lost';
  reason?: string | null;
  /** When the provider completed it: the 2.5 `successTime`. */
  refundedAt: number;
  /** An operator's refund (the console, the admin API): who and which request. Absent: made at the provider. */
  initiatedBy?: { operator?: string; requestId?: string };
}

export type WebRefundOutcome =
  /** Applied now: a refund order and its 2.5 were written. */
  | 'applied'
  /** This provider refund id was applied before (refundTrxNo names its refund order). */
  | 'duplicate'
  /** A running total already covered by the refunds applied (nothing new to give back). */
  | 'already_covered'
  /** More than what remains unrefunded of the payment. */
  | 'exceeds_remaining'
  /** The payment is not paid (status 0). */
  | 'not_paid'
  /** No such payment of this app, or not a web payment (stores refund through store-payments). */
  | 'unknown_order'
  | 'currency_mismatch'
  /** Not a positive whole amount of minor units within MAX_MINOR. */
  | 'invalid_amount';

export interface WebRefundResult {
  outcome: WebRefundOutcome;
  /** The refund order: this one (applied) or the earlier one (duplicate). */
  refundTrxNo?: number;
  /** The amount this refund gave back (applied), minor units. */
  amountMinor?: number;
  /** What remains unrefunded of the payment after it, minor units (when the payment was found). */
  remainingMinor?: number;
}

export interface WebRefundDeps {
  /** For the refund's transaction. */
  db: Kysely<Tables>;
  /** The orders' and the web refunds' SQL over db (built once by the module). */
  orders: OrdersRepository;
  store: WebRefundsRepository;
  dialect: Pick<Dialect, 'name' | 'isUniqueViolation'>;
  now: () => number;
}

/** Thrown inside the transaction to roll it back with an outcome. */
class NotApplied extends Error {
  constructor(readonly result: WebRefundResult) {
    super(result.outcome);
  }
}

/**
 * Applies a provider refund or a lost dispute to a paid web payment, once per (provider, providerRefundId): the
 * refund order, its items (the payment's), the payment's refunded amount and status history row, the 2.5 in the
 * outbox and, for a lost dispute of items the game had granted, a pending supplement (2.6, 3), in one transaction.
 * Concurrent copies: the payment's row lock orders them, the unique key of the provider's id keeps the second out.
 */
export async function applyProviderRefund(deps: WebRefundDeps, refund: ProviderRefund): Promise<WebRefundResult> {
  if (!Number.isSafeInteger(refund.amountMinor) || refund.amountMinor <= 0 || refund.amountMinor > MAX_MINOR)
    return { outcome: 'invalid_amount' };
  const earlier = await deps.store.byProviderId(refund.provider, refund.providerRefundId);
  // Another app's refund of that id says nothing about this app's orders.
  if (earlier)
    return Number(earlier.app_id) === refund.appId ? duplicate(deps.orders, earlier) : { outcome: 'unknown_order' };
  const original = await deps.orders.byTrxNo(refund.trxNo);
  if (!original || original.app_id !== refund.appId || !isWebPayment(original)) return { outcome: 'unknown_order' };
  if (original.currency !== refund.currency) return { outcome: 'currency_mismatch' };
  const now = deps.now();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const orders = new OrdersRepository(trx);
      const paid = await orders.lockForUpdate(deps.dialect, original.trx_no);
      if (!paid || paid.status !== OrderStatus.SUCCEEDED) throw new NotApplied({ outcome: 'not_paid' });
      const remaining = paid.total_minor - paid.refunded_minor;
      const amount =
        refund.amountIs === 'total_refunded' ? refund.amountMinor - paid.refunded_minor : refund.amountMinor;
      if (amount <= 0) throw new NotApplied({ outcome: 'already_covered', remainingMinor: remaining });
      if (amount > remaining) throw new NotApplied({ outcome: 'exceeds_remaining', remainingMinor: remaining });
      // The check again in the statement that takes it, under the row's lock (either backend).
      const taken = await orders.takeRefund(paid.trx_no, amount, now);
      if (!taken) throw new NotApplied({ outcome: 'exceeds_remaining', remainingMinor: remaining });
      const items = await orders.items(paid.trx_no);
      const row = await insertFollowing(orders, paid, items, {
        trx_type: TrxType.REFUND,
        out_trx_no: null,
        original_trx_no: paid.trx_no,
        status: OrderStatus.SUCCEEDED,
        total_minor: amount,
        bank_trx_no: refund.providerRefundId,
        origin: 'refund',
        created_at: now,
        success_time: refund.refundedAt,
      });
      await new WebRefundsRepository(trx).insert({
        refund_trx_no: row.trx_no,
        app_id: paid.app_id,
        user_id: paid.user_id,
        original_trx_no: paid.trx_no,
        provider: refund.provider,
        provider_refund_id: refund.providerRefundId,
        kind: refund.kind,
        amount_minor: amount,
        currency: paid.currency,
        reason: refund.reason ?? null,
        operator: refund.initiatedBy?.operator ?? null,
        request_id: refund.initiatedBy?.requestId ?? null,
        refunded_at: refund.refundedAt,
        created_at: now,
      });
      await orders.recordStatusChanges([
        {
          trx_no: paid.trx_no,
          from_status: OrderStatus.SUCCEEDED,
          to_status: OrderStatus.SUCCEEDED,
          reason: historyReason(refund, amount, paid.currency, row.trx_no, taken),
          at: now,
        },
      ]);
      await notifyGame(trx, 'refund', row, items, now);
      // Store rules (3): a refund the player took back after the game granted the items leaves a supplement owed.
      // A lost dispute is the player's doing; a refund at the provider is the merchant's own choice, and owes none.
      if (refund.kind === 'dispute_lost' && (await granted(trx, paid)))
        await orders.insertSupplement(supplementOf(row, paid, items, now));
      return {
        outcome: 'applied' as const,
        refundTrxNo: row.trx_no,
        amountMinor: amount,
        remainingMinor: taken.total_minor - taken.refunded_minor,
      };
    });
  } catch (e) {
    // A concurrent copy of the same provider refund committed first (its unique key), or took the remainder first.
    const same = await deps.store.byProviderId(refund.provider, refund.providerRefundId);
    if (same && (e instanceof NotApplied || deps.dialect.isUniqueViolation(e)))
      return Number(same.app_id) === refund.appId ? duplicate(deps.orders, same) : { outcome: 'unknown_order' };
    if (e instanceof NotApplied) return e.result;
    throw e;
  }
}

/** A payment through a web channel: refunded here; a store payment's refunds come from its store (refunds.ts). */
function isWebPayment(o: OrderRow): boolean {
  return o.trx_type === TrxType.PAYMENT && !isStoreChannel(o.channel);
}

async function duplicate(orders: OrdersRepository, earlier: WebRefundRow): Promise<WebRefundResult> {
  const paid = await orders.byTrxNo(earlier.original_trx_no);
  return {
    outcome: 'duplicate',
    refundTrxNo: earlier.refund_trx_no,
    ...(paid ? { remainingMinor: paid.total_minor - paid.refunded_minor } : {}),
  };
}

/** The status history row of the payment: what was refunded, how, and by which refund order. */
function historyReason(r: ProviderRefund, amount: number, currency: string, refundTrxNo: number, after: OrderRow) {
  const what =
    r.kind === 'dispute_lost'
      ? 'dispute lost'
      : after.refunded_minor === after.total_minor
        ? 'refunded'
        : 'partly refunded';
  const by = r.initiatedBy?.operator ? ` by operator ${r.initiatedBy.operator}` : '';
  return `${what}: ${minorToText(amount, currency)} ${currency} at ${r.provider} (${r.providerRefundId})${by}, refund order ${refundTrxNo}`;
}

/** The web refunds as the orders domain holds them (orders.module.ts): the provider webhooks and operator refunds. */
export class WebRefunds {
  constructor(private readonly deps: WebRefundDeps) {}

  apply(refund: ProviderRefund): Promise<WebRefundResult> {
    return applyProviderRefund(this.deps, refund);
  }

  /** An order's web refunds, from the primary: the order's view reads what was just written (docs/scaling.md). */
  ofOrder(trxNo: number): Promise<WebRefundRow[]> {
    return this.deps.store.ofOrder(trxNo);
  }

  /** What remains unrefunded of a paid web payment (minor units of its currency); null: not a paid web payment. */
  async remaining(trxNo: number): Promise<WebRemaining | null> {
    return remainingOf(await this.deps.orders.byTrxNo(trxNo));
  }

  /**
   * The same, read under the payment's row lock in the caller's transaction: the lock `apply` takes, so an operator's
   * refund request (payment-providers/refund-requests.ts) and the provider's refunds of the order take turns, each
   * counting what the others left.
   */
  async lockRemaining(trx: Kysely<Tables>, trxNo: number): Promise<WebRemaining | null> {
    return remainingOf(await new OrdersRepository(trx).lockForUpdate(this.deps.dialect, trxNo));
  }
}

/** What remains unrefunded of a paid web payment, in minor units of its currency. */
export interface WebRemaining {
  remainingMinor: number;
  currency: string;
}

function remainingOf(o: OrderRow | undefined): WebRemaining | null {
  if (!o || !isWebPayment(o) || o.status !== OrderStatus.SUCCEEDED) return null;
  return { remainingMinor: o.total_minor - o.refunded_minor, currency: o.currency };
}
