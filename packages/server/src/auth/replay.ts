import { AppError } from '../errors/app-error.js';
import type { NonceLedger, NonceUse } from './nonce-ledger.js';

const NONCE_PATTERN = /^[\x21-\x7e]{1,128}$/;
const TIMESTAMP_PATTERN = /^[0-9]{1,12}$/;

/**
 * Replay protection shared by the md5 (5.1) and MAC (5.2) schemes: the
 * timestamp (Unix seconds) must be within `windowSeconds` of our clock, and
 * the nonce unused in `scope` (one app, or one token) within that window.
 * Call only after the signature was verified, so that a caller who cannot
 * sign learns nothing and writes nothing.
 */
export class ReplayGuard {
  constructor(
    private readonly nonces: NonceLedger,
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Shape checks done before signature verification (400s name the field). */
  static checkShape(
    nonceField: string,
    nonce: unknown,
    timestampField: string,
    timestamp: unknown,
  ): { nonce: string; timestamp: number } {
    if (typeof nonce !== 'string' || !NONCE_PATTERN.test(nonce)) {
      throw new AppError('INVALID_PARAMETER', `${nonceField}: must be 1-128 printable ASCII characters`);
    }
    const text = typeof timestamp === 'number' ? String(timestamp) : timestamp;
    if (typeof text !== 'string' || !TIMESTAMP_PATTERN.test(text)) {
      throw new AppError('INVALID_PARAMETER', `${timestampField}: must be Unix time in seconds`);
    }
    return { nonce, timestamp: Number(text) };
  }

  async check(scope: string, nonce: string, timestampSeconds: number): Promise<void> {
    const use = this.admit(scope, nonce, timestampSeconds);
    if (!(await this.nonces.consume(use.scope, use.nonce, use.expiresAt))) throw ReplayGuard.nonceReused();
  }

  /**
   * The timestamp check alone, answering the nonce use that the caller must
   * then record itself, in the transaction that stores the request (a write
   * route that group-commits saves the nonce's own round trip that way).
   */
  admit(scope: string, nonce: string, timestampSeconds: number): NonceUse {
    const nowMs = this.now();
    const skew = Math.abs(nowMs / 1000 - timestampSeconds);
    if (skew > this.windowSeconds) {
      throw new AppError(
        'STALE_TIMESTAMP',
        `timestamp ${timestampSeconds} is ${Math.round(skew)} s from server time ${Math.floor(nowMs / 1000)}; the window is ${this.windowSeconds} s`,
      );
    }
    // Kept until the timestamp itself falls out of the window.
    return { scope, nonce, expiresAt: (timestampSeconds + this.windowSeconds) * 1000 + 1000 };
  }

  static nonceReused(): AppError {
    return new AppError(
      'NONCE_REUSED',
      'the nonce was already used; send a fresh one with every request, retries included',
    );
  }
}
