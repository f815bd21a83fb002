import type { Kysely } from 'kysely';
import { addAutoIdColumn, dialectOf } from '../dialect.js';

// 0005: the delivery engine: claims on the outbox, the attempt log, the log of game-hosted calls (4.8-4.10).
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema.alterTable('outbox').addColumn('claim_token', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('dead_at', 'bigint').execute();
  await db.schema.createIndex('outbox_app_state').on('outbox').columns(['app_id', 'state', 'dead_at']).execute();

  await addAutoIdColumn(db.schema.createTable('delivery_attempts'), 'attempt_id', dialect)
    .addColumn('event_id', 'bigint', (c) => c.notNull().references('outbox.event_id'))
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('attempt_no', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('delivery_attempts_event')
    .on('delivery_attempts')
    .columns(['event_id', 'attempt_id'])
    .execute();

  await addAutoIdColumn(db.schema.createTable('game_calls'), 'call_id', dialect)
    .addColumn('app_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('try_no', 'integer', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('game_calls_app').on('game_calls').columns(['app_id', 'started_at']).execute();
}
