/** Typed errors of the platform API client. */

/** Base of every error the client raises. */
export class PlatformError extends Error {
  /** Number of HTTP attempts made. */
  readonly attempts: number;
  constructor(message: string, attempts: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PlatformError';
    this.attempts = attempts;
  }
}

/**
 * The platform answered with an error: the 2.3 envelope `{code, msg, detail, data}`
 * (account/order routes), an rpcStatus `{code, message, details}` (reporting routes),
 * or a non-JSON error page. `code` is the platform error code (docs/errors.md), e.g.
 * 40300 for an illegal access token.
 */
export class PlatformApiError extends PlatformError {
  /** HTTP status. */
  readonly status: number;
  /** Platform error code: the envelope's `code`; for rpcStatus the ErrorInfo `metadata.code`, else the rpc code; else the HTTP status. */
  readonly code: number;
  /** Message (player-facing in the 2.3 envelope; rpcStatus `message`). */
  readonly msg: string;
  /** Developer message: what exactly was wrong. */
  readonly detail: string;
  /** The envelope's `data` (2.3; e.g. `{email, loginType}` for 40021), or the rpcStatus `details`. */
  readonly data: unknown;
  /** Which error body the platform sent. */
  readonly envelope: 'platform' | 'rpc' | 'none';
  /** google.rpc.Code of an rpcStatus body. */
  readonly rpcCode: number | undefined;
  /** Reason name (ErrorInfo `reason` of an rpcStatus, e.g. BAD_SIGNATURE). */
  readonly reason: string | undefined;

  constructor(o: {
    status: number;
    code: number;
    msg: string;
    detail: string;
    data: unknown;
    envelope: 'platform' | 'rpc' | 'none';
    rpcCode?: number;
    reason?: string;
    attempts: number;
  }) {
    super(
      `platform API error ${o.code} (HTTP ${o.status}): ${o.msg}${o.detail && o.detail !== o.msg ? ` - ${o.detail}` : ''}`,
      o.attempts,
    );
    this.name = 'PlatformApiError';
    this.status = o.status;
    this.code = o.code;
    this.msg = o.msg;
    this.detail = o.detail;
    this.data = o.data;
    this.envelope = o.envelope;
    this.rpcCode = o.rpcCode;
    this.reason = o.reason;
  }
}

/** No answer: connection failed, the attempt timed out, or the caller aborted. */
export class PlatformNetworkError extends PlatformError {
  readonly reason: 'network' | 'timeout' | 'aborted';
  constructor(
    reason: 'network' | 'timeout' | 'aborted',
    message: string,
    attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, attempts, options);
    this.name = 'PlatformNetworkError';
    this.reason = reason;
  }
}

/** A success status whose body is not what the spec defines (not JSON, wrong shape). */
export class PlatformResponseError extends PlatformError {
  readonly status: number;
  readonly body: string;
  constructor(message: string, status: number, body: string, attempts: number) {
    super(message, attempts);
    this.name = 'PlatformResponseError';
    this.status = status;
    this.body = body.length > 2048 ? `${body.slice(0, 2048)}...` : body;
  }
}

/** The error of an HTTP error answer, from whichever envelope it carries. */
export function apiErrorFrom(status: number, text: string, attempts: number): PlatformApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    // rpcStatus: {code: google.rpc.Code, message, details: [ErrorInfo...]}
    if (typeof b.code === 'number' && typeof b.message === 'string' && !('msg' in b)) {
      const details = Array.isArray(b.details) ? b.details : [];
      const info = details.find(
        (d): d is Record<string, unknown> =>
          d !== null && typeof d === 'object' && typeof (d as Record<string, unknown>).reason === 'string',
      );
      const meta = info?.metadata as Record<string, unknown> | undefined;
      const metaCode = typeof meta?.code === 'string' && /^[0-9]{1,9}$/.test(meta.code) ? Number(meta.code) : undefined;
      return new PlatformApiError({
        status,
        code: metaCode ?? b.code,
        msg: b.message,
        detail: b.message,
        data: b.details ?? null,
        envelope: 'rpc',
        rpcCode: b.code,
        ...(info ? { reason: info.reason as string } : {}),
        attempts,
      });
    }
    // 2.3 envelope: {code, msg, detail, data}
    if (typeof b.code === 'number' || (typeof b.code === 'string' && /^[0-9]{1,9}$/.test(b.code))) {
      return new PlatformApiError({
        status,
        code: Number(b.code),
        msg: typeof b.msg === 'string' ? b.msg : '',
        detail: typeof b.detail === 'string' ? b.detail : '',
        data: b.data ?? null,
        envelope: 'platform',
        attempts,
      });
    }
  }
  const snippet = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  return new PlatformApiError({
    status,
    code: status,
    msg: `HTTP ${status}`,
    detail: snippet,
    data: null,
    envelope: 'none',
    attempts,
  });
}
