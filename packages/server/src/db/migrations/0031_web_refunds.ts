import { sql, type Kysely } from 'kysely';

// 0031: refunds and lost disputes made at a web payment provider reach the game (issue 39; docs/web-payment.md
// "Refunds and disputes", docs/web-payment.md "Web refunds").
// - web_refunds: one row per refund or lost dispute a provider reported (or an operator made through one), keyed by
//   the provider's own id of it (unique per provider), so the same refund seen through two events or a replay is
//   applied once; each points at its refund order (trxType 2) and the payment it refunds.
// - orders.refunded_minor: how much of a payment web refunds gave back. A refund takes its amount with one
//   conditional update (`refunded_minor + amount <= total_minor`), which holds the row lock until the refund commits,
//   so concurrent refunds of one order can never give back more than it took.
// - orders_one_refund (one refund per payment) becomes one refund per *store* payment: a web payment may be refunded
//   in parts, each part a refund order of its own.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('web_refunds')
    .addColumn('refund_trx_no', 'bigint', (c) => c.primaryKey().references('orders.trx_no'))
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('original_trx_no', 'bigint', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_refund_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('operator', 'text')
    .addColumn('request_id', 'text')
    .addColumn('refunded_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('web_refunds_provider_id', ['provider', 'provider_refund_id'])
    .execute();
  await db.schema.createIndex('web_refunds_original').on('web_refunds').column('original_trx_no').execute();
  // The refund abuse view and the overview count them by app and time, player and kind, from the index alone.
  await db.schema
    .createIndex('web_refunds_app')
    .on('web_refunds')
    .columns(['app_id', 'created_at', 'user_id', 'kind'])
    .execute();
  // The overview across every app: by time.
  await db.schema.createIndex('web_refunds_created').on('web_refunds').columns(['created_at', 'kind']).execute();

  await db.schema
    .alterTable('orders')
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.dropIndex('orders_one_refund').execute();
  await db.schema
    .createIndex('orders_one_store_refund')
    .on('orders')
    .column('original_trx_no')
    .unique()
    .where(sql<boolean>`trx_type = 2 and channel in (1, 2)`)
    .execute();
}
