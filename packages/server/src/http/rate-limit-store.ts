import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import client from 'prom-client';

// The plugin's Redis store takes the window and the limit after the callback, which its types leave out.
type Incr = (key: string, cb: Parameters<FastifyRateLimitStore['incr']>[1], timeWindow: number, max: number) => void;
type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => FastifyRateLimitStore;

// The plugin's own Redis store (one Lua INCR+PEXPIRE per request), not re-written here; it is CommonJS with no
// export map entry for its types.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore') as RedisStoreClass;

/** A Redis connection for the rate limits that never queues or waits: a request must not stall behind Redis. */
export function rateLimitRedis(url: string, log: FastifyBaseLogger): Redis {
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
 * The limiter's store when REDIS_URL is set: the plugin's Redis store, with each failure counted in
 * rate_limit_store_errors_total. The plugin runs with skipOnError, so a failed count lets the request through:
 * the limits are a guard, and a Redis outage must never stop payments (docs/operations.md "Several instances").
 */
export function failOpenRedisStore(redis: Redis, registry: client.Registry): FastifyRateLimitStoreCtor {
  const errors = new client.Counter({
    name: 'rate_limit_store_errors_total',
    help: 'Rate limit counts that failed in Redis; each let its request through (fail open)',
    registers: [registry],
  });
  const counted = (inner: FastifyRateLimitStore): FastifyRateLimitStore => {
    const incr: Incr = (key, cb, timeWindow, max) =>
      (inner.incr as unknown as Incr)(
        key,
        (err, res) => {
          if (err) errors.inc();
          cb(err, res);
        },
        timeWindow,
        max,
      );
    return { incr: incr as FastifyRateLimitStore['incr'], child: (routeOptions) => counted(inner.child(routeOptions)) };
  };
  return class {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      return counted(
        new RedisStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, redis, 'gp-rate-'),
      );
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
