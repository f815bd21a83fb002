/**
 * A per-instance cache of database reads that a change on another instance
 * may leave stale for at most `ttlMs` (the bounds are in docs/decisions.md);
 * a change made on this instance drops its entries at once (`delete`).
 * Misses are cached too (a null value). Bounded: past `maxEntries` it starts
 * afresh rather than tracking recency.
 */
export class TtlCache<K, V> {
  readonly #entries = new Map<K, { value: V; until: number }>();
  readonly #loading = new Map<K, Promise<V>>();
  /** Bumped by every delete, so a load that began before a change is not kept. */
  #generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 10_000,
  ) {}

  /** The live entry of `key`, or undefined when there is none (a cached miss is an entry holding null). */
  get(key: K): { value: V } | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.until > this.now() ? hit : undefined;
  }

  /** Caches `value`, read at `readAt` (default now): it is trusted until `readAt + ttlMs`. */
  set(key: K, value: V, readAt: number = this.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, until: readAt + this.ttlMs });
  }

  /**
   * The live value, else `load`'s, cached. One load per key however many
   * callers miss at once (a cache expiry under load sends one query); a load
   * that began before a delete of any key answers its callers but is not kept.
   */
  getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit) return Promise.resolve(hit.value);
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const generation = this.#generation;
    const readAt = this.now();
    const loading: Promise<V> = load()
      .then((value) => {
        if (generation === this.#generation) this.set(key, value, readAt);
        return value;
      })
      .finally(() => {
        if (this.#loading.get(key) === loading) this.#loading.delete(key);
      });
    this.#loading.set(key, loading);
    return loading;
  }

  delete(key: K): void {
    this.#generation++;
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  /** Drops every entry whose value matches (e.g. all tokens of a user). */
  deleteWhere(matches: (value: V) => boolean): void {
    this.#generation++;
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }
}
