import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0024: store purchases a fraudster cannot turn (issue 27; docs/stores.md).
// - store_revocations: refunds and voids a store reported (notification or reconciliation) for a transaction no
//   order knew yet, kept so the transaction is refused when a player submits it later (Apple transactionId / Google
//   purchase token as store_key, Apple transactionId / Google orderId as bank_trx_no).
// - order_settings.account_binding: required | when_present (default) | off, how a store transaction's
//   appAccountToken / obfuscatedExternalAccountId must match the submitting player.
// - order_settings.consumption_consent / consumption_consented_at / refund_preference: the studio's statement that
//   its players consented to consumption data going to Apple (null: off, the default), when the operator recorded
//   it, and the refund preference sent with it.
// - order_consumption: what the game reported of a purchase's consumption (POST .../consumption, 5.1), in Apple's
//   milliunits (0..100000).
// - store_consumption_requests: each CONSUMPTION_REQUEST and what was done with it (queued through the outbox,
//   sent, skipped without consent, expired past Apple's 12 hours), for operators.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('store_revocations')
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('store_key', 'text', (c) => c.notNull())
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('bank_trx_no', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('store_revocations_pk', ['store', 'store_key'])
    .execute();
  await db.schema
    .createIndex('store_revocations_bank')
    .on('store_revocations')
    .columns(['store', 'bank_trx_no'])
    .execute();

  await db.schema
    .alterTable('order_settings')
    .addColumn('account_binding', 'text', (c) => c.notNull().defaultTo('when_present'))
    .execute();
  await db.schema.alterTable('order_settings').addColumn('consumption_consent', 'text').execute();
  await db.schema.alterTable('order_settings').addColumn('consumption_consented_at', 'bigint').execute();
  await db.schema.alterTable('order_settings').addColumn('refund_preference', 'text').execute();

  await db.schema
    .createTable('order_consumption')
    .addColumn('trx_no', 'bigint', (c) => c.primaryKey().references('orders.trx_no'))
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('consumption_percentage', 'integer', (c) => c.notNull())
    .addColumn('reported_at', 'bigint', (c) => c.notNull())
    .execute();

  await addAutoIdColumn(db.schema.createTable('store_consumption_requests'), 'request_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('trx_no', 'bigint')
    .addColumn('reason', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('event_id', 'bigint')
    .addColumn('body', 'text')
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('deadline_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('store_consumption_requests_app')
    .on('store_consumption_requests')
    .columns(['app_id', 'request_id'])
    .execute();
}
