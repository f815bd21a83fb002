import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { AppError } from '../../errors/app-error.js';
import { claimTrue, normaliseEmail, optionalText, type LoginProvider, type ProviderIdentity } from './provider.js';

export interface OidcProviderOptions {
  name: string;
  loginType: number;
  /** Accepted `iss` values. */
  issuers: string[];
  /** Accepted `aud` values (our client ids at the provider). */
  audiences: string[];
  jwksUrl: string;
  /** Claims mapping beyond sub/email: name and picture claim names. */
  nicknameClaim?: string;
  avatarClaim?: string;
  /** Whether the provider's emails count as verified without an email_verified claim. */
  emailVerifiedByDefault?: boolean;
}

/**
 * A provider whose client-side sign-in yields an OpenID Connect ID token
 * (Sign in with Apple, Google sign-in, Facebook Limited Login): a JWT signed
 * by the provider, verified with `jose` against the provider's JWKS (fetched
 * and cached by jose; refetched when an unknown `kid` appears).
 */
export class OidcProvider implements LoginProvider {
  readonly name: string;
  readonly #jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly opts: OidcProviderOptions) {
    this.name = opts.name;
    this.#jwks = createRemoteJWKSet(new URL(opts.jwksUrl), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      cacheMaxAge: 3_600_000,
    });
  }

  async verify(credential: string): Promise<ProviderIdentity> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(credential, this.#jwks, {
        issuer: this.opts.issuers,
        audience: this.opts.audiences,
        algorithms: ['RS256', 'ES256'],
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: 30,
      }));
    } catch (err) {
      // Fetching the JWKS failed (timeout, non-200, not a key set, network): our fault or theirs, not the client's.
      const fetchFailed =
        err instanceof errors.JWKSTimeout ||
        err instanceof errors.JWKSInvalid ||
        (err instanceof errors.JOSEError && err.code === 'ERR_JOSE_GENERIC') ||
        err instanceof TypeError;
      if (fetchFailed) {
        throw new AppError(
          'UNAVAILABLE',
          `${this.name}: the provider's signing keys could not be fetched; retry later`,
          { cause: err },
        );
      }
      if (err instanceof errors.JOSEError) {
        throw new AppError(
          'INVALID_LOGIN_CREDENTIAL',
          `credential: not a valid ${this.name} ID token (${err.code}: ${err.message})`,
        );
      }
      throw err;
    }
    const openId = optionalText(payload.sub, 255);
    if (!openId) throw new AppError('INVALID_LOGIN_CREDENTIAL', `credential: the ${this.name} ID token has no subject`);
    const email = normaliseEmail(payload.email);
    const verifiedClaim = (payload as Record<string, unknown>).email_verified;
    return {
      loginType: this.opts.loginType,
      openId,
      unionId: null,
      nickname: this.opts.nicknameClaim ? optionalText(payload[this.opts.nicknameClaim]) : null,
      avatar: this.opts.avatarClaim ? optionalText(payload[this.opts.avatarClaim], 2048) : null,
      email,
      emailVerified:
        email !== null &&
        (verifiedClaim === undefined ? this.opts.emailVerifiedByDefault === true : claimTrue(verifiedClaim)),
    };
  }
}
