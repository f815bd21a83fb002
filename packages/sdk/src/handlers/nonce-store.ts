/**
 * Replay protection for platform calls (5.3): each `Nonce` is accepted once while its
 * timestamp is inside the window. The platform signs every attempt afresh, so a
 * legitimate retry never repeats a nonce.
 */

export interface NonceStore {
  /**
   * Records `nonce` until `expiresAtMs`. Answers false when it is already recorded
   * and not yet expired (a replay). Must be atomic for stores shared by several
   * game server instances (e.g. Redis `SET key 1 NX PX ttl`).
   */
  remember(nonce: string, expiresAtMs: number): boolean | Promise<boolean>;
}

/**
 * A NonceStore in this process's memory. Enough for one game server instance;
 * several instances behind a load balancer need a shared store.
 */
export class MemoryNonceStore implements NonceStore {
  readonly #seen = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  /** `maxEntries` bounds memory: past it, the entries closest to expiry are dropped first. */
  constructor(options: { maxEntries?: number; now?: () => number } = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#seen.size;
  }

  remember(nonce: string, expiresAtMs: number): boolean {
    const now = this.#now();
    const until = this.#seen.get(nonce);
    if (until !== undefined && until > now) return false;
    if (this.#seen.size >= this.#maxEntries) this.#evict(now);
    this.#seen.delete(nonce); // re-insert so Map order stays close to expiry order
    this.#seen.set(nonce, expiresAtMs);
    return true;
  }

  #evict(now: number): void {
    for (const [k, until] of this.#seen) if (until <= now) this.#seen.delete(k);
    // Still full: drop the oldest tenth (expiry times grow with insertion time), so a
    // full store does not scan on every insert.
    const excess = this.#seen.size - this.#maxEntries + Math.max(1, Math.floor(this.#maxEntries / 10));
    if (excess <= 0) return;
    let n = 0;
    for (const k of this.#seen.keys()) {
      if (n++ >= excess) break;
      this.#seen.delete(k);
    }
  }
}
