import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { groupBy } from '../db/group-by.js';

/** Why an event was handed back without an attempt: its host's limit, its app's rate, or none (stopping). */
export type HeldReason = 'host' | 'app_rate' | null;

/**
 * Gives claimed events back without an attempt, tried again at `at`: when their
 * destination host is saturated, the app is over its rate, or the instance
 * is stopping. One statement per claim (events claimed together share its token).
 * Their due_at is kept, so the wait counts from when they fell due, and the
 * reason is noted for the held-back gauge (metrics.ts).
 */
export async function releaseClaims(
  db: Kysely<Tables>,
  events: Array<{ eventId: number; claimToken: string }>,
  at: number,
  reason: HeldReason,
): Promise<void> {
  for (const [token, ids] of groupBy(
    events,
    (e) => e.claimToken,
    (e) => e.eventId,
  )) {
    await db
      .updateTable('outbox')
      .set({ next_attempt_at: at, claim_token: null, held_reason: reason })
      .where('claim_token', '=', token)
      .where('event_id', 'in', ids)
      .execute();
  }
}
