import * as client from 'openid-client';
import { AppError } from '../errors/app-error.js';
import type { SecretBox } from '../crypto/secret-box.js';

/** OpenID Connect sign-in settings (OIDC_* configuration, docs/operators.md "OpenID Connect"). */
export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  /** The ID token claim whose value is the operator's name. */
  claim: string;
  scopes: string;
}

/** What a sign-in in progress keeps in the browser, sealed under the master key: PKCE verifier, state, nonce. */
interface Pending {
  verifier: string;
  state: string;
  nonce: string;
  expiresAt: number;
}

const SEAL_CONTEXT = 'operator-oidc-pending';
/** A sign-in must come back from the provider within this. */
export const PENDING_SECONDS = 600;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/**
 * Operator sign-in through the company's identity provider, with openid-client: the authorization code flow with
 * PKCE (S256), state and nonce; the ID token's signature is checked against the provider's JWKS, with its issuer,
 * audience (our client id), expiry and nonce. The state of a sign-in in progress is a sealed value the browser
 * holds in a short-lived cookie, so any instance can finish it. The provider is reached over HTTPS only, except on
 * a loopback address (a provider on the same host, and the tests' fixture).
 */
export class OidcSignIn {
  #config: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly box: SecretBox,
    private readonly now: () => number = Date.now,
  ) {}

  /** The provider's metadata, discovered once (a failed discovery is tried again on the next sign-in). */
  private config(): Promise<client.Configuration> {
    if (!this.#config) {
      const issuer = new URL(this.settings.issuerUrl);
      const insecure = issuer.protocol === 'http:' && LOOPBACK.test(issuer.hostname);
      this.#config = client
        .discovery(issuer, this.settings.clientId, undefined, client.ClientSecretBasic(this.settings.clientSecret), {
          execute: insecure ? [client.allowInsecureRequests] : [],
        })
        .then((c) => {
          client.enableNonRepudiationChecks(c);
          return c;
        });
      this.#config.catch(() => (this.#config = undefined));
    }
    return this.#config;
  }

  /** Starts a sign-in: the provider's authorization URL, and the sealed state for the browser's cookie. */
  async start(): Promise<{ url: string; pending: string }> {
    const config = await this.config().catch((err: unknown) => {
      throw new AppError('UNAVAILABLE', `the identity provider did not answer: ${String(err)}`);
    });
    const pending: Pending = {
      verifier: client.randomPKCECodeVerifier(),
      state: client.randomState(),
      nonce: client.randomNonce(),
      expiresAt: this.now() + PENDING_SECONDS * 1000,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: this.settings.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url: url.href, pending: this.box.seal(JSON.stringify(pending), SEAL_CONTEXT) };
  }

  /**
   * Finishes a sign-in from the provider's redirect (its query string) and the browser's sealed state: the
   * operator name the provider vouches for. Throws with a reason for the audit trail when anything does not check.
   */
  async finish(callbackQuery: string, sealed: string | undefined): Promise<string> {
    const pending = this.openPending(sealed);
    const current = new URL(this.settings.redirectUrl);
    current.search = callbackQuery;
    let claims: client.IDToken | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(await this.config(), current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      throw new OidcRefused(`the provider's answer did not check: ${errorText(err)}`);
    }
    const value = claims?.[this.settings.claim];
    if (typeof value !== 'string' || value === '')
      throw new OidcRefused(`the ID token has no ${this.settings.claim} claim`);
    return value;
  }

  private openPending(sealed: string | undefined): Pending {
    if (!sealed) throw new OidcRefused('no sign-in in progress in this browser (cookie missing)');
    let pending: Pending;
    try {
      pending = JSON.parse(this.box.open(sealed, SEAL_CONTEXT)) as Pending;
    } catch {
      throw new OidcRefused('the sign-in state cookie does not open');
    }
    if (pending.expiresAt <= this.now()) throw new OidcRefused('the sign-in took too long');
    return pending;
  }
}

/** A refused OpenID Connect sign-in; `message` is for the audit trail, never the browser. */
export class OidcRefused extends Error {
  override name = 'OidcRefused';
}

function errorText(err: unknown): string {
  const e = err as { code?: string; message?: string; error?: string };
  return [e.code, e.error, e.message].filter(Boolean).join(': ').slice(0, 300);
}
