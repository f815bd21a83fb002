/**
 * Spec 5.2: MAC token (used by 4.3 and 4.5). HMAC-SHA1 over a line-feed separated sign base.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { safeEqualStrings } from './compare.js';
import { formatMacAuthorization } from './mac-header.js';

export {
  type MacCredentials,
  type MacHeaderFailure,
  MacHeaderError,
  MAX_MAC_HEADER_LENGTH,
  parseMacAuthorization,
} from './mac-header.js';

export interface MacSignInput {
  ts: string | number;
  nonce: string;
  method: string;
  uri: string;
  host: string;
  port: string | number;
}

export const DEFAULT_MAC_PORT = 443;

/**
 * `${ts}\n${nonce}\n${METHOD}\n${uri}\n${host}\n${port}\n` — each value followed by LF,
 * the last one too. Throws TypeError if a value itself contains LF (the base would be ambiguous).
 */
export function macSignBase(i: MacSignInput): string {
  const parts = [String(i.ts), i.nonce, i.method.toUpperCase(), i.uri, i.host, String(i.port)];
  for (const p of parts) if (p.includes('\n')) throw new TypeError('MAC sign base: a value contains a line feed');
  return parts.map((p) => `${p}\n`).join('');
}

/** base64(HMAC-SHA1(key = UTF-8 bytes of macKey, data = UTF-8 bytes of the sign base)). */
export function macSign(i: MacSignInput, macKey: string): string {
  // The string itself, not Buffer.from(macKey): the same UTF-8 key bytes, and on Node 24 a Buffer key costs ~7 us
  // more a call (a brand check that throws inside createHmac; server/src/crypto/secret-key.ts).
  return createHmac('sha1', macKey).update(macSignBase(i), 'utf8').digest('base64');
}

/** Constant-time comparison with the expected standard-base64 mac. Never throws. */
export function macVerify(i: MacSignInput, macKey: string, mac: string): boolean {
  if (typeof mac !== 'string' || mac.length !== 28) return false;
  try {
    return safeEqualStrings(macSign(i, macKey), mac);
  } catch {
    return false;
  }
}

export interface BuildMacAuthorizationOptions {
  kid: string;
  macKey: string;
  method: string;
  uri: string;
  host: string;
  /** Default 443. */
  port?: string | number;
  /** Unix seconds. Default: now. */
  ts?: number;
  /** Default: 16 random bytes, base64url. */
  nonce?: string;
}

/** Full `Authorization` header value: `MAC id="<kid>",ts="<ts>",nonce="<nonce>",mac="<mac>"`. */
export function buildMacAuthorization(o: BuildMacAuthorizationOptions): string {
  const ts = String(o.ts ?? Math.floor(Date.now() / 1000));
  const nonce = o.nonce ?? randomBytes(16).toString('base64url');
  const mac = macSign(
    { ts, nonce, method: o.method, uri: o.uri, host: o.host, port: o.port ?? DEFAULT_MAC_PORT },
    o.macKey,
  );
  return formatMacAuthorization({ id: o.kid, ts, nonce, mac });
}
