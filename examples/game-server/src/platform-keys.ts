/**
 * The platform public keys the game verifies calls with (5.3), by key id (`Key-Id`).
 * Sources: given in the configuration, a JSON file, the platform's public key
 * listing (`GET {base}/v1/platform-keys`) and/or its admin one (`GET {admin}/admin/v1/platform-keys`). During a rotation the platform
 * signs with a new key id: a call naming an id we do not have triggers one
 * re-read of the sources (at most every `minRefreshMs`), never a key taken from
 * the request itself.
 */
import { createPublicKey } from 'node:crypto';
import fs from 'node:fs/promises';

export interface KeySources {
  inline: Record<string, string>;
  file: string | null;
  adminUrl: string | null;
  adminToken: string | null;
  /** The platform's base URL: its public `GET /v1/platform-keys` (no token needed; issue 41). */
  platformUrl?: string | null;
}

export interface KeyRingOptions {
  /** Least time between two refreshes caused by unknown key ids. Default 30 s. */
  minRefreshMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  log?: (line: string) => void;
}

/** `{kid: pem}` from either that shape or the platform's `{keys: [{kid, publicKeyPem, status}]}` listing (retired keys left out). */
export function keysFromJson(v: unknown, where: string): Record<string, string> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${where}: expected a JSON object`);
  const o = v as Record<string, unknown>;
  const out: Record<string, string> = {};
  if (Array.isArray(o.keys)) {
    for (const [i, k] of o.keys.entries()) {
      const { kid, publicKeyPem, status } = (k ?? {}) as Record<string, unknown>;
      if (typeof kid !== 'string' || typeof publicKeyPem !== 'string')
        throw new Error(`${where}: keys[${i}] needs kid and publicKeyPem`);
      if (status !== 'retired') out[kid] = publicKeyPem;
    }
    return out;
  }
  for (const [kid, pem] of Object.entries(o)) {
    if (typeof pem !== 'string') throw new Error(`${where}: key ${JSON.stringify(kid)} is not a PEM string`);
    out[kid] = pem;
  }
  return out;
}

export class PlatformKeyRing {
  #keys: Readonly<Record<string, string>> = {};
  /** When an unknown key id last caused a refresh (throttle). */
  #lastUnknownRefresh = Number.NEGATIVE_INFINITY;
  #inFlight: Promise<string[]> | undefined;
  readonly #minRefreshMs: number;
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #log: (line: string) => void;
  /** Called with the new keys after every successful refresh. */
  onChange: ((keys: Readonly<Record<string, string>>) => void) | undefined;

  constructor(
    private readonly sources: KeySources,
    o: KeyRingOptions = {},
  ) {
    this.#minRefreshMs = o.minRefreshMs ?? 30_000;
    this.#fetch = o.fetch ?? globalThis.fetch;
    this.#now = o.now ?? Date.now;
    this.#log = o.log ?? (() => {});
  }

  get keys(): Readonly<Record<string, string>> {
    return this.#keys;
  }

  has(kid: string): boolean {
    return Object.hasOwn(this.#keys, kid);
  }

  /** Re-reads every source; throws (keeping the current keys) when a source fails or no key is left. */
  refresh(): Promise<string[]> {
    this.#inFlight ??= this.#load().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  /** A call named `kid`, which we do not have: refresh once if the sources can change and we did not just do so. */
  async refreshForUnknownKey(kid: string): Promise<void> {
    const changing = this.sources.file !== null || this.sources.adminUrl !== null || !!this.sources.platformUrl;
    if (this.has(kid) || !changing) return;
    if (this.#now() - this.#lastUnknownRefresh < this.#minRefreshMs) return;
    this.#lastUnknownRefresh = this.#now();
    try {
      await this.refresh();
    } catch (e) {
      this.#log(`platform keys: refresh for unknown key id failed: ${(e as Error).message}`);
    }
  }

  async #load(): Promise<string[]> {
    const keys: Record<string, string> = { ...this.sources.inline };
    if (this.sources.file !== null) {
      const text = await fs.readFile(this.sources.file, 'utf8');
      Object.assign(keys, keysFromJson(JSON.parse(text), this.sources.file));
    }
    if (this.sources.platformUrl)
      Object.assign(keys, await this.#fetchListing(`${this.sources.platformUrl}/v1/platform-keys`, null));
    if (this.sources.adminUrl !== null)
      Object.assign(
        keys,
        await this.#fetchListing(`${this.sources.adminUrl}/admin/v1/platform-keys`, this.sources.adminToken),
      );
    for (const [kid, pem] of Object.entries(keys)) {
      try {
        createPublicKey(pem);
      } catch {
        throw new Error(`platform key ${JSON.stringify(kid)} is not a valid public key PEM`);
      }
    }
    if (Object.keys(keys).length === 0) throw new Error('no platform public key found in the configured sources');
    this.#keys = Object.freeze(keys);
    this.onChange?.(this.#keys);
    return Object.keys(keys);
  }

  async #fetchListing(url: string, token: string | null): Promise<Record<string, string>> {
    const res = await this.#fetch(url, {
      headers: { ...(token !== null ? { authorization: `Bearer ${token}` } : {}), accept: 'application/json' },
      signal: AbortSignal.timeout(5000),
      redirect: 'error',
    });
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
    return keysFromJson(await res.json(), url);
  }
}
