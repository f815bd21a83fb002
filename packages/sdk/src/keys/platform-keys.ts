/**
 * The platform's public keys (5.3) fetched from the platform itself (issue 41), so a game never copies a PEM by hand:
 * `GET {base_url}/v1/platform-keys` is public (public keys are not secret) and lists the keys that may sign a call,
 * each by its key id, the one the `Key-Id` header names. Kept in memory; fetched again when a call names a key id not
 * seen yet (a rotation), at most once per `minRefreshMs` whatever the callers send, and after `maxAgeMs` (a retired
 * key stops being trusted).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { PublicKeyInput } from '../callback-verify.js';

/** Where the keys are served, under the platform's `{base_url}`. */
export const PLATFORM_KEYS_PATH = '/v1/platform-keys';

/** What `publicKeys` may also be: keys looked up by the call's key id, asynchronously (PlatformKeySet). */
export interface PublicKeySource {
  /** The keys a call with this `Key-Id` (or none) may be verified with; empty when none is known. */
  publicKeysFor(keyId: string | undefined): Promise<Record<string, PublicKeyInput>>;
}

export interface PlatformKeySetOptions {
  /** The platform's `{base_url}`, e.g. `https://api.example.com` (a path prefix is kept). HTTPS in production. */
  baseUrl: string | URL;
  /** Least time between two fetches caused by unknown key ids. Default 30000. */
  minRefreshMs?: number;
  /** Keys are fetched again after this long. Default 3600000 (an hour). */
  maxAgeMs?: number;
  /** Per fetch. Default 10000. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Clock in ms. Default Date.now. */
  now?: () => number;
}

/** The platform keys could not be fetched or read. A callback handler answers it 500, so the platform retries. */
export class PlatformKeysError extends Error {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`platform keys: ${detail}`, options);
    this.name = 'PlatformKeysError';
  }
}

const KEY_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export class PlatformKeySet implements PublicKeySource {
  readonly url: URL;
  #keys = new Map<string, KeyObject>();
  #fetchedAt: number | undefined;
  #loading: Promise<void> | undefined;
  readonly #o: Required<Omit<PlatformKeySetOptions, 'baseUrl'>>;

  constructor(options: PlatformKeySetOptions) {
    const base = new URL(String(options.baseUrl));
    if (base.protocol !== 'https:' && base.protocol !== 'http:')
      throw new TypeError('PlatformKeySet: baseUrl must be http(s)');
    this.url = new URL(`${base.pathname.replace(/\/+$/, '')}${PLATFORM_KEYS_PATH}`, base);
    this.#o = {
      minRefreshMs: options.minRefreshMs ?? 30_000,
      maxAgeMs: options.maxAgeMs ?? 3_600_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      fetch: options.fetch ?? globalThis.fetch,
      now: options.now ?? Date.now,
    };
  }

  /** Fetches the keys now (one fetch at a time; callers meanwhile share it). */
  refresh(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    let body: unknown;
    try {
      const res = await this.#o.fetch(this.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.#o.timeoutMs),
      });
      if (!res.ok) throw new PlatformKeysError(`GET ${this.url} answered ${res.status}`);
      body = await res.json();
    } catch (err) {
      if (err instanceof PlatformKeysError) throw err;
      throw new PlatformKeysError(`GET ${this.url} failed`, { cause: err });
    }
    const list = (body as { keys?: unknown } | null)?.keys;
    if (!Array.isArray(list)) throw new PlatformKeysError('the answer has no keys array');
    const keys = new Map<string, KeyObject>();
    for (const k of list as Array<{ kid?: unknown; publicKeyPem?: unknown; status?: unknown }>) {
      if (typeof k?.kid !== 'string' || typeof k.publicKeyPem !== 'string' || k.status === 'retired') continue;
      try {
        keys.set(k.kid, createPublicKey(k.publicKeyPem));
      } catch (err) {
        throw new PlatformKeysError(`key ${k.kid} is not a public key`, { cause: err });
      }
    }
    this.#keys = keys;
    this.#fetchedAt = this.#o.now();
  }

  /** The key with this id: fetched on first use, again when the id is unknown (a rotation). */
  async key(keyId: string): Promise<KeyObject | undefined> {
    await this.#fresh();
    if (!this.#keys.has(keyId) && KEY_ID.test(keyId) && this.#mayRefetch()) await this.refresh();
    return this.#keys.get(keyId);
  }

  /** Every key currently published, by key id. */
  async keys(): Promise<Record<string, KeyObject>> {
    await this.#fresh();
    return Object.fromEntries(this.#keys);
  }

  async publicKeysFor(keyId: string | undefined): Promise<Record<string, PublicKeyInput>> {
    if (keyId === undefined) return this.keys();
    const key = await this.key(keyId);
    return key ? { [keyId]: key } : {};
  }

  async #fresh(): Promise<void> {
    if (this.#fetchedAt === undefined || this.#o.now() - this.#fetchedAt >= this.#o.maxAgeMs) await this.refresh();
  }

  #mayRefetch(): boolean {
    return this.#fetchedAt === undefined || this.#o.now() - this.#fetchedAt >= this.#o.minRefreshMs;
  }
}

/** Keys fetched from the platform at `baseUrl` (PlatformKeySet): pass it as `publicKeys` to a callback handler. */
export function platformKeySet(options: PlatformKeySetOptions): PlatformKeySet {
  return new PlatformKeySet(options);
}
