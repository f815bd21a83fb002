import { sql, type Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0006: products and prices, orders (payment, supplement, refund), order items,
// pending supplements (2.6), in-game consumption notices (4.6), per-app order settings.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('products'), 'product_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('channel_skus', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('products_app_code', ['app_id', 'product_code'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('orders'), 'trx_no', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('trx_type', 'integer', (c) => c.notNull())
    .addColumn('out_trx_no', 'text')
    .addColumn('original_trx_no', 'bigint')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('platform', 'integer', (c) => c.notNull())
    .addColumn('channel', 'integer', (c) => c.notNull())
    .addColumn('payment_type', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    .addColumn('region', 'text')
    .addColumn('client_amount_minor', 'bigint')
    .addColumn('client_currency', 'text')
    .addColumn('client_region', 'text')
    .addColumn('bank_trx_no', 'text')
    .addColumn('game_server_id', 'text')
    .addColumn('game_role_id', 'text')
    .addColumn('game_ext', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('merged_receipts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sdk_version', 'text')
    .addColumn('ip_country', 'text')
    .addColumn('request_digest', 'text')
    .addColumn('notify_event_id', 'bigint')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('success_time', 'bigint')
    // 2.4 rule 5: one order per (appId, outTrxNo), even for concurrent requests.
    .addUniqueConstraint('orders_app_out_trx_no', ['app_id', 'out_trx_no'])
    .execute();
  // One refund per payment order.
  await db.schema
    .createIndex('orders_one_refund')
    .on('orders')
    .column('original_trx_no')
    .unique()
    .where(sql<boolean>`trx_type = 2`)
    .execute();
  await db.schema.createIndex('orders_user').on('orders').columns(['app_id', 'user_id', 'trx_no']).execute();
  await db.schema.createIndex('orders_role').on('orders').columns(['app_id', 'game_role_id']).execute();
  await db.schema.createIndex('orders_original').on('orders').column('original_trx_no').execute();

  await db.schema
    .createTable('order_items')
    .addColumn('trx_no', 'bigint', (c) => c.notNull().references('orders.trx_no'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_minor', 'bigint', (c) => c.notNull())
    .addColumn('channel_sku_code', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_items_pk', ['trx_no', 'line_no'])
    .execute();

  await db.schema
    .createTable('supplements')
    .addColumn('refund_trx_no', 'bigint', (c) => c.primaryKey().references('orders.trx_no'))
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('original_trx_no', 'bigint', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('out_trade_no', 'text', (c) => c.notNull().unique())
    .addColumn('bank_trade_no', 'text')
    .addColumn('refund_minor', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('channel_type', 'integer', (c) => c.notNull())
    .addColumn('platform', 'integer', (c) => c.notNull())
    .addColumn('supply_status', 'integer', (c) => c.notNull())
    .addColumn('paying_trx_no', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('supplied_at', 'bigint')
    .execute();
  // The arrears query (4.5): pending supplements of one user of one app.
  await db.schema
    .createIndex('supplements_arrears')
    .on('supplements')
    .columns(['app_id', 'user_id', 'supply_status'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('consumption_notices'), 'notice_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('sign', 'text', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    // The dedupe key of 4.6: a notice resent with a fresh nonce keeps its content and timestamp, and is stored once.
    .addUniqueConstraint('consumption_notices_dedupe', [
      'app_id',
      'user_id',
      'role_id',
      'server_id',
      'product_code',
      'timestamp',
    ])
    .execute();

  await db.schema
    .createTable('order_settings')
    .addColumn('app_id', 'bigint', (c) => c.primaryKey().references('apps.app_id'))
    .addColumn('web_region_lock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
