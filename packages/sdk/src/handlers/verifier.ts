/**
 * The core of the ready-made raw-body handlers (5.3): verify the signature over the
 * bytes exactly as received, refuse a replayed nonce, then parse the JSON body.
 * The node:http, Express and Fastify adapters only differ in how they get the bytes.
 */
import { Buffer } from 'node:buffer';
import type { PublicKeySource } from '../keys/platform-keys.js';
import {
  CallbackVerificationError,
  callbackKeyId,
  verifyCallback,
  type PublicKeyInput,
  type VerifyCallbackOptions,
} from '../callback-verify.js';
import { stripQuery } from '../callback-sign.js';
import { DEFAULT_WINDOW_SECONDS } from '../time.js';
import { BodyTooLargeError, DEFAULT_MAX_BODY_BYTES } from './raw-body.js';
import { MemoryNonceStore, type NonceStore } from './nonce-store.js';

export interface CallbackVerifierOptions {
  /**
   * The platform public key, or all current keys by key id (`Key-Id`) during a rotation, or a PlatformKeySet that
   * fetches them from the platform by key id (issue 41).
   */
  publicKeys: PublicKeyInput | Record<string, PublicKeyInput> | PublicKeySource;
  /** Permitted clock difference in seconds. Default 300. */
  windowSeconds?: number;
  /** Where seen nonces are kept. Default: a MemoryNonceStore (one process). `false` turns replay checks off. */
  nonces?: NonceStore | false;
  /** Largest accepted body. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Clock in milliseconds. Default Date.now. */
  now?: () => number;
}

/** A request as the verifier needs it. `url` may carry a query string (it is not signed). */
export interface CallbackRequest {
  method: string;
  url: string;
  headers: VerifyCallbackOptions['headers'];
  body: Uint8Array | string;
}

/** A platform call whose signature verified. */
export interface VerifiedCall {
  /** The `Key-Id` header, or the id of the configured key that matched. */
  keyId: string | undefined;
  /** The signed `Timestamp`, Unix seconds. */
  timestamp: number;
  nonce: string;
  /** Upper-case method. */
  method: string;
  /** Path without the query string, as signed. */
  path: string;
  /** Query parameters (4.8, 4.9 send theirs in the query). */
  query: URLSearchParams;
  /** The body bytes exactly as received and verified. */
  rawBody: Buffer;
  /** The body parsed as JSON; undefined when the body is empty (GET). */
  json: unknown;
}

/** The body verified but is not JSON. Answered with 400. */
export class CallbackBodyError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`callback body: ${detail}`, options);
    this.name = 'CallbackBodyError';
  }
}

export class CallbackVerifier {
  readonly maxBodyBytes: number;
  readonly #o: CallbackVerifierOptions;
  readonly #nonces: NonceStore | undefined;

  constructor(options: CallbackVerifierOptions) {
    if (
      options === null ||
      typeof options !== 'object' ||
      options.publicKeys === undefined ||
      options.publicKeys === null
    ) {
      throw new TypeError('CallbackVerifier: publicKeys is required');
    }
    this.#o = options;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#nonces =
      options.nonces === false
        ? undefined
        : (options.nonces ?? new MemoryNonceStore(options.now ? { now: options.now } : {}));
  }

  /**
   * Verifies a call. Throws CallbackVerificationError (signature, timestamp, key,
   * replayed nonce), BodyTooLargeError, or CallbackBodyError (verified, but not JSON).
   */
  async verify(req: CallbackRequest): Promise<VerifiedCall> {
    const rawBody =
      typeof req.body === 'string'
        ? Buffer.from(req.body, 'utf8')
        : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
    if (rawBody.length > this.maxBodyBytes) throw new BodyTooLargeError(this.maxBodyBytes);
    const o = this.#o;
    const publicKeys = isKeySource(o.publicKeys)
      ? await o.publicKeys.publicKeysFor(callbackKeyId(req.headers))
      : o.publicKeys;
    const v = verifyCallback({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: rawBody,
      publicKeys,
      ...(o.windowSeconds !== undefined ? { windowSeconds: o.windowSeconds } : {}),
      ...(o.now !== undefined ? { now: o.now } : {}),
    });
    // Only after the signature verified, so an unsigned request cannot fill the store.
    if (this.#nonces) {
      const window = o.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
      const fresh = await this.#nonces.remember(v.nonce, (v.timestamp + window) * 1000 + 1000);
      if (!fresh)
        throw new CallbackVerificationError('replayed_nonce', `nonce ${JSON.stringify(v.nonce)} was already used`);
    }
    let json: unknown;
    if (rawBody.length > 0) {
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch (e) {
        throw new CallbackBodyError('the verified body is not valid JSON', { cause: e });
      }
    }
    const q = req.url.indexOf('?');
    return {
      keyId: v.keyId,
      timestamp: v.timestamp,
      nonce: v.nonce,
      method: req.method.toUpperCase(),
      path: stripQuery(req.url),
      query: new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1)),
      rawBody,
      json,
    };
  }
}

function isKeySource(k: CallbackVerifierOptions['publicKeys']): k is PublicKeySource {
  return typeof (k as Partial<PublicKeySource>).publicKeysFor === 'function';
}

export function createCallbackVerifier(options: CallbackVerifierOptions): CallbackVerifier {
  return new CallbackVerifier(options);
}

/** A verifier from options, or the one given (to share one nonce store between routes). */
export function toVerifier(o: CallbackVerifier | CallbackVerifierOptions): CallbackVerifier {
  return o instanceof CallbackVerifier ? o : new CallbackVerifier(o);
}

/** The HTTP answer to a request that failed before the game's handler; undefined for an unexpected error. */
export function rejectionAnswer(
  err: unknown,
): { status: number; body: { code: number; msg: string; detail: string } } | undefined {
  if (err instanceof CallbackVerificationError) {
    return { status: 401, body: { code: 401, msg: 'signature verification failed', detail: err.reason } };
  }
  if (err instanceof BodyTooLargeError) {
    return { status: 413, body: { code: 413, msg: 'request body too large', detail: `limit ${err.limit} bytes` } };
  }
  if (err instanceof CallbackBodyError) {
    return { status: 400, body: { code: 400, msg: 'body is not JSON', detail: err.message } };
  }
  return undefined;
}

// ---- the verified call of a request, for the frameworks' handlers ----

const calls = new WeakMap<object, VerifiedCall>();

/** Remembers the verified call of a request object (and of its `raw` request, for Fastify). */
export function attachVerifiedCall(req: object, call: VerifiedCall): void {
  calls.set(req, call);
  const raw = (req as { raw?: unknown }).raw;
  if (raw !== null && typeof raw === 'object') calls.set(raw, call);
}

/**
 * The verified platform call of a request that went through one of the handlers
 * (node:http IncomingMessage, Express req, Fastify request or request.raw).
 * Throws when the request was not verified, so an unprotected route fails loudly.
 */
export function verifiedCallOf(req: object): VerifiedCall {
  const call = calls.get(req) ?? calls.get((req as { raw?: object }).raw ?? req);
  if (!call) throw new Error('verifiedCallOf: this request was not verified by a platform callback handler');
  return call;
}
