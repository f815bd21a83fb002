import type { Config } from '../config/config.js';
import { realmOf, type Identity } from '../identity/identity.module.js';
import type { Door } from '../identity/sign-in.js';
import { OidcSignIn } from '../identity/oidc.js';
import { OperatorService, platformRole } from './operators.service.js';
import { OperatorTokenService } from './operator-tokens.service.js';
import { SignInService } from './sign-in.service.js';

export { installAdminAccess, principalOf } from './admin-access.routes.js';
export { operatorRoutes } from './operators.routes.js';
export { oidcRoutes } from './oidc.routes.js';
export { registerOperatorCommands } from './operators.cli.js';
export type { OperatorService } from './operators.service.js';
export type { OperatorTokenService } from './operator-tokens.service.js';
export type { SignInService } from './sign-in.service.js';
export type { OidcSignIn } from '../identity/oidc.js';

/** The console's door: people of the platform realm holding a platform role. */
const CONSOLE_DOOR: Door = {
  realm: 'platform',
  metrics: 'operator',
  accepts: (grants) => platformRole(grants) !== null,
  actor: (name) => name,
  recordsId: true,
  events: { login: 'login', failed: 'login-failed', locked: 'login-locked', logout: 'logout' },
  refusal: 'OPERATOR_LOGIN_FAILED',
};

export type OperatorsConfig = Pick<
  Config,
  | 'OIDC_ISSUER_URL'
  | 'OIDC_CLIENT_ID'
  | 'OIDC_CLIENT_SECRET'
  | 'OIDC_REDIRECT_URL'
  | 'OIDC_OPERATOR_CLAIM'
  | 'OIDC_SCOPES'
>;

/** Operator accounts, their console sign-in (password, OpenID Connect) and API tokens (docs/operators.md). */
export function createOperators(
  identity: Identity,
  config: OperatorsConfig,
): {
  operators: OperatorService;
  operatorSignIn: SignInService;
  operatorTokens: OperatorTokenService;
  /** Null when OIDC_ISSUER_URL is unset. */
  operatorOidc: OidcSignIn | null;
} {
  const { people, invitations, door } = realmOf(identity, {
    terms: {
      realm: 'platform',
      noun: 'operator',
      events: { created: 'operator-created', disabled: 'operator-disabled', enabled: 'operator-enabled' },
    },
    invitations: { page: '/console', actor: (name) => name, title: 'Operator console' },
    door: CONSOLE_DOOR,
  });
  const operators = new OperatorService(people, invitations);
  return {
    operators,
    operatorSignIn: new SignInService(door, operators),
    operatorTokens: new OperatorTokenService(identity.people, operators, identity.now),
    operatorOidc: config.OIDC_ISSUER_URL
      ? new OidcSignIn(
          {
            issuerUrl: config.OIDC_ISSUER_URL,
            clientId: config.OIDC_CLIENT_ID!,
            clientSecret: config.OIDC_CLIENT_SECRET!,
            redirectUrl: config.OIDC_REDIRECT_URL!,
            claim: config.OIDC_OPERATOR_CLAIM,
            scopes: config.OIDC_SCOPES,
          },
          identity.box,
          identity.now,
        )
      : null,
  };
}
