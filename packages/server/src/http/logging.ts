import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyServerOptions, FastifyRequest } from 'fastify';
import { refusalOf } from './error-handler.js';
import { isQuiet } from './quiet-routes.js';
import type { IncomingMessage } from 'node:http';
import { activeTraceIds, tracingOn } from '../tracing/tracing.js';

/** Query parameters and headers that carry secrets, signatures or tokens: never logged. */
const SECRET_QUERY_KEYS =
  /^(sign|signature|token|nonce|mac|secret|access_token|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

/** The URL with secret-bearing query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeURIComponentSafe(eq < 0 ? pair : pair.slice(0, eq));
      return SECRET_QUERY_KEYS.test(key) ? `${pair.slice(0, eq < 0 ? pair.length : eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Takes a well-formed X-Request-Id from the caller, otherwise makes one (newRequestId). */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
}

// A request id in a UUID's shape: a random UUID's first 20 digits, drawn once per process, then a 48-bit counter
// from a random start. Unique across instances as the random part, in order within one; it names a request in the
// logs and traces and grants nothing, so it need not be unguessable. crypto.randomUUID() per request allocated
// ~0.4 KB (of 17.5 on 4.3): its string is built from hex pieces each time.
const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 24);
let requestCounter = crypto.randomBytes(6).readUIntBE(0, 6);
export function newRequestId(): string {
  requestCounter = (requestCounter + 1) % 2 ** 48;
  return REQUEST_ID_PREFIX + requestCounter.toString(16).padStart(12, '0');
}

/** How log lines are written: readable lines for a person at a terminal, JSON lines for anything that collects them. */
export type LogFormat = 'pretty' | 'json';

/**
 * `npm start` in a terminal prints readable lines (issue 34); a process manager, a container runtime or a pipe gets
 * the JSON lines a log collector parses. Decided by whether stdout is a terminal, as pino-pretty's own docs advise.
 */
export function logFormat(stdout: { isTTY?: boolean }): LogFormat {
  return stdout.isTTY === true ? 'pretty' : 'json';
}

/** Fields that carry a secret, a signature or a token, censored wherever a logged object holds them (one level in). */
const SECRET_FIELDS = ['authorization', 'signature', 'secret', 'macKey', 'sign', 'password'];
const CENSOR = '[redacted]';

/**
 * The redaction of every log line's object: a top-level `headers` and, in any object at the top level, the
 * SECRET_FIELDS, replaced by `[redacted]` in a copy (the caller's object is never changed).
 *
 * Optimisation (issue 44): this is pino's `redact: ['*.authorization', ..., 'headers']`, written as its formatter.
 * pino runs a wildcard-first redaction on every value it serialises, primitives included, and @pinojs/redact parses
 * each path anew on every call: per request that ran for the request id bound to the request's child logger and for
 * each field of the request's log line. Here a line costs one pass over its keys and allocates only when a secret is
 * there. A/B (4.3 on SQLite, bench allocation per request, alternated, same run): see docs/benchmarks.md "Issue 44".
 */
export function redactLogFields(obj: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const key in obj) {
    const value = obj[key];
    if (key === 'headers') {
      out ??= { ...obj };
      out.headers = CENSOR;
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      let inner: Record<string, unknown> | null = null;
      for (const field of SECRET_FIELDS)
        if (Object.hasOwn(value, field)) {
          // An error's message and stack are not its own enumerable fields: kept as pino's err serializer gives them.
          inner ??=
            value instanceof Error
              ? { type: value.name, message: value.message, stack: value.stack, ...(value as object) }
              : { ...(value as Record<string, unknown>) };
          inner[field] = CENSOR;
        }
      if (inner) {
        out ??= { ...obj };
        out[key] = inner;
      }
    }
  }
  return out ?? obj;
}

/**
 * pino options: JSON lines (pino-pretty's readable lines at a terminal, see logFormat) with the request id (and the trace id when tracing); the request is logged as
 * method, redacted URL and peer only (no headers, so no Authorization,
 * Signature or cookies), and bodies are never logged.
 */
export function loggerOptions(
  level: string,
  format: LogFormat = logFormat(process.stdout),
): FastifyServerOptions['logger'] {
  return {
    level,
    // pino-pretty runs as pino's transport (a worker thread), so formatting never blocks a request; the lines keep
    // every field (request id, redactions applied before they leave this thread) on one line each.
    ...(format === 'pretty'
      ? {
          transport: {
            target: fileURLToPath(import.meta.resolve('pino-pretty')),
            options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true },
          },
        }
      : {}),
    // With tracing on, a line logged inside a span carries its trace and span ids (a request's own lines have them
    // bound already: http/request-tracing.ts); without tracing, no mixin at all.
    ...(tracingOn
      ? {
          mixin(_obj: object, _level: number, logger: { bindings(): Record<string, unknown> }) {
            const ids = activeTraceIds();
            return ids && !('traceId' in logger.bindings()) ? { ...ids } : {};
          },
        }
      : {}),
    formatters: { log: redactLogFields },
    serializers: {
      req(request: FastifyRequest) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}

/** Whether a line at `level` would be written; Fastify's logger when logging is off (tests) has no isLevelEnabled. */
function levelEnabled(log: object, level: string): boolean {
  return (log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level) === true;
}

/**
 * One line per request, when it is answered (issue 41; Fastify's own two lines are off: disableRequestLogging):
 * method, route, redacted URL, status, duration, peer, request id (bound) and the app of a signed request, with the
 * refusal's reason and detail on a 4xx. Health checks and static files (quiet routes) at debug, the rest at info.
 * A line at debug when a request arrives.
 */
export function installRequestLog(app: FastifyInstance): void {
  // At debug only: a request's arrival, to see one that hangs (LOG_LEVEL=debug).
  app.addHook('onRequest', (request, _reply, done) => {
    if (levelEnabled(request.log, 'debug'))
      request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'request received');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const level = isQuiet(request) ? 'debug' : 'info';
    if (!levelEnabled(request.log, level)) return done();
    const route = request.routeOptions.url;
    const url = redactUrl(request.url);
    const status = reply.statusCode;
    const refusal = refusalOf(request);
    request.log[level](
      {
        method: request.method,
        route: route ?? null,
        url,
        statusCode: status,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        remoteAddress: request.ip,
        ...(request.caller ? { appId: request.caller.app.appId } : {}),
        ...(refusal ? { reason: refusal.reason, detail: refusal.detail } : {}),
      },
      `${request.method} ${url.split('?')[0]} ${status}`,
    );
    done();
  });
}
