import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { DAY_MS, bucketOf, num, type TimeWindow } from '../db/time-buckets.js';
import { OrderStatus, SupplyStatus, TrxType } from './enums.js';

/** One UTC day: orders placed (payment orders), of those paid, refund orders, and supplements still pending. */
export interface DailyCommerce {
  day: number;
  orders: number;
  payments: number;
  refunds: number;
  /** Of `refunds`: refunds made at a web payment provider, and disputes of web payments lost (migration 0031). */
  webRefunds: number;
  disputesLost: number;
  pendingSupplements: number;
}

/**
 * Orders, payments, refunds (of them: web refunds and lost disputes) and pending supplements created in the window,
 * by UTC day: three grouped range scans (orders_created and supplements_created, migration 0019; web_refunds_app or
 * web_refunds_created, 0031). Each figure is the rows of a list route's filter:
 * orders = trxType 0, payments = trxType 0 and status 0 (succeeded), refunds = trxType 2, by created_at.
 */
export async function commerceByDay(db: Kysely<Tables>, w: TimeWindow): Promise<DailyCommerce[]> {
  const day = bucketOf('created_at', DAY_MS);
  let orders = db
    .selectFrom('orders')
    .select([
      day.as('bucket'),
      sql<number>`sum(case when trx_type = ${sql.lit(TrxType.PAYMENT)} then 1 else 0 end)`.as('orders'),
      sql<number>`sum(case when trx_type = ${sql.lit(TrxType.PAYMENT)} and status = ${sql.lit(OrderStatus.SUCCEEDED)} then 1 else 0 end)`.as(
        'payments',
      ),
      sql<number>`sum(case when trx_type = ${sql.lit(TrxType.REFUND)} then 1 else 0 end)`.as('refunds'),
    ])
    .where('created_at', '>=', w.from)
    .where('created_at', '<', w.to);
  if (w.appId !== undefined) orders = orders.where('app_id', '=', w.appId);
  let supplements = db
    .selectFrom('supplements')
    .select([day.as('bucket'), sql<number>`count(*)`.as('n')])
    .where('created_at', '>=', w.from)
    .where('created_at', '<', w.to)
    .where('supply_status', '=', SupplyStatus.PENDING);
  if (w.appId !== undefined) supplements = supplements.where('app_id', '=', w.appId);
  let web = db
    .selectFrom('web_refunds')
    .select([
      day.as('bucket'),
      sql<number>`sum(case when kind = 'dispute_lost' then 0 else 1 end)`.as('refunds'),
      sql<number>`sum(case when kind = 'dispute_lost' then 1 else 0 end)`.as('disputes'),
    ])
    .where('created_at', '>=', w.from)
    .where('created_at', '<', w.to);
  if (w.appId !== undefined) web = web.where('app_id', '=', w.appId);
  const [orderRows, supplementRows, webRows] = await Promise.all([
    orders.groupBy(day).execute(),
    supplements.groupBy(day).execute(),
    web.groupBy(day).execute(),
  ]);
  const days = new Map<number, DailyCommerce>();
  const at = (bucket: unknown) => {
    const d = num(bucket) * DAY_MS;
    const entry = days.get(d) ?? {
      day: d,
      orders: 0,
      payments: 0,
      refunds: 0,
      webRefunds: 0,
      disputesLost: 0,
      pendingSupplements: 0,
    };
    days.set(d, entry);
    return entry;
  };
  for (const r of orderRows)
    Object.assign(at(r.bucket), { orders: num(r.orders), payments: num(r.payments), refunds: num(r.refunds) });
  for (const r of supplementRows) at(r.bucket).pendingSupplements = num(r.n);
  for (const r of webRows) Object.assign(at(r.bucket), { webRefunds: num(r.refunds), disputesLost: num(r.disputes) });
  return [...days.values()].sort((a, b) => a.day - b.day);
}
