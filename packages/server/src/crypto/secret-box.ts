import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { secretKey } from './secret-key.js';

/** A master key's public id: 11 characters of a SHA-256 over it, safe to print and to store beside a sealed value. */
export function masterKeyId(key: Buffer): string {
  return crypto
    .createHash('sha256')
    .update('game-platform master key id\n')
    .update(key)
    .digest('base64url')
    .slice(0, 11);
}

/** A sealed value names a master key that this instance was not given (MASTER_KEY, MASTER_KEY_PREVIOUS). */
export class MissingMasterKeyError extends Error {
  constructor(readonly keyId: string) {
    super(
      `the value is sealed under master key ${keyId}, which is not configured: add it to MASTER_KEY_PREVIOUS (or to DATA_DIR/master.key in embedded mode)`,
    );
  }
}

/**
 * Secrets at rest (md5 secrets, MAC keys, private keys) are sealed with
 * AES-256-GCM under the master key. The associated data names what the value
 * is (e.g. `app-secret:<clientId>`), so a sealed value copied into another row
 * does not open there.
 *
 * The box holds a keyring so the master key can be rotated in place
 * (docs/operations.md): it seals under the current key and opens under any
 * configured one. A sealed value is `v2.<keyId>.<iv>.<ciphertext>.<tag>`; the
 * `v1.<iv>.<ciphertext>.<tag>` values of before rotation existed carry no key
 * id and are tried under each key (GCM's tag tells a wrong key).
 */
export class SecretBox {
  readonly #keys: Map<string, crypto.KeyObject>;
  /** Id of the key new values are sealed under. */
  readonly currentKeyId: string;

  constructor(current: Buffer, previous: Buffer[] = []) {
    for (const key of [current, ...previous]) if (key.length !== 32) throw new Error('master key must be 32 bytes');
    this.currentKeyId = masterKeyId(current);
    this.#keys = new Map([current, ...previous].map((k) => [masterKeyId(k), secretKey(k)]));
  }

  /** Ids of the configured keys, the current one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  seal(plaintext: string, context: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#keys.get(this.currentKeyId)!, iv, { authTagLength: 16 });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v2',
      this.currentKeyId,
      iv.toString('base64url'),
      ct.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  open(sealed: string, context: string): string {
    return this.#open(sealed, context).plaintext;
  }

  /**
   * The id of the key a value is sealed under (a v1 value is opened to find
   * out). Throws MissingMasterKeyError when no configured key opens it.
   */
  keyIdOf(sealed: string, context: string): string {
    return this.#open(sealed, context).keyId;
  }

  /** The value sealed under the current key, or null when it already is. */
  reseal(sealed: string, context: string): string | null {
    const { plaintext, keyId } = this.#open(sealed, context);
    return keyId === this.currentKeyId && sealed.startsWith('v2.') ? null : this.seal(plaintext, context);
  }

  #open(sealed: string, context: string): { plaintext: string; keyId: string } {
    const parts = sealed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const key = this.#keys.get(parts[1]!);
      if (!key) throw new MissingMasterKeyError(parts[1]!);
      return { plaintext: decrypt(key, parts[2]!, parts[3]!, parts[4]!, context), keyId: parts[1]! };
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      let failure: unknown;
      for (const [keyId, key] of this.#keys) {
        try {
          return { plaintext: decrypt(key, parts[1]!, parts[2]!, parts[3]!, context), keyId };
        } catch (err) {
          failure = err;
        }
      }
      throw failure instanceof Error && this.#keys.size > 1
        ? new Error(
            `the v1 sealed value opens under none of the ${this.#keys.size} configured master keys (or its context is not ${JSON.stringify(context)})`,
          )
        : failure;
    }
    throw new Error('sealed value has an unknown format');
  }
}

function decrypt(key: crypto.KeyObject, iv: string, ct: string, tag: string, context: string): string {
  // A full 16-byte tag only: a truncated one would weaken the authentication.
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/** Decodes MASTER_KEY (base64 or base64url of 32 bytes). */
export function decodeMasterKey(value: string): Buffer {
  const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== 32) throw new Error('MASTER_KEY must be the base64 of exactly 32 bytes');
  return key;
}

/**
 * Reads a generated secret from a file in DATA_DIR, creating it (mode 0600)
 * on first start. Used in embedded mode for the master key and admin token.
 */
export function readOrCreateSecretFile(
  dataDir: string,
  name: string,
  make: () => string,
): { value: string; file: string; created: boolean } {
  const file = path.join(dataDir, name);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return { value: fs.readFileSync(file, 'utf8').trim(), file, created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = make();
  try {
    fs.writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
    return { value, file, created: true };
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      return { value: fs.readFileSync(file, 'utf8').trim(), file, created: false };
    throw err;
  }
}

/** At least `bytes` random bytes as base64url (32 bytes -> 43 characters). */
export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Constant-time equality of two strings (lengths are hidden by hashing first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}
