import crypto from 'node:crypto';
import type { FastifyBaseLogger, FastifyServerOptions, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import type { IncomingMessage } from 'node:http';

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

/** Takes a well-formed X-Request-Id from the caller, otherwise makes one. */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/**
 * pino options: JSON lines with the request id; the request is logged as
 * method, redacted URL and peer only (no headers, so no Authorization,
 * Signature or cookies), and bodies are never logged.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['*.authorization', '*.signature', '*.secret', '*.macKey', '*.sign', '*.password', 'headers'],
      censor: '[redacted]',
    },
    serializers: {
      req(request: FastifyRequest) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
// pino loggers have isLevelEnabled; Fastify's silent logger (logger: false) does not.
type Logger = FastifyBaseLogger & { isLevelEnabled?(level: string): boolean };

/**
 * A request's logger that becomes a real pino child (with the request id
 * bound) only when something is logged at an enabled level. Fastify makes a
 * child per request; pino serialises and redacts the child's bindings at
 * once, which cost more than the rest of a /healthz request while nothing was
 * ever logged at the default level.
 */
class LazyChildLogger {
  #child: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #real(): Logger {
    this.#child ??= this.parent.child(this.bindings, this.options) as Logger;
    return this.#child!;
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.#real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    const logger = this.#child ?? this.parent;
    return logger.isLevelEnabled ? logger.isLevelEnabled(level) : true;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
  silent(): void {}
  #log(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
}

export function lazyChildLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
