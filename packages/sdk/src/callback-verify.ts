/**
 * Spec 5.3: the game verifies the platform's signed calls.
 */
import { createPublicKey, KeyObject, verify as cryptoVerify } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { hasControlChar } from './compare.js';
import { CALLBACK_HEADERS, callbackSignBase } from './callback-sign.js';
import { checkTimestamp, DEFAULT_WINDOW_SECONDS } from './time.js';

export type CallbackVerifyFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'stale_timestamp'
  | 'unknown_key'
  | 'bad_signature'
  /** Raised by the ready-made handlers (CallbackVerifier), not by verifyCallback: the nonce was seen within the window. */
  | 'replayed_nonce';

export class CallbackVerificationError extends Error {
  readonly reason: CallbackVerifyFailure;
  constructor(reason: CallbackVerifyFailure, detail: string) {
    super(`callback signature: ${reason}: ${detail}`);
    this.name = 'CallbackVerificationError';
    this.reason = reason;
  }
}

export type PublicKeyInput = string | KeyObject;

export interface VerifyCallbackOptions {
  method: string;
  /** Request path; a query string is allowed and ignored. */
  url: string;
  /** Request headers; names are looked up case-insensitively. */
  headers: Record<string, string | string[] | undefined>;
  /** Raw body exactly as received. */
  body: string | Uint8Array;
  /** A single public key, or keys by key id (`Key-Id` header). */
  publicKeys: PublicKeyInput | Record<string, PublicKeyInput>;
  /** Default 300. */
  windowSeconds?: number;
  /** Clock in milliseconds. Default Date.now. */
  now?: () => number;
}

export interface VerifiedCallback {
  /** The `Key-Id` header, or the id of the key that matched. */
  keyId: string | undefined;
  timestamp: number;
  /** Record it to reject replays within the window: that is the game's job. */
  nonce: string;
}

const TIMESTAMP = /^[0-9]{1,15}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MAX_SIGNATURE_CHARS = 2048;
const MAX_NONCE_CHARS = 256;

const fail = (reason: CallbackVerifyFailure, detail: string): never => {
  throw new CallbackVerificationError(reason, detail);
};

function header(headers: VerifyCallbackOptions['headers'], name: string): string | undefined {
  const lower = name.toLowerCase();
  let found: string | string[] | undefined;
  let seen = false;
  for (const k of Object.keys(headers)) {
    if (k.toLowerCase() !== lower) continue;
    const v = headers[k];
    if (v === undefined) continue;
    if (seen) fail('malformed_header', `${name} given twice`);
    seen = true;
    found = v;
  }
  if (Array.isArray(found)) {
    if (found.length > 1) fail('malformed_header', `${name} given twice`);
    found = found[0];
  }
  return found === '' ? undefined : found;
}

const keyCache = new Map<string, KeyObject>();
function toKey(k: PublicKeyInput): KeyObject {
  if (k instanceof KeyObject) return k;
  let key = keyCache.get(k);
  if (!key) {
    key = createPublicKey(k);
    if (keyCache.size >= 32) keyCache.clear();
    keyCache.set(k, key);
  }
  return key;
}

/** Candidate `[keyId, key]` pairs for the request. */
function candidates(
  publicKeys: VerifyCallbackOptions['publicKeys'],
  keyId: string | undefined,
): [string | undefined, PublicKeyInput][] {
  if (typeof publicKeys === 'string' || publicKeys instanceof KeyObject) return [[keyId, publicKeys]];
  if (keyId !== undefined) {
    if (!Object.hasOwn(publicKeys, keyId)) fail('unknown_key', `no public key with id ${JSON.stringify(keyId)}`);
    return [[keyId, publicKeys[keyId]!]];
  }
  const all = Object.entries(publicKeys);
  if (all.length === 0) fail('unknown_key', 'no public key configured');
  return all;
}

/** The `Key-Id` header of a call (undefined when absent); throws CallbackVerificationError when given twice. */
export function callbackKeyId(headers: VerifyCallbackOptions['headers']): string | undefined {
  return header(headers, CALLBACK_HEADERS.keyId);
}

/** Verifies a signed platform call (5.3). Throws CallbackVerificationError. */
export function verifyCallback(o: VerifyCallbackOptions): VerifiedCallback {
  const ts = header(o.headers, CALLBACK_HEADERS.timestamp);
  const nonce = header(o.headers, CALLBACK_HEADERS.nonce);
  const signature = header(o.headers, CALLBACK_HEADERS.signature);
  const keyId = header(o.headers, CALLBACK_HEADERS.keyId);
  if (ts === undefined) fail('missing_header', CALLBACK_HEADERS.timestamp);
  if (nonce === undefined) fail('missing_header', CALLBACK_HEADERS.nonce);
  if (signature === undefined) fail('missing_header', CALLBACK_HEADERS.signature);

  if (!TIMESTAMP.test(ts!)) fail('malformed_header', `${CALLBACK_HEADERS.timestamp} is not Unix seconds`);
  if (nonce!.length > MAX_NONCE_CHARS || hasControlChar(nonce!)) fail('malformed_header', CALLBACK_HEADERS.nonce);
  const sig = signature!.trim();
  if (sig.length > MAX_SIGNATURE_CHARS || !BASE64.test(sig))
    fail('malformed_header', `${CALLBACK_HEADERS.signature} is not base64`);

  const windowSeconds = o.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
  const nowMs = (o.now ?? Date.now)();
  if (!checkTimestamp(ts!, windowSeconds, nowMs)) fail('stale_timestamp', `${ts} is outside ±${windowSeconds}s`);

  const keys = candidates(o.publicKeys, keyId);
  const base = callbackSignBase({ method: o.method, path: o.url, timestamp: ts!, nonce: nonce!, body: o.body });
  const sigBytes = Buffer.from(sig, 'base64');
  for (const [id, key] of keys) {
    if (cryptoVerify('sha256', base, toKey(key), sigBytes)) return { keyId: id, timestamp: Number(ts), nonce: nonce! };
  }
  return fail('bad_signature', 'RSA-SHA256 signature does not match');
}
