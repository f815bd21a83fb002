import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';

/**
 * Gives claimed events back without an attempt, due at `at`: when their
 * destination host is saturated, the app is over its rate, or the instance
 * is stopping. One statement per claim (events claimed together share its token).
 */
export async function releaseClaims(db: Kysely<Tables>, events: Array<{ eventId: number; claimToken: string }>, at: number): Promise<void> {
  const byToken = new Map<string, number[]>();
  for (const e of events) byToken.set(e.claimToken, [...(byToken.get(e.claimToken) ?? []), e.eventId]);
  for (const [token, ids] of byToken) {
    await db.updateTable('outbox')
      .set({ next_attempt_at: at, claim_token: null })
      .where('claim_token', '=', token)
      .where('event_id', 'in', ids)
      .execute();
  }
}
