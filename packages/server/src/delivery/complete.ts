import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';

/**
 * Marks claimed events delivered (one statement per claim token). An event
 * whose claim lapsed and was taken by another instance is left to that one.
 */
export async function markDelivered(db: Kysely<Tables>, events: Array<{ eventId: number; claimToken: string }>, now: number): Promise<void> {
  const byToken = new Map<string, number[]>();
  for (const e of events) byToken.set(e.claimToken, [...(byToken.get(e.claimToken) ?? []), e.eventId]);
  for (const [token, ids] of byToken) {
    await db.updateTable('outbox')
      .set({ state: 'delivered', delivered_at: now, attempts: sql`attempts + 1`, claim_token: null, last_error: null })
      .where('event_id', 'in', ids)
      .where('claim_token', '=', token)
      .execute();
  }
}
