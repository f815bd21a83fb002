import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';

/**
 * After an outage: every dead event of an app that died at or after `since`
 * is due again now (one more attempt each). Returns how many.
 */
export async function recoverDeadEvents(
  db: Kysely<Tables>,
  appId: number,
  since: number,
  now: number,
): Promise<number> {
  const result = await db
    .updateTable('outbox')
    .set({ state: 'pending', next_attempt_at: now, due_at: now, held_reason: null, claim_token: null, dead_at: null })
    .where('app_id', '=', appId)
    .where('state', '=', 'dead')
    .where('dead_at', '>=', since)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
