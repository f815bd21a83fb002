import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { DeliveryAttemptsTable } from './outbox.tables.js';

export type AttemptOutcome = 'delivered' | 'http_status' | 'timeout' | 'network' | 'refused' | 'no_url';

export type NewAttempt = Insertable<DeliveryAttemptsTable>;

/** How much of a game's answer is kept with the attempt. */
export const RESPONSE_KEEP_BYTES = 1024;

/**
 * A game's answer as kept with the attempt: the decoder already made invalid UTF-8 U+FFFD, and a NUL becomes
 * U+FFFD too, since PostgreSQL text cannot hold it (docs/errors.md, "Text"). A diagnostic excerpt, so lossy.
 */
export function answerExcerpt(body: string): string {
  return body.includes('\0') ? body.replaceAll('\0', '\ufffd') : body;
}

export async function recordAttempts(db: Kysely<Tables>, attempts: NewAttempt[]): Promise<void> {
  if (attempts.length > 0) await db.insertInto('delivery_attempts').values(attempts).execute();
}
