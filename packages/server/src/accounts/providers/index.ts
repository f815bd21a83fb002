import type { Config } from '../../config/config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { OidcProvider } from './oidc.js';
import type { LoginProvider, ProviderIdentity } from './provider.js';
import { invalidParameter } from '../../errors/app-error.js';
import { SandboxProvider } from './sandbox.js';

export type { LoginProvider, ProviderIdentity } from './provider.js';
export { SandboxProvider } from './sandbox.js';

/** The identity a provider's credential proves; an unknown or disabled provider is a 400 naming `provider`. */
export async function verifyCredential(
  providers: Map<string, LoginProvider>,
  provider: string,
  credential: string,
): Promise<ProviderIdentity> {
  const p = providers.get(provider);
  if (!p) {
    const enabled = [...providers.keys()].join(', ') || 'none';
    throw invalidParameter(
      'provider',
      `${JSON.stringify(provider)} is not a login provider of this service (enabled: ${enabled})`,
    );
  }
  return p.verify(credential);
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The login providers this deployment accepts: Apple (login type 2), Google
 * (3) and Facebook (4) when their audiences are configured, and the sandbox
 * when SANDBOX_LOGIN is on (never in production: config refuses it).
 */
export function buildProviders(
  config: Config,
  box: SecretBox,
  now: () => number,
): { providers: Map<string, LoginProvider>; sandbox: SandboxProvider | null } {
  const providers = new Map<string, LoginProvider>();
  const apple = list(config.APPLE_AUDIENCES);
  if (apple.length) {
    providers.set(
      'apple',
      new OidcProvider({
        name: 'apple',
        loginType: 2,
        issuers: ['https://appleid.apple.com'],
        audiences: apple,
        jwksUrl: config.APPLE_JWKS_URL,
      }),
    );
  }
  const google = list(config.GOOGLE_AUDIENCES);
  if (google.length) {
    providers.set(
      'google',
      new OidcProvider({
        name: 'google',
        loginType: 3,
        issuers: ['https://accounts.google.com', 'accounts.google.com'],
        audiences: google,
        jwksUrl: config.GOOGLE_JWKS_URL,
        nicknameClaim: 'name',
        avatarClaim: 'picture',
      }),
    );
  }
  const facebook = list(config.FACEBOOK_AUDIENCES);
  if (facebook.length) {
    providers.set(
      'facebook',
      new OidcProvider({
        name: 'facebook',
        loginType: 4,
        issuers: ['https://www.facebook.com'],
        audiences: facebook,
        jwksUrl: config.FACEBOOK_JWKS_URL,
        nicknameClaim: 'name',
        avatarClaim: 'picture',
      }),
    );
  }
  let sandbox: SandboxProvider | null = null;
  if (config.SANDBOX_LOGIN && !config.production) {
    sandbox = new SandboxProvider(box, now);
    providers.set('sandbox', sandbox);
  }
  return { providers, sandbox };
}
