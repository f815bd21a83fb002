import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0014: the real stores wired into orders (store-payments/).
// - store_transactions: each App Store transaction / Google Play purchase token that paid an order; the key
//   (store, store_key) makes one pay at most once, whatever the order.
// - store_messages: every message a store sent (or the reconciliation found), verified or not, with its outcome, for
//   operators; `dedup_key` (the notificationUUID / Pub/Sub messageId of the first verified delivery) is unique per
//   app and store, so a replay changes nothing.
// - store_cursors: per app and store, how far the reconciliation poll got, and its lease (one instance polls at once).
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('store_transactions')
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('store_key', 'text', (c) => c.notNull())
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('trx_no', 'bigint', (c) => c.notNull().references('orders.trx_no'))
    .addColumn('bank_trx_no', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('acknowledged', 'integer', (c) => c.notNull())
    .addColumn('refunded_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('store_transactions_pk', ['store', 'store_key'])
    .execute();
  await db.schema.createIndex('store_transactions_trx_no').on('store_transactions').column('trx_no').execute();
  await db.schema
    .createIndex('store_transactions_bank')
    .on('store_transactions')
    .columns(['store', 'bank_trx_no'])
    .execute();
  await db.schema
    .createIndex('store_transactions_app_time')
    .on('store_transactions')
    .columns(['app_id', 'store', 'created_at'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('store_messages'), 'message_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('notification_id', 'text')
    .addColumn('dedup_key', 'text')
    .addColumn('type', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('trx_no', 'bigint')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('excerpt', 'text')
    .addUniqueConstraint('store_messages_dedup', ['store', 'app_id', 'dedup_key'])
    .execute();
  await db.schema.createIndex('store_messages_app').on('store_messages').columns(['app_id', 'message_id']).execute();

  await db.schema
    .createTable('store_cursors')
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('store_cursors_pk', ['app_id', 'store'])
    .execute();
}
