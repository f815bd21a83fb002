import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import client from 'prom-client';
import type { Config } from '../config/config.js';
import { safeEqual } from '../crypto/secret-box.js';
import { AppError } from '../errors/app-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's Prometheus registry; domains add their metrics to it. */
    metrics: client.Registry;
    /** The URL of the separate metrics listener (METRICS_PORT) once listening; null when /metrics is on PORT. */
    metricsUrl: () => string | null;
  }
}

/** The startup line that says where /metrics is served and to whom (issue 41). */
export function metricsStartupLine(
  config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_PUBLIC'>,
): string {
  const auth = config.METRICS_TOKEN !== undefined ? 'with the METRICS_TOKEN bearer token' : undefined;
  if (config.METRICS_PORT !== undefined)
    return `metrics: /metrics on ${config.METRICS_HOST}:${config.METRICS_PORT} only, ${auth ?? 'without a token'}`;
  if (auth) return `metrics: /metrics on the main port, ${auth}`;
  if (config.METRICS_PUBLIC) return 'metrics: /metrics on the main port is OPEN to anyone (METRICS_PUBLIC=true)';
  return 'metrics: /metrics is closed (set METRICS_TOKEN, METRICS_PORT or METRICS_PUBLIC=true to scrape it)';
}

/** Whether an Authorization header is `Bearer <token>` (compared in constant time). */
function bearerIs(header: string | string[] | undefined, token: string): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match !== null && safeEqual(match[1]!, token);
}

/**
 * Prometheus metrics at /metrics: request counts and latency histograms by
 * route (the route pattern, never the raw URL, so cardinality stays bounded),
 * plus the Node.js process metrics. One registry per app instance, so tests
 * can run several services in one process.
 *
 * The metrics name game hosts and app ids, so they are not for everyone (docs/operations.md#health-and-metrics), and
 * closed by default (issue 41): on the main port /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`,
 * or to anyone when METRICS_PUBLIC=true says so; METRICS_PORT moves it to a listener of its own (METRICS_HOST, loopback
 * by default), which serves /metrics alone (with the token when one is set) while the main port answers it 404.
 */
export function installMetrics(app: FastifyInstance, config: Config): void {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request duration in seconds, by route',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.decorate('metrics', registry);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    // The histogram's _count series is the request count by route and status.
    if (route !== '/metrics')
      duration.observe(
        { method: request.method, route, status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    done();
  });
  const token = config.METRICS_TOKEN;
  if (config.METRICS_PORT === undefined) {
    app.decorate('metricsUrl', () => null);
    const open = token === undefined && config.METRICS_PUBLIC;
    app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
      if (!open && (token === undefined || !bearerIs(request.headers.authorization, token)))
        throw new AppError(
          'METRICS_UNAUTHORIZED',
          token === undefined
            ? 'metrics are closed: set METRICS_TOKEN (then send Authorization: Bearer <token>), METRICS_PORT, or METRICS_PUBLIC=true'
            : 'send Authorization: Bearer <METRICS_TOKEN>',
          { headers: { 'www-authenticate': 'Bearer realm="metrics"' } },
        );
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
    return;
  }
  const server = metricsServer(registry, token);
  let url: string | null = null;
  app.decorate('metricsUrl', () => url);
  // Bound before the main port listens (ready runs first), so a taken METRICS_PORT stops the start.
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.METRICS_PORT, config.METRICS_HOST, () => {
        server.off('error', reject);
        const { address, port } = server.address() as AddressInfo;
        url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
        resolve();
      });
    });
    app.log.info(`metrics listening on ${url}/metrics`);
  });
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

/** The separate metrics listener: GET /metrics only, with the token when one is set. Plain text answers. */
function metricsServer(registry: client.Registry, token: string | undefined): http.Server {
  return http.createServer((req, res) => {
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
    };
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(404, 'only /metrics is served here\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, 'GET /metrics\n', { allow: 'GET, HEAD' });
    if (token !== undefined && !bearerIs(req.headers.authorization, token))
      return answer(401, 'send Authorization: Bearer <METRICS_TOKEN>\n', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => answer(500, 'metrics could not be collected\n'),
    );
  });
}
