import type { CacheBus, CacheKey } from './cache-bus.js';

/**
 * A per-instance cache of database reads. A change made on this instance drops
 * its entries at once (`delete`); given a `shared` scope on a bus, the delete
 * is told to the other instances too, which drop theirs within milliseconds
 * (PostgreSQL LISTEN/NOTIFY: pg-cache-bus.ts). Without one, or while the bus
 * is down, a change on another instance may leave an entry stale for at most
 * `ttlMs` (the bounds are in docs/scaling.md).
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
    private readonly shared?: { scope: string; bus: CacheBus },
  ) {
    shared?.bus.subscribe(shared.scope, (key) => (key === null ? this.#dropAll() : this.#drop(key as K)));
  }

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
  getOrLoad(key: K, load: (key: K) => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit) return Promise.resolve(hit.value);
    const pending = this.#loading.get(key);
    if (pending) return pending;
    const generation = this.#generation;
    const readAt = this.now();
    const loading: Promise<V> = load(key)
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

  /** Drops `key` here and, with a shared scope, on every other instance. */
  delete(key: K & CacheKey): void {
    this.#drop(key);
    this.shared?.bus.publish(this.shared.scope, key);
  }

  /** Drops every entry whose value matches (e.g. all tokens of a user); other instances drop the whole scope. */
  deleteWhere(matches: (value: V) => boolean): void {
    this.#generation++;
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
    this.shared?.bus.publish(this.shared.scope, null);
  }

  #drop(key: K): void {
    this.#generation++;
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  #dropAll(): void {
    this.#generation++;
    this.#entries.clear();
    this.#loading.clear();
  }
}

/** A TtlCache of the default bound whose deletes reach the other instances under `scope` when there is a bus. */
export function sharedTtlCache<K, V>(
  ttlMs: number,
  now: () => number,
  scope: string,
  bus: CacheBus | undefined,
): TtlCache<K, V> {
  return new TtlCache<K, V>(ttlMs, now, undefined, bus && { scope, bus });
}
