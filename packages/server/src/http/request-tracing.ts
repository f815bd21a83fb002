import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { openSpan, tracingOn, type OpenSpan } from '../tracing/tracing.js';
import { IpAllowList } from './ip-ranges.js';
import { redactUrl } from './logging.js';

const spans = new WeakMap<FastifyRequest, OpenSpan>();

/**
 * A server span for each request (docs/operations.md#tracing), installed only when tracing runs. The span opens in
 * onRequest and ends with the answer; the route's handler runs with it active (wrapped on route registration), so a
 * game call, store call or outbox event made by the handler is its child. An incoming `traceparent` is continued only
 * from a TRUSTED_PROXIES peer (our own balancer or gateway): from anyone else it could graft our spans onto a trace
 * of theirs or force sampling, so their request starts a trace of its own. The request's log lines carry the trace id.
 */
export function installRequestTracing(app: FastifyInstance, trustedProxies: readonly string[]): void {
  if (!tracingOn) return;
  const proxies = trustedProxies.length > 0 ? new IpAllowList(trustedProxies) : null;
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function traced(this: FastifyInstance, request, reply) {
      const span = spans.get(request);
      return span ? span.run(() => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const incoming = request.headers.traceparent;
    const parent = proxies?.has(request.socket.remoteAddress) && typeof incoming === 'string' ? incoming : null;
    const route = request.routeOptions.url;
    const span = openSpan(`${request.method} ${route ?? 'unmatched'}`, {
      kind: 'server',
      parent,
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'url.path': redactUrl(request.url).split('?')[0],
        'client.address': request.ip,
      },
    });
    if (span) {
      spans.set(request, span);
      request.log = request.log.child({ traceId: span.traceId, spanId: span.spanId });
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.fail(`HTTP ${reply.statusCode}`);
      span.end();
    }
    done();
  });
}
