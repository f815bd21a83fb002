import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { num } from '../../db/time-buckets.js';
import { SupplyStatus, TrxType } from '../enums.js';
import { currenciesWithExponent } from '../money.js';

/** The refunds looked at: one app's refund orders created in [from, to), optionally in one currency. */
export interface RefundWindow {
  appId: number;
  from: number;
  to: number;
  currency?: string;
}

/** Where the next page starts: after this player in the order count desc, amountKey desc, userId asc. */
export interface RefunderCursor {
  refunds: number;
  amountKey: number;
  userId: string;
}

export interface RefunderRow {
  userId: string;
  refunds: number;
  /** The amounts added as numbers in 1/10000 of each currency's major unit: the tie-break of equal counts. */
  amountKey: number;
  lastRefundAt: number;
}

export interface RefundedInCurrency {
  userId: string;
  currency: string;
  refunds: number;
  minor: number;
}

/** `trx_type = 2` as a literal, never a bound parameter: both planners then match the partial index orders_refunds. */
const isRefund = sql<boolean>`trx_type = ${sql.lit(TrxType.REFUND)}`;

/**
 * An amount in minor units scaled to ten-thousandths of its currency's major unit (USD 699 -> 69900, JPY 120 ->
 * 1200000), as a float: exact for sums below 2^53, and no overflow on either backend for any sum.
 */
function scaledAmount(): RawBuilder<number> {
  const list = (exponent: number) => sql.join(currenciesWithExponent(exponent).map((c) => sql.lit(c)));
  return sql<number>`cast(total_minor as double precision) * case when currency in (${list(0)}) then 10000 when currency in (${list(3)}) then 10 when currency in (${list(4)}) then 1 else 100 end`;
}

function refundsIn(db: Kysely<Tables>, w: RefundWindow) {
  let q = db
    .selectFrom('orders')
    .where('app_id', '=', w.appId)
    .where(isRefund)
    .where('created_at', '>=', w.from)
    .where('created_at', '<', w.to);
  if (w.currency !== undefined) q = q.where('currency', '=', w.currency);
  return q;
}

/**
 * The players of an app with the most refunds in the window, one page: grouped from a range of the partial index
 * orders_refunds (app_id, created_at, user_id, currency, total_minor; migration 0021), which holds every column
 * read, so neither backend touches the table. Ordered by count, then amount (amountKey), then user id; the page
 * after `after` is a keyset on the same three.
 */
export async function topRefunders(
  db: Kysely<Tables>,
  w: RefundWindow,
  after: RefunderCursor | undefined,
  limit: number,
): Promise<RefunderRow[]> {
  const rows = await refundersQueries.top(db, w, after, limit).execute();
  return rows.map((r) => ({
    userId: r.user_id,
    refunds: num(r.refunds),
    amountKey: num(r.amount_key),
    lastRefundAt: num(r.last_refund_at),
  }));
}

/** The refunds of these players in the window, by currency (exact integer sums of minor units), from the same index. */
export async function refundedByCurrency(
  db: Kysely<Tables>,
  w: RefundWindow,
  userIds: string[],
): Promise<RefundedInCurrency[]> {
  if (userIds.length === 0) return [];
  const rows = await refundersQueries.byCurrency(db, w, userIds).execute();
  return rows.map((r) => ({ userId: r.user_id, currency: r.currency, refunds: num(r.refunds), minor: num(r.minor) }));
}

/**
 * How many pending supplements (4.5: store refunds, supplyStatus 1) each of these players owes the app now, whatever
 * the window: through supplements_arrears (app_id, user_id, supply_status), the index of 4.5 itself.
 */
export async function pendingSupplementCounts(
  db: Kysely<Tables>,
  appId: number,
  userIds: string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await refundersQueries.pending(db, appId, userIds).execute();
  return new Map(rows.map((r) => [r.user_id, num(r.n)]));
}

/** Of these players' refunds in the window, those made at a web payment provider and the disputes the merchant lost. */
export interface WebRefundCounts {
  webRefunds: number;
  disputesLost: number;
}

/**
 * The web refunds and lost disputes (migration 0031) of these players in the window, from web_refunds_app (app_id,
 * created_at, user_id, kind) alone. Their refund orders are among the player's refunds already: these say which.
 */
export async function webRefundCounts(
  db: Kysely<Tables>,
  w: RefundWindow,
  userIds: string[],
): Promise<Map<string, WebRefundCounts>> {
  const out = new Map<string, WebRefundCounts>();
  if (userIds.length === 0) return out;
  const rows = await refundersQueries.web(db, w, userIds).execute();
  for (const r of rows) {
    const c = out.get(r.user_id) ?? { webRefunds: 0, disputesLost: 0 };
    if (r.kind === 'dispute_lost') c.disputesLost += num(r.n);
    else c.webRefunds += num(r.n);
    out.set(r.user_id, c);
  }
  return out;
}

/** The statements themselves, unexecuted: the functions above run them, the tests explain their plans. */
export const refundersQueries = {
  top(db: Kysely<Tables>, w: RefundWindow, after: RefunderCursor | undefined, limit: number) {
    const count = sql<number>`count(*)`;
    const amount = sql<number>`sum(${scaledAmount()})`;
    let q = refundsIn(db, w)
      .select([
        'user_id',
        count.as('refunds'),
        amount.as('amount_key'),
        sql<number>`max(created_at)`.as('last_refund_at'),
      ])
      .groupBy('user_id');
    if (after) {
      q = q.having((eb) =>
        eb.or([
          eb(count, '<', after.refunds),
          eb.and([eb(count, '=', after.refunds), eb(amount, '<', after.amountKey)]),
          eb.and([eb(count, '=', after.refunds), eb(amount, '=', after.amountKey), eb('user_id', '>', after.userId)]),
        ]),
      );
    }
    return q.orderBy(count, 'desc').orderBy(amount, 'desc').orderBy('user_id').limit(limit);
  },

  byCurrency(db: Kysely<Tables>, w: RefundWindow, userIds: string[]) {
    return refundsIn(db, w)
      .where('user_id', 'in', userIds)
      .select(['user_id', 'currency', sql<number>`count(*)`.as('refunds'), sql<number>`sum(total_minor)`.as('minor')])
      .groupBy(['user_id', 'currency'])
      .orderBy('user_id')
      .orderBy('currency');
  },

  web(db: Kysely<Tables>, w: RefundWindow, userIds: string[]) {
    let q = db
      .selectFrom('web_refunds')
      .select(['user_id', 'kind', sql<number>`count(*)`.as('n')])
      .where('app_id', '=', w.appId)
      .where('created_at', '>=', w.from)
      .where('created_at', '<', w.to)
      .where('user_id', 'in', userIds);
    if (w.currency !== undefined) q = q.where('currency', '=', w.currency);
    return q.groupBy(['user_id', 'kind']);
  },

  pending(db: Kysely<Tables>, appId: number, userIds: string[]) {
    return db
      .selectFrom('supplements')
      .select(['user_id', sql<number>`count(*)`.as('n')])
      .where('app_id', '=', appId)
      .where('user_id', 'in', userIds)
      .where('supply_status', '=', SupplyStatus.PENDING)
      .where('channel_type', 'in', [1, 2])
      .groupBy('user_id');
  },
};
