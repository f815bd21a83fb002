import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { Secret, TOTP } from 'otpauth';
import { invalidParameter } from '../errors/app-error.js';

/**
 * The secrets an operator signs in with (docs/operators.md, docs/operators.md "Operator accounts"):
 * - passwords: argon2id through @node-rs/argon2 (N-API prebuilt binaries, no install script) with its defaults
 *   (19 MiB, 2 passes, OWASP's minimum for argon2id);
 * - TOTP (RFC 6238, SHA-1, 6 digits, 30 s, as every authenticator app reads) through otpauth;
 * - recovery codes, session cookies and API tokens: random, kept as a SHA-256 (they are long random values, so a fast
 *   hash is enough; a slow one is for what people choose).
 */

export const PASSWORD_MIN = 12;

/** A password an account may take: PASSWORD_MIN to 1024 characters (400 otherwise). */
export function checkPassword(password: string): void {
  if ([...password].length < PASSWORD_MIN || password.length > 1024)
    throw invalidParameter('password', `must be ${PASSWORD_MIN}-1024 characters`);
}

/** Algorithm.Argon2id of @node-rs/argon2 (a const enum, which this build cannot import). */
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of nothing anyone knows: an unknown name costs the same time as a wrong password. */
let decoy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword(crypto.randomBytes(32).toString('base64url'));
  await verifyPassword(await decoy, password);
}

const TOTP_PERIOD = 30;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads (shown once, as a QR code or pasted). */
export function totpUri(secret: string, name: string, issuer: string): string {
  return new TOTP({ issuer, label: name, secret: Secret.fromBase32(secret), period: TOTP_PERIOD }).toString();
}

/**
 * The time step a code matches (one step of clock drift either way), or null. The caller refuses a step not newer
 * than the last one accepted, so a code is good once.
 */
export function totpStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: TOTP_PERIOD });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

/** The current code (tests and the CLI's self-check). */
export function totpCode(secret: string, now: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), period: TOTP_PERIOD }).generate({ timestamp: now });
}

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** Ten recovery codes, `xxxxx-xxxxx` from an unambiguous alphabet; each good once. */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const one = () => Array.from({ length: 10 }, () => alphabet[crypto.randomInt(alphabet.length)]).join('');
  return Array.from({ length: 10 }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** A generated password: three recovery-code-shaped groups (about 150 bits). */
export const newPassword = () => newRecoveryCodes().slice(0, 3).join('-');

export const normalizeRecoveryCode = (code: string) => code.trim().toLowerCase();

/** A session cookie value or an API token: 32 random bytes. Tokens carry a prefix so a leaked one is recognisable. */
export const newSessionValue = () => crypto.randomBytes(32).toString('base64url');
export const newApiToken = () => `gpo_${crypto.randomBytes(32).toString('base64url')}`;
export const API_TOKEN_PATTERN = /^gpo_[A-Za-z0-9_-]{43}$/;

/**
 * A new second factor for account `name`: the TOTP secret sealed by `seal`, the recovery codes' hashes, and what
 * the account holder is answered once. Shared by operator and studio developer accounts.
 */
export function newSecondFactor(seal: (secret: string) => string, name: string, issuer: string) {
  const secret = newTotpSecret();
  const codes = newRecoveryCodes();
  return {
    sealed: seal(secret),
    hashes: JSON.stringify(codes.map(sha256)),
    answer: { totpSecret: secret, totpUri: totpUri(secret, name, issuer), recoveryCodes: codes },
  };
}
