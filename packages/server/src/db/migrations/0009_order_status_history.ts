import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0009: every status an order went through (2.7: created, awaiting payment,
// succeeded, failed, cancelled), with when and why, written in the same
// transaction as the change itself (orders/orders.repository.ts). Support answers
// "when was this paid, and why did that one fail?" from it. Orders placed
// before this migration have no history rows.
export async function up(db: Kysely<any>): Promise<void> {
  await addAutoIdColumn(db.schema.createTable('order_status_changes'), 'change_id', dialectOf(db))
    .addColumn('trx_no', 'bigint', (c) => c.notNull().references('orders.trx_no'))
    .addColumn('from_status', 'integer')
    .addColumn('to_status', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_status_changes_order')
    .on('order_status_changes')
    .columns(['trx_no', 'change_id'])
    .execute();
}
