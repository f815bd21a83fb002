import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';

/**
 * Operator resend: the event is due now, whatever its state. Same notifyId
 * and body; fresh Timestamp, Nonce and Signature. A dead event gets one more
 * attempt; a pending one keeps its place in the schedule. False: no such event.
 */
export async function resendEvent(db: Kysely<Tables>, eventId: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set({
      state: 'pending',
      next_attempt_at: now,
      due_at: now,
      held_reason: null,
      claim_token: null,
      dead_at: null,
      delivered_at: null,
    })
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
