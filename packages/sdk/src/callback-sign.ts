/**
 * Spec 5.3: the platform signs its calls to the game with RSA-SHA256 (PKCS#1 v1.5).
 * This file builds the sign base and signs; callback-verify.ts verifies.
 */
import { randomBytes, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';

/** HTTP header names of the scheme. `Timestamp` is Unix seconds as a decimal string. */
export const CALLBACK_HEADERS = {
  timestamp: 'Timestamp',
  nonce: 'Nonce',
  signature: 'Signature',
  keyId: 'Key-Id',
} as const;

export interface CallbackSignInput {
  method: string;
  /** Absolute path; a query string (from `?` on) is stripped. */
  path: string;
  timestamp: string | number;
  nonce: string;
  /** Body exactly as sent/received; empty for GET. */
  body: string | Uint8Array;
}

const LF = Buffer.from('\n', 'utf8');

/** Strips the query string: `/a/b?x=1` -> `/a/b`. */
export function stripQuery(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

/** `${METHOD}\n${path}\n${timestamp}\n${nonce}\n`; each value must be one line. */
function signBaseHead(i: CallbackSignInput): string {
  const parts = [i.method.toUpperCase(), stripQuery(i.path), String(i.timestamp), i.nonce];
  for (const p of parts) if (p.includes('\n')) throw new TypeError('callback sign base: a value contains a line feed');
  return parts.map((p) => `${p}\n`).join('');
}

/** Bytes of `${METHOD}\n${path}\n${timestamp}\n${nonce}\n` + body bytes + `\n`. */
export function callbackSignBase(i: CallbackSignInput): Buffer {
  const head = Buffer.from(signBaseHead(i), 'utf8');
  const body = typeof i.body === 'string' ? Buffer.from(i.body, 'utf8') : i.body;
  return Buffer.concat([head, body, LF]);
}

/**
 * callbackSignBase for a text body, as text: its UTF-8 bytes are callbackSignBase's.
 * For a signer in another thread, where a string is cheaper to pass than a Buffer.
 */
export function callbackSignBaseText(i: CallbackSignInput & { body: string }): string {
  return `${signBaseHead(i)}${i.body}\n`;
}

/** base64 of RSA-SHA256 PKCS#1 v1.5 over callbackSignBase(i). */
export function signCallback(i: CallbackSignInput, privateKey: KeyObject | string): string {
  return cryptoSign('sha256', callbackSignBase(i), privateKey).toString('base64');
}

export interface BuildCallbackHeadersOptions {
  method: string;
  path: string;
  body: string | Uint8Array;
  privateKey: KeyObject | string;
  /** Sent as `Key-Id` when given. */
  keyId?: string;
  /** Unix seconds. Default: now. */
  timestamp?: number;
  /** Default: 16 random bytes, base64url. */
  nonce?: string;
}

/** The `Timestamp`, `Nonce`, `Signature` (and `Key-Id`) headers of a signed platform call. */
export function buildCallbackHeaders(o: BuildCallbackHeadersOptions): Record<string, string> {
  const { timestamp, nonce } = freshCallbackReplay(o);
  const signature = signCallback({ method: o.method, path: o.path, timestamp, nonce, body: o.body }, o.privateKey);
  return callbackHeaders({ timestamp, nonce, signature, keyId: o.keyId });
}

/** A call's `Timestamp` (Unix seconds, default now) and `Nonce` (default 16 random bytes, base64url). */
export function freshCallbackReplay(o: { timestamp?: number; nonce?: string } = {}): {
  timestamp: string;
  nonce: string;
} {
  return {
    timestamp: String(o.timestamp ?? Math.floor(Date.now() / 1000)),
    nonce: o.nonce ?? randomBytes(16).toString('base64url'),
  };
}

/** The header set of a signed call from its parts (for signers that compute the signature elsewhere). */
export function callbackHeaders(p: {
  timestamp: string;
  nonce: string;
  signature: string;
  keyId?: string | undefined;
}): Record<string, string> {
  const h: Record<string, string> = {
    [CALLBACK_HEADERS.timestamp]: p.timestamp,
    [CALLBACK_HEADERS.nonce]: p.nonce,
    [CALLBACK_HEADERS.signature]: p.signature,
  };
  if (p.keyId !== undefined) h[CALLBACK_HEADERS.keyId] = p.keyId;
  return h;
}
