/** Default replay window, in seconds, of the three schemes (SIGN_WINDOW_SECONDS on the server). */
export const DEFAULT_WINDOW_SECONDS = 300;

const DECIMAL = /^[0-9]{1,15}$/;

/** Parses Unix seconds given as decimal digits (or a safe non-negative integer). NaN when malformed. */
export function parseUnixSeconds(ts: string | number): number {
  if (typeof ts === 'number') return Number.isSafeInteger(ts) && ts >= 0 ? ts : NaN;
  if (typeof ts !== 'string' || !DECIMAL.test(ts)) return NaN;
  return Number(ts);
}

/**
 * True when `ts` (Unix seconds, decimal digits) lies within ±windowSeconds of `nowMs`.
 * A malformed timestamp or window gives false.
 */
export function checkTimestamp(ts: string | number, windowSeconds: number, nowMs: number): boolean {
  const s = parseUnixSeconds(ts);
  if (Number.isNaN(s) || !(windowSeconds >= 0) || !Number.isFinite(nowMs)) return false;
  return Math.abs(s * 1000 - nowMs) <= windowSeconds * 1000;
}
