import type { Kysely } from 'kysely';

// 0019: indexes for the console overview (overview/, docs/console.md "Overview"). Each overview series is one
// grouped read over a bounded time range (at most 31 days); these indexes make that read a range scan of the
// window instead of a scan of the table. The outbox index also covers the state, so counting events by hour and
// outcome never touches the rows. Attempts and game calls already have a started_at index (0012).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('outbox_created').on('outbox').columns(['created_at', 'app_id', 'state']).execute();
  await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'app_id']).execute();
  await db.schema.createIndex('supplements_created').on('supplements').columns(['created_at', 'app_id']).execute();
}
