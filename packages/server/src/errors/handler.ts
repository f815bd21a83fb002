import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import { ErrorCodes, GrpcCodeNames, type ErrorReason } from './codes.js';
import { TEXT_PATTERN } from '../http/schemas.js';

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

function envelopeOf(request: FastifyRequest): Envelope {
  return request.routeOptions.config?.envelope ?? (request.url.startsWith(RPC_PREFIX) ? 'rpc' : 'platform');
}

type ValidationErrors = Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }>;

/** INVALID_PARAMETER naming the first field a schema refused (Ajv's errors of the route's `context` part). */
export function validationError(validation: ValidationErrors, context: string, cause?: unknown): AppError {
  const first = validation[0]!;
  const base = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = first.params?.missingProperty as string | undefined;
  const extra = first.params?.additionalProperty as string | undefined;
  const field = [base, missing ?? extra].filter(Boolean).join('.') || context;
  const problem = missing ? 'is required' : extra ? 'is not a known field'
    : first.params?.pattern === TEXT_PATTERN ? 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate' : (first.message ?? 'is invalid');
  return new AppError('INVALID_PARAMETER', `${field}: ${problem}`, { cause });
}

/** Turns anything thrown into an AppError. The only place this mapping happens. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as FastifyError & { validation?: ValidationErrors; validationContext?: string };
  if (e && Array.isArray(e.validation) && e.validation.length > 0) return validationError(e.validation, e.validationContext ?? 'body', err);
  const byCode: Record<string, ErrorReason> = {
    FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
    FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_PARAMETER',
    FST_ERR_BAD_URL: 'INVALID_PARAMETER',
    FST_ERR_MAX_PARAM_LENGTH: 'INVALID_PARAMETER',
  };
  // The router's own messages quote the whole path: name the problem instead.
  const routerDetail: Record<string, string> = {
    FST_ERR_BAD_URL: 'the path is not valid percent-encoding',
    FST_ERR_MAX_PARAM_LENGTH: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters`,
  };
  const reason = e?.code ? byCode[e.code] : undefined;
  if (reason) return new AppError(reason, routerDetail[e.code] ?? e.message, { cause: err });
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status === 404) return new AppError('NOT_FOUND', e.message, { cause: err });
  if (status === 405) return new AppError('METHOD_NOT_ALLOWED', e.message, { cause: err });
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', e.message, { cause: err });
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', e.message, { cause: err });
  if (status === 429) return new AppError('RATE_LIMITED', e.message, { cause: err });
  if (status >= 400 && status < 500) return new AppError('INVALID_PARAMETER', e.message, { cause: err });
  return new AppError('INTERNAL', 'an unexpected error occurred; it has been logged', { cause: err });
}

/** The wire body of an error in the given envelope. */
export function errorBody(error: AppError, envelope: Envelope): object {
  if (envelope === 'rpc') {
    const grpc = ErrorCodes[error.reason].grpc;
    return {
      code: grpc,
      message: error.detail,
      details: [{
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: error.reason,
        domain: 'game-platform',
        metadata: { code: String(error.code), status: GrpcCodeNames[grpc] ?? 'UNKNOWN' },
      }],
    };
  }
  return { code: error.code, msg: error.msg, detail: error.detail, data: error.data ?? '' };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const error = toAppError(err);
  if (error.reason === 'INTERNAL') request.log.error({ err }, 'unhandled error');
  else request.log.info({ reason: error.reason, detail: error.detail }, 'request refused');
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.httpStatus).send(errorBody(error, envelopeOf(request)));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => sendError(request, reply, err));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new AppError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`)));
}
