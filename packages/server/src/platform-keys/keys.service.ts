import crypto from 'node:crypto';
import type { CacheBus } from '../cache/cache-bus.js';
import { promisify } from 'node:util';
import { callbackHeaders, callbackSignBaseText } from '@game-platform/sdk';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';

const privateKeyContext = (kid: string) => `platform-key:${kid}`;

/** The platform key column sealed under the master key (master key rotation: master-key/reseal.ts). */
export const PLATFORM_KEY_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'platform_keys',
    id: 'kid',
    column: 'private_pem_enc',
    contextColumns: ['kid'],
    context: (row) => privateKeyContext(String(row.kid)),
  },
];
import { rsaSignText, type SignPool } from './sign-pool.js';
import { AppError } from '../errors/app-error.js';
import type { PlatformKeyRow, PlatformKeysRepository } from './keys.repository.js';

const generateKeyPair = promisify(crypto.generateKeyPair);

export interface PublicKeyInfo {
  kid: string;
  publicKeyPem: string;
  status: 'signing' | 'published' | 'retired';
  createdAt: string;
  retiredAt: string | null;
}

export interface Signer {
  kid: string;
  privateKey: crypto.KeyObject;
}

/** How long an instance keeps its view of the signing key; a rotation made elsewhere is picked up within this. */
export const SIGNER_REFRESH_MS = 60_000;

/**
 * The platform's RSA-2048 key pairs (5.3). The newest published key signs;
 * older published keys stay listed so games can verify during a rotation,
 * until an operator retires them.
 */
export class PlatformKeyService {
  #signer: { value: Signer; until: number } | undefined;
  /** The key being loaded, shared by every caller meanwhile (a burst of sends reads it once). */
  #loading: Promise<Signer> | undefined;
  /** Bumped by rotate(), so a load that began before it is not cached. */
  #generation = 0;

  constructor(
    private readonly repo: PlatformKeysRepository,
    private readonly box: SecretBox,
    private readonly now: () => number = Date.now,
    private readonly pool?: SignPool,
    private readonly cacheBus?: CacheBus,
  ) {
    // A rotation on another instance: sign with the new key from the next call (SIGNER_REFRESH_MS is the fallback).
    cacheBus?.subscribe('platform-keys', () => this.#forget());
  }

  #forget(): void {
    this.#signer = undefined;
    this.#loading = undefined;
    this.#generation++;
  }

  /** Starts the signing threads ahead of the first call (SignPool.warm). */
  warmSigning(): void {
    this.pool?.warm();
  }

  /**
   * The `Timestamp`, `Nonce`, `Signature` and `Key-Id` headers of a call to a
   * game (5.3), signed with the current key (in the signing pool when there is one).
   */
  async signCall(call: { method: string; path: string; body: string }): Promise<Record<string, string>> {
    const signer = await this.signer();
    const timestamp = String(Math.floor(this.now() / 1000));
    // Call nonces: 16 random bytes, base64url (like the SDK's default).
    const nonce = crypto.randomBytes(16).toString('base64url');
    const base = callbackSignBaseText({ method: call.method, path: call.path, timestamp, nonce, body: call.body });
    const signature = this.pool
      ? await this.pool.sign(signer.kid, signer.privateKey, base)
      : rsaSignText(base, signer.privateKey);
    return callbackHeaders({ timestamp, nonce, signature, keyId: signer.kid });
  }

  /** Creates the first key pair if there is none (first start). */
  async ensureKey(): Promise<void> {
    if ((await this.repo.published()).length === 0) await this.rotate();
  }

  /** Adds a new key pair that signs from now on. */
  async rotate(): Promise<PublicKeyInfo> {
    const { publicKey, privateKey } = await generateKeyPair('rsa', { modulusLength: 2048 });
    const kid = `pk_${new Date(this.now()).toISOString().slice(0, 10).replace(/-/g, '')}_${crypto.randomBytes(4).toString('hex')}`;
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await this.repo.insert({
      kid,
      public_pem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
      private_pem_enc: this.box.seal(privatePem, privateKeyContext(kid)),
      status: 'published',
      created_at: this.now(),
      retired_at: null,
    });
    this.#forget();
    this.cacheBus?.publish('platform-keys', null);
    const info = (await this.list()).find((k) => k.kid === kid);
    return info!;
  }

  /** Stops publishing an old key. The signing key cannot be retired: rotate first. */
  async retire(kid: string): Promise<void> {
    const published = await this.repo.published();
    if (published[0]?.kid === kid)
      throw new AppError('CONFLICT', `key ${kid} is the signing key; rotate before retiring it`);
    if ((await this.repo.retire(kid, this.now())) === 0) throw new AppError('NOT_FOUND', `no published key ${kid}`);
  }

  async list(): Promise<PublicKeyInfo[]> {
    const rows = await this.repo.all();
    const signingKid = rows.find((r) => r.status === 'published')?.kid;
    return rows.map((r) => toInfo(r, signingKid));
  }

  /** The key that signs calls to games now. */
  async signer(): Promise<Signer> {
    const now = this.now();
    if (this.#signer && this.#signer.until > now) return this.#signer.value;
    if (!this.#loading) {
      const loading = this.#load(now, this.#generation);
      this.#loading = loading;
      void loading
        .catch(() => {})
        .finally(() => {
          if (this.#loading === loading) this.#loading = undefined;
        });
    }
    return this.#loading;
  }

  async #load(now: number, generation: number): Promise<Signer> {
    const row = (await this.repo.published())[0];
    if (!row) throw new AppError('UNAVAILABLE', 'no platform key pair; the service creates one at start');
    const value = {
      kid: row.kid,
      privateKey: crypto.createPrivateKey(this.box.open(row.private_pem_enc, privateKeyContext(row.kid))),
    };
    if (generation === this.#generation) this.#signer = { value, until: now + SIGNER_REFRESH_MS };
    return value;
  }
}

function toInfo(r: PlatformKeyRow, signingKid: string | undefined): PublicKeyInfo {
  return {
    kid: r.kid,
    publicKeyPem: r.public_pem,
    status: r.status === 'retired' ? 'retired' : r.kid === signingKid ? 'signing' : 'published',
    createdAt: new Date(r.created_at).toISOString(),
    retiredAt: r.retired_at === null ? null : new Date(r.retired_at).toISOString(),
  };
}
