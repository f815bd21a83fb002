import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';
import type { DeliveryAttemptsTable } from './outbox.tables.js';

export type AttemptOutcome = 'delivered' | 'http_status' | 'timeout' | 'network' | 'refused' | 'no_url';

export type NewAttempt = Insertable<DeliveryAttemptsTable>;

/** How much of a game's answer is kept with the attempt. */
export const RESPONSE_KEEP_BYTES = 1024;

export async function recordAttempts(db: Kysely<Tables>, attempts: NewAttempt[]): Promise<void> {
  if (attempts.length > 0) await db.insertInto('delivery_attempts').values(attempts).execute();
}
