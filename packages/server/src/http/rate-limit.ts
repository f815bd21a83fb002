import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { failOpenRedisStore, rateLimitRedis } from './rate-limit-store.js';

/**
 * Rate limit of the routes games and players call (the spec leaves limits
 * open, 8): at most RATE_LIMIT_PER_MINUTE requests a minute per app (its
 * clientId or appId, wherever the route carries it), or per caller IP when a
 * request names no app. Counted per instance, in memory; with REDIS_URL, in
 * Redis, so the limit holds across instances (a Redis outage fails open:
 * rate-limit-store.ts). Admin, health and
 * metrics routes are not limited. Over the limit: 429 RATE_LIMITED with
 * Retry-After, before any work is done.
 */
export async function installRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  if (config.RATE_LIMIT_PER_MINUTE === 0) return;
  const redis = config.REDIS_URL === undefined ? undefined : rateLimitRedis(config.REDIS_URL, app.log);
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    ...(redis ? { store: failOpenRedisStore(redis, app.metrics), skipOnError: true } : {}),
    global: true,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // After parsing and validation, so an app named in the body counts too.
    hook: 'preHandler',
    cache: 50_000,
    allowList: (request) => !isLimited(request.url),
    keyGenerator: callerKey,
    // The limit is a guard, not a quota: its headers go on the 429 only, not on every answer.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (request, ctx) =>
      new AppError(
        'RATE_LIMITED',
        `more than ${ctx.max} requests a minute for ${callerKey(request)}; retry in ${ctx.after}`,
      ),
  });
  // The plugin appends its preHandler after a route's own (the auth hooks, auth/): moved first, so a request past the
  // limit is refused before any work, authentication included. This onRoute hook runs after the plugin's.
  app.addHook('onRoute', (route) => {
    const handlers = route.preHandler;
    if (Array.isArray(handlers) && handlers.length > 1) handlers.unshift(handlers.pop()!);
  });
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
