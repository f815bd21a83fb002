import type { Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';

/**
 * One-time nonces (5.1, 5.2), kept in the database so they hold across several
 * service instances. A nonce is kept as long as the timestamp window, after
 * which the timestamp check alone refuses a replay.
 */
export class NonceStore {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Records the nonce; false when it was already used in this scope. */
  async consume(scope: string, nonce: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .insertInto('nonces')
      .values({ scope, nonce, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['scope', 'nonce']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Deletes expired nonces; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('nonces').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
