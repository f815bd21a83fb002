import { sql, type Kysely } from 'kysely';

// 0007: outbox indexes shaped for the dispatcher.
// - Claims read pending events in (next_attempt_at, event_id) order with a
//   LIMIT. outbox_due was (state, next_attempt_at): without event_id every
//   claim sorted all due rows (the whole backlog) to take the first batch. The
//   new index is in claim order and holds pending events only, so delivered
//   ones leave it (and a completion writes one index entry fewer).
// - outbox_app_state (app_id, state, dead_at) served only the recovery of dead
//   events; a partial index of dead events does that, and no claim or
//   completion has to update it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_due').execute();
  await db.schema
    .createIndex('outbox_pending_due')
    .on('outbox')
    .columns(['next_attempt_at', 'event_id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.dropIndex('outbox_app_state').execute();
  await db.schema
    .createIndex('outbox_app_dead')
    .on('outbox')
    .columns(['app_id', 'dead_at'])
    .where(sql.ref('state'), '=', 'dead')
    .execute();
}
