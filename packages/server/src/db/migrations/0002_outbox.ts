import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0002: the outbox of events for games (payment, refund, cancellation, consumption forward, test).
export async function up(db: Kysely<any>): Promise<void> {
  await addAutoIdColumn(db.schema.createTable('outbox'), 'event_id', dialectOf(db))
    .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.app_id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('server_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('outbox_app').on('outbox').columns(['app_id', 'created_at']).execute();
}
