/** What a login provider vouches for, after verifying the client's credential. */
export interface ProviderIdentity {
  loginType: number;
  openId: string;
  unionId: string | null;
  nickname: string | null;
  avatar: string | null;
  /** Lower-cased. */
  email: string | null;
  emailVerified: boolean;
}

export interface LoginProvider {
  /** `provider` of the client login body. */
  readonly name: string;
  /** Verifies the credential (an ID token or a sandbox assertion); throws AppError INVALID_LOGIN_CREDENTIAL. */
  verify(credential: string): Promise<ProviderIdentity>;
}

const MAX_TEXT = 512;

/** Provider-supplied optional text, trimmed to what we store (never trusted for anything but display). */
export function optionalText(value: unknown, max = MAX_TEXT): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text.length === 0 ? null : text.slice(0, max);
}

export function normaliseEmail(value: unknown): string | null {
  const text = optionalText(value, 320);
  return text && /^[^\s@]+@[^\s@]+$/.test(text) ? text.toLowerCase() : null;
}

/** Apple sends email_verified as "true"/"false" strings, Google as booleans. */
export function claimTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
