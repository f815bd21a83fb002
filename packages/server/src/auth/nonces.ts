import { Batcher, batchesInFlight } from '../db/batcher.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Tables } from '../db/schema.js';

/** A nonce to record: its scope (an app or a token), the nonce, and when it may be forgotten. */
export interface NonceUse {
  scope: string;
  nonce: string;
  expiresAt: number;
}

/** Per use, whether it is the first of its nonce in `uses`: of the same nonce twice in one batch, only the first can be fresh. */
export function firstOfEachNonce(uses: NonceUse[]): boolean[] {
  const seen = new Set<string>();
  return uses.map((u) => {
    const key = `${u.scope}\u0000${u.nonce}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Records nonces in the caller's transaction (a write route that stores its
 * request with them, see verifyMd5Signature); answers, per use, whether it
 * was fresh. Uses must be distinct.
 */
export async function recordNonces(trx: Kysely<Tables>, uses: NonceUse[]): Promise<boolean[]> {
  if (uses.length === 0) return [];
  const rows = await trx
    .insertInto('nonces')
    .values(uses.map((u) => ({ scope: u.scope, nonce: u.nonce, expires_at: u.expiresAt })))
    .onConflict((oc) => oc.columns(['scope', 'nonce']).doNothing())
    .returning(['scope', 'nonce'])
    .execute();
  const inserted = new Set(rows.map((r) => `${r.scope}\u0000${r.nonce}`));
  return uses.map((u) => inserted.has(`${u.scope}\u0000${u.nonce}`));
}

/**
 * One-time nonces (5.1, 5.2), kept in the database so they hold across several
 * service instances. A nonce is kept as long as the timestamp window, after
 * which the timestamp check alone refuses a replay.
 *
 * Concurrent requests' nonces are written together (group commit, db/batcher.ts):
 * one insert-if-absent per batch (Database.relaxedInsertIgnore), and a nonce is
 * fresh exactly when its row was inserted. The unique key still decides, so
 * batches in flight at once (here or on other instances) stay correct. On
 * PostgreSQL four batches in flight match the four connections of the relaxed
 * pool: under load a batch waits less for the one before it.
 */
export class NonceStore {
  readonly #batcher: Batcher<NonceUse, boolean>;

  constructor(private readonly database: Database) {
    this.#batcher = new Batcher((uses) => this.#write(uses), {
      maxBatch: 500,
      maxInFlight: batchesInFlight(database.dialect),
    });
  }

  /** Records the nonce; false when it was already used in this scope. */
  consume(scope: string, nonce: string, expiresAt: number): Promise<boolean> {
    return this.#batcher.submit({ scope, nonce, expiresAt });
  }

  async #write(uses: NonceUse[]): Promise<boolean[]> {
    const isFirst = firstOfEachNonce(uses);
    const fresh = uses.filter((_, i) => isFirst[i]);
    const inserted = await this.database.relaxedInsertIgnore(
      'nonces',
      fresh.map((u) => ({ scope: u.scope, nonce: u.nonce, expires_at: u.expiresAt })),
    );
    let k = 0;
    return isFirst.map((first) => (first ? inserted[k++]! : false));
  }

  /** Deletes expired nonces; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const result = await this.database.db.deleteFrom('nonces').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
