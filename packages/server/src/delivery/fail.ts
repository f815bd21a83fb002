import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';
import { nextAttemptAt, type RetrySchedule } from './schedule.js';

/**
 * A failed attempt: the event is due again per the schedule, or dead after
 * the last attempt (it stays visible and can be resent). Returns the new state.
 */
export async function markFailed(
  db: Kysely<Tables>,
  event: { eventId: number; claimToken: string; attemptsBefore: number },
  error: string,
  schedule: RetrySchedule,
  now: number,
): Promise<'pending' | 'dead'> {
  const next = nextAttemptAt(schedule, event.attemptsBefore + 1, now);
  await db.updateTable('outbox')
    .set({
      attempts: sql`attempts + 1`,
      claim_token: null,
      last_error: error.slice(0, 1000),
      ...(next === null ? { state: 'dead', dead_at: now } : { next_attempt_at: next }),
    })
    .where('event_id', '=', event.eventId)
    .where('claim_token', '=', event.claimToken)
    .execute();
  return next === null ? 'dead' : 'pending';
}
