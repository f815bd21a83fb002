import crypto from 'node:crypto';
import { safeEqual } from '../crypto/secret-box.js';
import { secretKey } from '../crypto/secret-key.js';

export type TokenPurpose = 'put' | 'get';

export interface TokenClaims {
  purpose: TokenPurpose;
  key: string;
  appId: number;
  /** Declared size for `put`; 0 for `get`. */
  size: number;
  /** Unix seconds. */
  expires: number;
}

/**
 * The expiring HMAC token of the embedded backend's URLs: HMAC-SHA256 under a
 * key derived from the master key, over purpose, object key, declared size,
 * app and expiry, so changing any of them (or using an upload URL to
 * download) breaks it.
 */
export class UrlTokenSigner {
  /** `keys[0]` signs; a token signed under any of them verifies (master key rotation). */
  private readonly keys: crypto.KeyObject[];

  constructor(keys: Buffer[]) {
    if (keys.length === 0) throw new Error('UrlTokenSigner needs a key');
    this.keys = keys.map(secretKey);
  }

  sign(c: TokenClaims, key = this.keys[0]!): string {
    const input = ['evidence-url-v1', c.purpose, c.key, String(c.size), String(c.appId), String(c.expires)].join('\n');
    return crypto.createHmac('sha256', key).update(input, 'utf8').digest('base64url');
  }

  /** Constant-time check. */
  verify(c: TokenClaims, signature: string): boolean {
    return this.keys.some((key) => safeEqual(this.sign(c, key), signature));
  }
}
