import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { failOpenRedisCounts, memoryCounts, rateLimitRedis, type CountStore } from './rate-limit-store.js';

/** A route's own limit (`config.rateLimit`), in place of the per-app one: e.g. the web page's role checks per IP. */
export interface RouteLimit {
  max: number;
  timeWindow: number;
  keyGenerator: (request: FastifyRequest) => string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own limit (rate-limit.ts); `false`: not limited. */
    rateLimit?: RouteLimit | false;
  }
}

/** A limit as the hook applies it: a route's, or the per-app one, with the store it counts in. */
interface Limit extends RouteLimit {
  store: CountStore;
}

/**
 * Rate limit of the routes games and players call (the spec leaves limits
 * open, 8): at most RATE_LIMIT_PER_MINUTE requests a minute per app (its
 * clientId or appId, wherever the route carries it), or per caller IP when a
 * request names no app. Counted per instance, in memory; with REDIS_URL, in
 * Redis, so the limit holds across instances (a Redis outage fails open:
 * rate-limit-store.ts). Admin, health and
 * metrics routes are not limited. Over the limit: 429 RATE_LIMITED with
 * Retry-After, before any work is done.
 *
 * The counting is @fastify/rate-limit's (its memory and Redis stores); the hook that applies it is ours, a
 * callback-style preHandler placed first on each limited route, chosen when the route is registered (issue 44): the
 * plugin's own hook is an async function awaiting the key, the allow list and the count on every request, which
 * cost 2.2 KB of allocation per request on 4.3 (22.9 KB with it, 20.7 KB with no limit at all; this hook: see
 * docs/benchmarks.md), about a fifth of the gap to the ceiling.
 */
export async function installRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  if (config.RATE_LIMIT_PER_MINUTE === 0) return;
  const redis = config.REDIS_URL === undefined ? undefined : await rateLimitRedis(config.REDIS_URL, app.log);
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  const store = redis ? failOpenRedisCounts(redis, app.metrics) : memoryCounts(50_000);
  const perApp: Limit = { max: config.RATE_LIMIT_PER_MINUTE, timeWindow: 60_000, keyGenerator: callerKey, store };
  app.addHook('onRoute', (route) => {
    const own = route.config?.rateLimit;
    if (own === false || !isLimited(route.url)) return;
    const limit: Limit = own
      ? {
          ...own,
          store: store.child({
            continueExceeding: false,
            exponentialBackoff: false,
            routeInfo: { method: String(route.method), url: route.url },
          }),
        }
      : perApp;
    // First, after parsing and validation (so an app named in the body counts too), before the route's own
    // preHandlers (authentication): a request past the limit is refused before any work.
    const handlers = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [limiter(limit), ...handlers];
  });
}

/** The hook of one limit: counts the request under its key; past `max`, refuses it with 429 and when to retry. */
function limiter(limit: Limit): preHandlerHookHandler {
  return function rateLimited(request, reply, done) {
    const key = limit.keyGenerator(request);
    limit.store.incr(
      key,
      (err, count) => {
        // A failed count (Redis down or slow) lets the request through: the limit is a guard, never an outage.
        if (err || count === null || count.current <= limit.max) return done();
        const seconds = Math.ceil(count.ttl / 1000);
        // The limit is a guard, not a quota: its headers go on the 429 only, not on every answer.
        reply.header('x-ratelimit-limit', limit.max);
        reply.header('x-ratelimit-remaining', 0);
        reply.header('x-ratelimit-reset', seconds);
        reply.header('retry-after', seconds);
        done(
          new AppError(
            'RATE_LIMITED',
            `more than ${limit.max} requests in ${limit.timeWindow / 1000} s for ${key}; retry in ${seconds} s`,
          ),
        );
      },
      limit.timeWindow,
      limit.max,
    );
  };
}

function isLimited(url: string): boolean {
  return !(
    url.startsWith('/admin/') ||
    url.startsWith('/healthz') ||
    url.startsWith('/readyz') ||
    url.startsWith('/metrics') ||
    url.startsWith('/docs') ||
    url.startsWith('/openapi.json')
  );
}

/** The app a request names (query clientId, client_info.client_id, or body appId/clientId), else its IP. */
export function callerKey(request: FastifyRequest): string {
  const q = (request.query ?? {}) as Record<string, unknown>;
  const b = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const info = (b.client_info && typeof b.client_info === 'object' ? b.client_info : {}) as Record<string, unknown>;
  const app = q.clientId ?? q['client_info.client_id'] ?? info.client_id ?? b.clientId ?? b.appId;
  return typeof app === 'string' || typeof app === 'number' ? `app:${app}` : `ip:${request.ip}`;
}
