import http from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { ErrorCodes, GrpcCodeNames, type ErrorReason } from '../errors/codes.js';
import { isDatabaseUnavailable } from '../db/dialect.js';
import { TEXT_PATTERN } from './schemas.js';

/** Which envelope a route answers errors in. Set per route as `config.envelope`. */
export type Envelope = 'platform' | 'rpc';

declare module 'fastify' {
  interface FastifyContextConfig {
    envelope?: Envelope;
  }
}

const RPC_PREFIX = '/svc/reporting/';

/** The longest path parameter the router takes (http/server.ts); a longer one is INVALID_PARAMETER. */
export const MAX_PARAM_LENGTH = 200;

/** The envelope of a path when no route says: rpcStatus under /svc/reporting/, else the platform envelope. */
export function envelopeOfPath(path: string): Envelope {
  return path.startsWith(RPC_PREFIX) ? 'rpc' : 'platform';
}

function envelopeOf(request: FastifyRequest): Envelope {
  return request.routeOptions.config?.envelope ?? envelopeOfPath(request.url);
}

type ValidationErrors = Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }>;

/** INVALID_PARAMETER naming the first field a schema refused (Ajv's errors of the route's `context` part). */
export function validationError(validation: ValidationErrors, context: string, cause?: unknown): AppError {
  const first = validation[0]!;
  const base = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = first.params?.missingProperty as string | undefined;
  const extra = first.params?.additionalProperty as string | undefined;
  const field = [base, missing ?? extra].filter(Boolean).join('.') || context;
  const problem = missing
    ? 'is required'
    : extra
      ? 'is not a known field'
      : first.params?.pattern === TEXT_PATTERN
        ? 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate'
        : (first.message ?? 'is invalid');
  return new AppError('INVALID_PARAMETER', `${field}: ${problem}`, { cause });
}

/** Turns anything thrown into an AppError. The only place this mapping happens. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) return databaseUnavailable(err);
  const e = err as FastifyError & { validation?: ValidationErrors; validationContext?: string };
  if (e && Array.isArray(e.validation) && e.validation.length > 0)
    return validationError(e.validation, e.validationContext ?? 'body', err);
  const byCode: Record<string, ErrorReason> = {
    FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
    FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_PARAMETER',
    FST_ERR_BAD_URL: 'INVALID_PARAMETER',
    FST_ERR_MAX_PARAM_LENGTH: 'INVALID_PARAMETER',
    // Refused by Node's HTTP server before Fastify sees a request (http/client-error.ts).
    HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
    HPE_CHUNK_EXTENSIONS_OVERFLOW: 'PAYLOAD_TOO_LARGE',
    ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  };
  // The router's own messages quote the whole path, and Node's name no limit: say what the problem is instead.
  const routerDetail: Record<string, string> = {
    FST_ERR_BAD_URL: 'the path is not valid percent-encoding',
    FST_ERR_MAX_PARAM_LENGTH: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters`,
    HPE_HEADER_OVERFLOW: `the request line and headers are larger than ${http.maxHeaderSize} bytes`,
    ERR_HTTP_REQUEST_TIMEOUT: "the request was not received completely within the server's timeout",
  };
  const reason = e?.code ? byCode[e.code] : undefined;
  if (reason) return new AppError(reason, routerDetail[e.code] ?? e.message, { cause: err });
  // Any other parse error of Node's HTTP parser (llhttp): a bad request line, header or framing.
  if (e?.code?.startsWith('HPE_')) {
    return new AppError(
      'MALFORMED_REQUEST',
      `the request is not valid HTTP/1.1: ${(e as { reason?: string }).reason ?? e.code}`,
      { cause: err },
    );
  }
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status === 404) return new AppError('NOT_FOUND', e.message, { cause: err });
  if (status === 405) return new AppError('METHOD_NOT_ALLOWED', e.message, { cause: err });
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', e.message, { cause: err });
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', e.message, { cause: err });
  if (status === 429) return new AppError('RATE_LIMITED', e.message, { cause: err });
  if (status >= 400 && status < 500) return new AppError('INVALID_PARAMETER', e.message, { cause: err });
  return new AppError('INTERNAL', 'an unexpected error occurred; it has been logged', { cause: err });
}

/** Seconds a caller is asked to wait (Retry-After) when the database is away: a restart or failover takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

function databaseUnavailable(cause: unknown): AppError {
  return new AppError('UNAVAILABLE', 'the database is unavailable; retry with backoff', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** The wire body of an error in the given envelope. */
export function errorBody(error: AppError, envelope: Envelope): object {
  if (envelope === 'rpc') {
    const grpc = ErrorCodes[error.reason].grpc;
    return {
      code: grpc,
      message: error.detail,
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: error.reason,
          domain: 'game-platform',
          metadata: { code: String(error.code), status: GrpcCodeNames[grpc] ?? 'UNKNOWN' },
        },
      ],
    };
  }
  return { code: error.code, msg: error.msg, detail: error.detail, data: error.data ?? '' };
}

const refusals = new WeakMap<FastifyRequest, { reason: string; detail: string }>();

/** Why a request was refused (its reason and detail), for its one request log line (http/logging.ts). */
export function refusalOf(request: FastifyRequest): { reason: string; detail: string } | undefined {
  return refusals.get(request);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const error = toAppError(err);
  // A refusal's reason and detail go on the request's one log line (issue 41); failures get a line of their own.
  refusals.set(request, { reason: error.reason, detail: error.detail });
  if (error.reason === 'INTERNAL') request.log.error({ err }, 'unhandled error');
  else if (error.reason === 'UNAVAILABLE')
    request.log.warn({ err: error.cause }, 'request refused: the database is unavailable');
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.httpStatus).send(errorBody(error, envelopeOf(request)));
}

/** Call before the routes are registered: the not-found handler learns every method a route uses. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => sendError(request, reply, err));
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) methods.add(method);
  });
  // The router answers "no route" both for an unknown path and for a known path with another method. Only the
  // second has routes under other methods: that is 405 with Allow (RFC 9110 15.5.6), so a client sees its
  // mistake is the method. Looked up only on this path, so matched requests pay nothing for it.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allow = [...methods].filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allow.length > 0) {
      return sendError(
        request,
        reply,
        new AppError(
          'METHOD_NOT_ALLOWED',
          `${request.method} is not allowed on this path; it takes ${allow.join(', ')}`,
          { headers: { allow: allow.join(', ') } },
        ),
      );
    }
    return sendError(request, reply, new AppError('NOT_FOUND', `no route for ${request.method} ${path}`));
  });
}
