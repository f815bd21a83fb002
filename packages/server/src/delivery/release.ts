import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';

/**
 * Gives claimed events back without an attempt, due at `at`: when their
 * destination host is saturated, the app is over its rate, or the instance
 * is stopping.
 */
export async function releaseClaims(db: Kysely<Tables>, events: Array<{ eventId: number; claimToken: string }>, at: number): Promise<void> {
  for (const e of events) {
    await db.updateTable('outbox')
      .set({ next_attempt_at: at, claim_token: null })
      .where('event_id', '=', e.eventId)
      .where('claim_token', '=', e.claimToken)
      .execute();
  }
}
