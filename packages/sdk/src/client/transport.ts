/**
 * One HTTP exchange with the platform: per-attempt timeout, and retries only where a
 * repeat cannot do harm. Each attempt is built afresh, so it gets a fresh nonce,
 * timestamp and signature (a reused nonce would be refused as a replay).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PlatformNetworkError } from './errors.js';

export interface TransportOptions {
  /** Per attempt, including reading the body. */
  timeoutMs: number;
  /** Further attempts after the first. */
  retries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  fetch: typeof fetch;
  userAgent: string;
}

export interface Attempt {
  method: 'GET' | 'POST' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  attempts: number;
}

export interface ExchangeSpec {
  /**
   * True for reads (GET): retried after a network error, a timeout, or a 429/500/502/503/504.
   * False for writes (POST, PUT): retried only when the connection was never made, so
   * the platform cannot have seen the request; never after a response or a timeout.
   */
  idempotent: boolean;
  build: () => Attempt;
  signal?: AbortSignal | undefined;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
// Errors raised before a byte of the request could reach the server.
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function errorCodes(err: unknown, depth = 0): string[] {
  if (err === null || typeof err !== 'object' || depth > 4) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => errorCodes(x, depth + 1)) : [];
  return [...own, ...nested, ...errorCodes(e.cause, depth + 1)];
}

/** True when the failure proves the request never reached the server. */
export function neverSent(err: unknown): boolean {
  const codes = errorCodes(err);
  return codes.length > 0 && codes.every((c) => NOT_SENT.has(c));
}

function delayFor(t: TransportOptions, attempt: number, retryAfter: string | null): number {
  if (retryAfter !== null && /^[0-9]{1,6}$/.test(retryAfter))
    return Math.min(Number(retryAfter) * 1000, t.maxRetryDelayMs);
  const base = t.retryDelayMs * 2 ** (attempt - 1);
  return Math.min(base + Math.floor(Math.random() * t.retryDelayMs), t.maxRetryDelayMs);
}

export async function exchange(t: TransportOptions, spec: ExchangeSpec): Promise<Exchange> {
  const maxAttempts = 1 + Math.max(0, t.retries);
  for (let attempt = 1; ; attempt++) {
    if (spec.signal?.aborted)
      throw new PlatformNetworkError('aborted', 'the call was aborted', attempt - 1, { cause: spec.signal.reason });
    const a = spec.build();
    const timeout = AbortSignal.timeout(t.timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    const what = `${a.method} ${a.url.origin}${a.url.pathname}`;
    let res: Response;
    let text: string;
    try {
      res = await t.fetch(a.url, {
        method: a.method,
        headers: { 'user-agent': t.userAgent, accept: 'application/json', ...a.headers },
        ...(a.body !== undefined ? { body: a.body } : {}),
        signal,
        // A redirect would send a signed request elsewhere; report it instead.
        redirect: 'manual',
      });
      text = await res.text();
    } catch (err) {
      if (spec.signal?.aborted)
        throw new PlatformNetworkError('aborted', `${what}: aborted by the caller`, attempt, { cause: err });
      const timedOut = timeout.aborted;
      const again = attempt < maxAttempts && (spec.idempotent || (!timedOut && neverSent(err)));
      if (!again) {
        const message = timedOut
          ? `${what}: no answer within ${t.timeoutMs} ms`
          : `${what}: ${(err as Error).message}${causeText(err)}`;
        throw new PlatformNetworkError(timedOut ? 'timeout' : 'network', message, attempt, { cause: err });
      }
      await pause(delayFor(t, attempt, null), spec.signal, attempt, what);
      continue;
    }
    if (spec.idempotent && RETRY_STATUS.has(res.status) && attempt < maxAttempts) {
      await pause(delayFor(t, attempt, res.headers.get('retry-after')), spec.signal, attempt, what);
      continue;
    }
    return { status: res.status, headers: res.headers, text, attempts: attempt };
  }
}

function causeText(err: unknown): string {
  const codes = errorCodes(err);
  return codes.length ? ` (${[...new Set(codes)].join(', ')})` : '';
}

async function pause(ms: number, signal: AbortSignal | undefined, attempt: number, what: string): Promise<void> {
  try {
    await sleep(ms, undefined, signal ? { signal } : {});
  } catch (err) {
    throw new PlatformNetworkError('aborted', `${what}: aborted by the caller`, attempt, { cause: err });
  }
}
