import { ErrorCodes, type ErrorReason } from './codes.js';

/**
 * The one error type that domain code throws. The handler (http/error-handler.ts)
 * maps it to the envelope of the route: 2.3 or rpcStatus.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly reason: ErrorReason;
  /** Developer-facing detail (`detail` of 2.3, `message` suffix of rpcStatus). */
  readonly detail: string;
  /** Extra information (`data` of 2.3). */
  readonly data: unknown;
  /** Overrides the registry's `msg` (player-facing), e.g. a message passed through from a game. */
  readonly msgOverride: string | undefined;
  /** Response headers to set, e.g. Retry-After. */
  readonly headers: Record<string, string> | undefined;

  constructor(
    reason: ErrorReason,
    detail?: string,
    opts: { data?: unknown; msg?: string; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(detail ?? ErrorCodes[reason].msg, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.reason = reason;
    this.detail = detail ?? ErrorCodes[reason].msg;
    this.data = opts.data;
    this.msgOverride = opts.msg;
    this.headers = opts.headers;
  }

  get code(): number {
    return ErrorCodes[this.reason].code;
  }

  get httpStatus(): number {
    return ErrorCodes[this.reason].http;
  }

  get msg(): string {
    return this.msgOverride ?? ErrorCodes[this.reason].msg;
  }
}

/** Shorthand for the most common error: a named field is wrong. */
export function invalidParameter(field: string, problem: string): AppError {
  return new AppError('INVALID_PARAMETER', `${field}: ${problem}`);
}
