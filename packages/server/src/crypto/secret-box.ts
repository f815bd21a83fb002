import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (md5 secrets, MAC keys, private keys) are sealed with
 * AES-256-GCM under the master key. The associated data names what the value
 * is (e.g. `app-secret:<clientId>`), so a sealed value copied into another row
 * does not open there.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('master key must be 32 bytes');
    this.#key = key;
  }

  seal(plaintext: string, context: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, iv, ct, tag] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || ct === undefined || tag === undefined) throw new Error('sealed value has an unknown format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
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
export function readOrCreateSecretFile(dataDir: string, name: string, make: () => string): { value: string; file: string; created: boolean } {
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
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { value: fs.readFileSync(file, 'utf8').trim(), file, created: false };
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
