import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { MAX_PARAM_LENGTH, installErrorHandling, sendError } from './error-handler.js';
import { answerClientError, answerUnmetExpectation } from './client-error.js';
import { genReqId, installRequestLog, loggerOptions } from './logging.js';
import { installMetrics } from './metrics.js';
import { installRequestTracing } from './request-tracing.js';
import { installRateLimit } from './rate-limit.js';
import { installOpenApi } from './openapi.js';
import { parseJsonBody } from './json-body.js';
import { PlatformEnvelopeError, RpcStatus } from './schemas.js';
import { decorateCaller } from '../auth/caller.js';
import { schemaCompilers } from './schema-compilers.js';

/** Retry-After of the answers while stopping: about the time a restarted instance takes to listen again. */
const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

export interface BuildOptions {
  /** Pass false to silence request logs (tests); default from LOG_LEVEL. */
  logger?: boolean;
}

/**
 * Whether a URL's query has a `%` that is not an escape of valid UTF-8: `%FF`, `%ED%A0%80` (a lone surrogate),
 * `100%`. The router refuses such a path (FST_ERR_BAD_URL) but its query parser keeps the text as it came, so
 * `a=%FF` would read as the same value as `a=%25FF`: refused alike instead. Decodes only a query that has a `%`.
 */
function malformedQuery(url: string): boolean {
  const start = url.indexOf('?');
  if (start < 0 || url.indexOf('%', start) < 0) return false;
  try {
    decodeURIComponent(url.slice(start + 1));
    return false;
  } catch {
    return true;
  }
}

/**
 * The HTTP service: Fastify with TypeBox schemas on every route, one JSON
 * parser, one error handler, metrics and the OpenAPI document, then the
 * routes of every domain: `registerRoutes` (routes.ts buildApp hands them in,
 * so http/ knows no domain).
 */
export async function buildServer(
  config: Config,
  registerRoutes: (app: FastifyInstance) => Promise<void>,
  opts: BuildOptions = {},
): Promise<FastifyInstance> {
  const compilers = schemaCompilers();
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    genReqId,
    // One line per request instead of Fastify's two (installRequestLog).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    // The peer address is the caller unless it is a trusted proxy (TRUSTED_PROXIES):
    // only then are X-Forwarded-For and X-Forwarded-Host believed.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    ajv: { customOptions: { coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: compilers.factory },
    // Requests that arrive while stopping are answered by the onRequest hook below, in our envelope.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Fastify turns Node's request timeout off (0); a request must arrive within REQUEST_TIMEOUT_MS and its
    // headers within HEADERS_TIMEOUT_MS (which cuts slowloris-style trickled headers, and connections that
    // send nothing), checked every second (Node's default: every 30 s). Either answers 408 REQUEST_TIMEOUT.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
      // Node answers a missing Host with an empty 400; the onRequest hook answers it in our envelope.
      requireHostHeader: false,
    },
    // What Node's HTTP parser refuses (bad request line, headers too large, timeouts) in our envelope.
    clientErrorHandler: answerClientError,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    // Errors the router raises before any route matches (a malformed percent-encoding, a path parameter past
    // maxParamLength) answer in our envelope too, not Fastify's own body.
    frameworkErrors: (err, request, reply) => {
      sendError(request, reply, err);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.on('checkExpectation', answerUnmetExpectation);

  // Set when app.close() begins (boot.ts stop(), a test service's close()): from then on, a request that still
  // arrives on an open keep-alive connection is refused, so a client retries elsewhere instead of waiting.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    app.log.info('closing: requests in flight finish, new requests are refused with 503');
    done();
  });

  // Callback-style hooks: an async hook costs a promise and a tick per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      sendError(
        request,
        reply,
        new AppError('UNAVAILABLE', 'the service is shutting down', {
          headers: { 'retry-after': String(SHUTDOWN_RETRY_AFTER_SECONDS), connection: 'close' },
        }),
      );
      return;
    }
    // HTTP/1.1 requires Host (RFC 9112 3.2); HTTP/1.0 clients may leave it out.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      sendError(request, reply, new AppError('MALFORMED_REQUEST', 'an HTTP/1.1 request must carry a Host header'));
      return;
    }
    done(
      malformedQuery(request.url)
        ? new AppError('INVALID_PARAMETER', 'the query string is not valid percent-encoding of UTF-8')
        : undefined,
    );
  });

  // JSON only; any other content type on a body is 415 (see http/error-handler.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  app.addSchema(PlatformEnvelopeError);
  app.addSchema(RpcStatus);
  installErrorHandling(app);
  installRequestLog(app);
  installRequestTracing(app, { trustedProxies: config.trustedProxies, traceQuietRoutes: config.TRACE_QUIET_ROUTES });
  await installOpenApi(app);
  installMetrics(app, config);
  await installRateLimit(app, config);
  decorateCaller(app);
  await registerRoutes(app);
  app.decorate('compileSchemas', compilers.compileAll);
  return app;
}
