import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import client from 'prom-client';

/** A request count of one key in its window: how many so far, and the milliseconds left of the window. */
export interface Count {
  current: number;
  ttl: number;
}

/**
 * Where the limits count (@fastify/rate-limit's stores, used as they are): `incr` adds one request of `key` to its
 * window of `timeWindow` ms and answers the count; `child` is a store of its own for one route's limit.
 */
export interface CountStore {
  incr(key: string, cb: (err: Error | null, count: Count | null) => void, timeWindow: number, max: number): void;
  child(routeOptions: {
    continueExceeding: boolean;
    exponentialBackoff: boolean;
    routeInfo: { method: string; url: string };
  }): CountStore;
}

// The plugin's own stores (an LRU of counters in memory; one Lua INCR+PEXPIRE per request in Redis), not re-written
// here; they are CommonJS with no export map entry for their types.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache: number,
) => CountStore;
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => CountStore;

/** Counts in this instance's memory, for at most `keys` keys at once (the least recently counted go first). */
export function memoryCounts(keys: number): CountStore {
  return new LocalStore(false, false, keys);
}

/**
 * A Redis connection for the rate limits that never queues or waits: a request must not stall behind Redis. ioredis
 * is loaded only when REDIS_URL is set (~2 MB of heap an instance on its own never needs).
 */
export async function rateLimitRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    // Fail at once while disconnected (no offline queue), and give up on a command that takes more than 250 ms:
    // the limiter then lets the request through (fail open) rather than hold it.
    enableOfflineQueue: false,
    commandTimeout: 250,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // Keep reconnecting in the background, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    lazyConnect: false,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    // One line per outage, not one per reconnect attempt; the URL (which may hold a password) is never logged.
    if (!down) log.warn({ err: { message: err.message } }, 'rate limit store (Redis) unreachable: limits fail open');
    down = true;
  });
  redis.on('ready', () => {
    if (down) log.info('rate limit store (Redis) reachable again');
    down = false;
  });
  return redis;
}

/**
 * The counts when REDIS_URL is set: the plugin's Redis store, with each failure counted in
 * rate_limit_store_errors_total. A failed count lets the request through (rate-limit.ts): the limits are a guard,
 * and a Redis outage must never stop payments (docs/operations.md "Several instances").
 */
export function failOpenRedisCounts(redis: Redis, registry: client.Registry): CountStore {
  const errors = new client.Counter({
    name: 'rate_limit_store_errors_total',
    help: 'Rate limit counts that failed in Redis; each let its request through (fail open)',
    registers: [registry],
  });
  const counted = (inner: CountStore): CountStore => ({
    incr: (key, cb, timeWindow, max) =>
      inner.incr(
        key,
        (err, count) => {
          if (err) errors.inc();
          cb(err, count);
        },
        timeWindow,
        max,
      ),
    child: (routeOptions) => counted(inner.child(routeOptions)),
  });
  return counted(new RedisStore(false, false, redis, 'gp-rate-'));
}
