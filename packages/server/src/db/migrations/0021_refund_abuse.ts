import { sql, type Kysely } from 'kysely';

// 0021: refund abuse in sight (issue 27; docs/orders.md "Refund abuse"). An index of the refund orders (trxType 2)
// alone, by app and creation time, holding what the refunders view groups and sums (user, currency, amount), so
// that view reads only the refunds of one app in its window, from the index, on both backends. It is partial: the
// payments, the bulk of the table, are not in it. The query repeats the literal `trx_type = 2` (never a bound
// parameter) so that both planners can match the index's condition.
// And the per-app order setting that refuses new store orders from a player with a pending supplement (4.5), off
// by default.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('orders_refunds')
    .on('orders')
    .columns(['app_id', 'created_at', 'user_id', 'currency', 'total_minor'])
    .where(sql<boolean>`trx_type = 2`)
    .execute();
  await db.schema
    .alterTable('order_settings')
    .addColumn('refuse_store_orders_in_arrears', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
