import type { Config } from '../../config/config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { OidcProvider, type OidcProviderOptions } from './oidc.js';
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

/** The OpenID Connect providers, each with its configured audiences (comma-separated; none: the provider is off). */
function oidcProviders(config: Config): Array<Omit<OidcProviderOptions, 'audiences'> & { audiences: string }> {
  return [
    {
      name: 'apple',
      loginType: 2,
      issuers: ['https://appleid.apple.com'],
      audiences: config.APPLE_AUDIENCES,
      jwksUrl: config.APPLE_JWKS_URL,
    },
    {
      name: 'google',
      loginType: 3,
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
      audiences: config.GOOGLE_AUDIENCES,
      jwksUrl: config.GOOGLE_JWKS_URL,
      nicknameClaim: 'name',
      avatarClaim: 'picture',
    },
    {
      name: 'facebook',
      loginType: 4,
      issuers: ['https://www.facebook.com'],
      audiences: config.FACEBOOK_AUDIENCES,
      jwksUrl: config.FACEBOOK_JWKS_URL,
      nicknameClaim: 'name',
      avatarClaim: 'picture',
    },
  ];
}

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
  for (const { audiences, ...options } of oidcProviders(config)) {
    const audienceList = list(audiences);
    if (audienceList.length) providers.set(options.name, new OidcProvider({ ...options, audiences: audienceList }));
  }
  let sandbox: SandboxProvider | null = null;
  if (config.SANDBOX_LOGIN && !config.production) {
    sandbox = new SandboxProvider(box, now);
    providers.set('sandbox', sandbox);
  }
  return { providers, sandbox };
}
