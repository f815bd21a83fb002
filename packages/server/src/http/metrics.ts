import type { FastifyInstance } from 'fastify';
import client from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's Prometheus registry; domains add their metrics to it. */
    metrics: client.Registry;
  }
}

/**
 * Prometheus metrics at /metrics: request counts and latency histograms by
 * route (the route pattern, never the raw URL, so cardinality stays bounded),
 * plus the Node.js process metrics. One registry per app instance, so tests
 * can run several services in one process.
 */
export function installMetrics(app: FastifyInstance): void {
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
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
