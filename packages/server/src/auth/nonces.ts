import type { Database } from '../db/database.js';

interface Pending {
  scope: string;
  nonce: string;
  expiresAt: number;
  resolve: (fresh: boolean) => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 500;
const MAX_IN_FLIGHT = 2;

/**
 * One-time nonces (5.1, 5.2), kept in the database so they hold across several
 * service instances. A nonce is kept as long as the timestamp window, after
 * which the timestamp check alone refuses a replay.
 *
 * Concurrent requests' nonces are written together (group commit): one
 * insert-if-absent per batch (Database.relaxedInsertIgnore), and a nonce is
 * fresh exactly when its row was inserted. The unique key still decides,
 * so batches in flight at once (here or on other instances) stay correct.
 */
export class NonceStore {
  #pending: Pending[] = [];
  #scheduled = false;
  #inFlight = 0;

  constructor(private readonly database: Database) {}

  /** Records the nonce; false when it was already used in this scope. */
  consume(scope: string, nonce: string, expiresAt: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ scope, nonce, expiresAt, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= MAX_IN_FLIGHT || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const batch = this.#pending.splice(0, MAX_BATCH);
      this.#inFlight++;
      this.#write(batch).finally(() => {
        this.#inFlight--;
        this.#schedule();
      });
      this.#schedule();
    });
  }

  async #write(batch: Pending[]): Promise<void> {
    // The same nonce twice in one batch: only the first can be fresh.
    const first = new Map<string, Pending>();
    const duplicates: Pending[] = [];
    for (const p of batch) {
      const key = `${p.scope}\u0000${p.nonce}`;
      if (first.has(key)) duplicates.push(p);
      else first.set(key, p);
    }
    try {
      const fresh = [...first.values()];
      const inserted = await this.database.relaxedInsertIgnore('nonces', fresh.map((p) => ({ scope: p.scope, nonce: p.nonce, expires_at: p.expiresAt })));
      fresh.forEach((p, i) => p.resolve(inserted[i]!));
      for (const p of duplicates) p.resolve(false);
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }

  /** Deletes expired nonces; returns how many. */
  async purgeExpired(now: number): Promise<number> {
    const result = await this.database.db.deleteFrom('nonces').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
