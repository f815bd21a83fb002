import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0032: operators' refunds of web orders through the provider that took them (payment-providers/, issue 39).
// - refund_requests: one row per (order, idempotency key): the amount, the reason and who asked, what the provider
//   answered (its refund id, or why it refused), and the reconciliation's lease. The provider's own idempotency key
//   (Stripe Idempotency-Key, PayPal-Request-Id, Alipay out_request_no, WeChat Pay out_refund_no) is derived from the
//   row, so a second click or a retried request reaches the provider once.
export async function up(db: Kysely<any>): Promise<void> {
  await addAutoIdColumn(db.schema.createTable('refund_requests'), 'refund_request_id', dialectOf(db))
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('trx_no', 'bigint', (c) => c.notNull().references('provider_payments.trx_no'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('provider_refund_id', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('refund_requests_key', ['trx_no', 'idempotency_key'])
    .execute();
  // The reconciliation's round: requests not yet settled, oldest first.
  await db.schema
    .createIndex('refund_requests_unsettled')
    .on('refund_requests')
    .columns(['state', 'requested_at'])
    .execute();
}
