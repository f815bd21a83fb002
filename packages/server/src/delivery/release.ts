import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { groupBy } from '../db/group-by.js';

/**
 * Gives claimed events back without an attempt, due at `at`: when their
 * destination host is saturated, the app is over its rate, or the instance
 * is stopping. One statement per claim (events claimed together share its token).
 */
export async function releaseClaims(
  db: Kysely<Tables>,
  events: Array<{ eventId: number; claimToken: string }>,
  at: number,
): Promise<void> {
  for (const [token, ids] of groupBy(
    events,
    (e) => e.claimToken,
    (e) => e.eventId,
  )) {
    await db
      .updateTable('outbox')
      .set({ next_attempt_at: at, claim_token: null })
      .where('claim_token', '=', token)
      .where('event_id', 'in', ids)
      .execute();
  }
}
