/** What names a cache entry across instances: the keys of our caches are app ids, client ids and composites of them. */
export type CacheKey = string | number;

/**
 * Tells the other instances that something they may hold in a cache changed (issue 31, docs/operations.md
 * "Several instances"). `scope` names a cache ("apps", "store-enabled", ...); a null key drops the whole scope.
 * An instance never hears its own messages: it dropped its own entry when it made the change.
 */
export interface CacheBus {
  publish(scope: string, key: CacheKey | null): void;
  /** `drop` runs when another instance changed `key` of `scope` (null: all of it, e.g. after a missed message). */
  subscribe(scope: string, drop: (key: CacheKey | null) => void): void;
}

/** One instance (the embedded default, or tests of a single service): nothing to tell anyone. */
export const noCacheBus: CacheBus = {
  publish: () => {},
  subscribe: () => {},
};
