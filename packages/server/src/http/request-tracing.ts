import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { openSpan, serverAddress, tracingOn, type Attributes, type OpenSpan } from '../tracing/tracing.js';
import { IpAllowList } from '../config/ip-ranges.js';
import { redactUrl } from './logging.js';
import { isQuiet } from './quiet-routes.js';

const spans = new WeakMap<FastifyRequest, OpenSpan>();
/** Requests whose span waits for their caller: a game's traceparent that its app may have us continue. */
const pending = new WeakMap<FastifyRequest, { traceparent: string; startTime: number }>();

/**
 * A server span for each request (docs/operations.md#tracing), installed only when tracing runs. The span opens in
 * onRequest and ends with the answer; the route's handler runs with it active (wrapped on route registration), so a
 * game call, store call or outbox event made by the handler is its child. An incoming `traceparent` is continued
 * from a TRUSTED_PROXIES peer (our own balancer or gateway), or from a game whose app says so (`trustTraceparent`,
 * migration 0034) on its md5-signed requests, which trusts nothing else of it (not its X-Forwarded-For). From anyone
 * else it could graft our spans onto a trace of theirs or force sampling, so their request starts a trace of its own.
 * Such a request's span opens once its caller is known (its handler, or its answer when refused before), with the
 * arrival as its start time. The request's log lines carry the trace id. Health checks and static files make no
 * span unless TRACE_QUIET_ROUTES=true.
 */
export function installRequestTracing(
  app: FastifyInstance,
  o: { trustedProxies: readonly string[]; traceQuietRoutes: boolean },
): void {
  if (!tracingOn) return;
  const { trustedProxies } = o;
  const proxies = trustedProxies.length > 0 ? new IpAllowList(trustedProxies) : null;
  const open = (request: FastifyRequest, parent: string | null, startTime?: number): OpenSpan | null => {
    const route = request.routeOptions.url;
    const span = openSpan(`${request.method} ${route ?? 'unmatched'}`, {
      kind: 'server',
      parent,
      ...(startTime !== undefined ? { startTime } : {}),
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'url.path': redactUrl(request.url).split('?')[0],
        'client.address': request.ip,
        ...serverAddress(request.host, request.protocol),
      },
    });
    if (span) {
      spans.set(request, span);
      request.log = request.log.child({ traceId: span.traceId, spanId: span.spanId });
    }
    return span;
  };
  /** Opens a waiting span: continuing the game's trace when its app says so and the request is md5-signed (5.1). */
  const openPending = (request: FastifyRequest): OpenSpan | null => {
    const waiting = pending.get(request);
    if (!waiting) return null;
    pending.delete(request);
    const caller = request.caller;
    const trusted = caller !== null && caller.token === null && caller.app.trustTraceparent === true;
    return open(request, trusted ? waiting.traceparent : null, waiting.startTime);
  };
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function traced(this: FastifyInstance, request, reply) {
      const span = spans.get(request) ?? openPending(request);
      return span ? span.run(() => handler.call(this, request, reply)) : handler.call(this, request, reply);
    };
  });
  app.addHook('onRequest', (request, _reply, done) => {
    // Health checks and a page's files make no traces (a page load was 12), unless TRACE_QUIET_ROUTES=true.
    if (!o.traceQuietRoutes && isQuiet(request)) return done();
    const incoming = request.headers.traceparent;
    if (typeof incoming === 'string' && proxies?.has(request.socket.remoteAddress)) open(request, incoming);
    else if (typeof incoming === 'string') pending.set(request, { traceparent: incoming, startTime: Date.now() });
    else open(request, null);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request) ?? openPending(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      // A signed request (5.1, 5.2) names its game once authenticated.
      if (request.caller) span.setAttribute('game.app_id', request.caller.app.appId);
      if (reply.statusCode >= 500) span.fail(`HTTP ${reply.statusCode}`);
      span.end();
    }
    done();
  });
}

/**
 * Adds attributes to the request's span (when it has one), e.g. who the operator of an admin request is: set where the
 * caller becomes known (operators/admin-access.routes.ts).
 */
export function annotateRequestSpan(request: FastifyRequest, attributes: Attributes): void {
  const span = spans.get(request);
  if (!span) return;
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) span.setAttribute(k, v);
}
