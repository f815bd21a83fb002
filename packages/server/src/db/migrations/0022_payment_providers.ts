import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0022: web payment providers (payment-providers/, issue 28).
// - payment_provider_settings: per app and provider, the payer regions offered, public config and the secrets sealed
//   under the master key (`secrets_enc`; `settings_id` is the key a master key rotation pages by).
// - provider_payments: each web order opened at a provider: its reference there, amount and currency, and whether it
//   is open, paid (by which provider transaction: unique, so one pays once) or closed; the reconciliation's lease.
// - provider_messages: every provider message and query find, verified or not, with its outcome, for operators;
//   `dedup_key` (the provider's event id of the delivery that took effect) is unique per app and provider.
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await addAutoIdColumn(db.schema.createTable('payment_provider_settings'), 'settings_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('regions', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('secrets_enc', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('payment_provider_settings_app_provider', ['app_id', 'provider'])
    .execute();

  await db.schema
    .createTable('provider_payments')
    .addColumn('trx_no', 'bigint', (c) => c.primaryKey().references('orders.trx_no'))
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('provider_trx_id', 'text')
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('checked_at', 'bigint')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addUniqueConstraint('provider_payments_ref', ['provider', 'ref'])
    .addUniqueConstraint('provider_payments_trx_id', ['provider', 'provider_trx_id'])
    .execute();
  // The reconciliation's round: open payments by when they were opened.
  await db.schema
    .createIndex('provider_payments_open')
    .on('provider_payments')
    .columns(['state', 'opened_at'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('provider_messages'), 'message_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('dedup_key', 'text')
    .addColumn('type', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('trx_no', 'bigint')
    .addColumn('provider_trx_id', 'text')
    .addColumn('amount_minor', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('excerpt', 'text')
    .addUniqueConstraint('provider_messages_dedup', ['provider', 'app_id', 'dedup_key'])
    .execute();
  await db.schema
    .createIndex('provider_messages_app')
    .on('provider_messages')
    .columns(['app_id', 'message_id'])
    .execute();
}
