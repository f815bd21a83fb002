import { sql, type Kysely } from 'kysely';

// 0012: indexes for retention (retention/retention.ts): each purge picks its next batch of keys by a range on a
// time column, so that column is indexed and a sweep with nothing to purge reads one index entry, not the table.
// - delivery_attempts by started_at (attempts of every event age out);
// - finished outbox events by (type, delivered_at), delivered ones only: the purge asks for the non-financial
//   types, so old payment and refund notifications (kept forever) are never walked over; dead events are few and
//   found through outbox_app_dead (migration 0007);
// - game_calls by started_at (game_calls_app leads with app_id), admin_actions by at.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('delivery_attempts_started').on('delivery_attempts').columns(['started_at']).execute();
  await db.schema
    .createIndex('outbox_delivered')
    .on('outbox')
    .columns(['type', 'delivered_at'])
    .where(sql.ref('state'), '=', 'delivered')
    .execute();
  await db.schema.createIndex('game_calls_started').on('game_calls').columns(['started_at']).execute();
  await db.schema.createIndex('admin_actions_at').on('admin_actions').columns(['at']).execute();
}
