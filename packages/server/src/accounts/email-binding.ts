import type { AppRecord } from '../apps/apps.service.js';
import { AppError } from '../errors/app-error.js';
import { GAME_STORE, providerName } from './login-types.js';
import type { LoginMethodRow, LoginMethodsRepository } from './login-methods.repository.js';
import type { ProviderIdentity } from './providers/index.js';

/**
 * The auto-binding rule (section 7, docs/accounts.md): a first login whose
 * provider vouches for the email joins the one account that holds the same
 * verified email through another login type. 40902 when an account holds
 * it through this very login type; 40901 when several accounts hold it.
 * Unverified emails never bind anything. An account that already has a
 * method of this login type is not a candidate (one method per type).
 * Answers the user id to bind to, or null for a new account.
 */
export async function autoBindTarget(
  methods: LoginMethodsRepository,
  identity: ProviderIdentity,
): Promise<number | null> {
  if (!identity.email || !identity.emailVerified) return null;
  const holders = await methods.verifiedByEmail(identity.email);
  if (holders.length === 0) return null;
  const conflictData = (list: LoginMethodRow[]) => ({
    loginType: identity.loginType,
    conflicts: list.map((m) => ({ loginType: m.login_type, userId: String(m.user_id) })),
    email: identity.email,
  });
  const sameType = holders.filter((m) => m.login_type === identity.loginType);
  if (sameType.length > 0) {
    throw new AppError(
      'EMAIL_BOUND_TO_LOGIN_TYPE',
      `email ${identity.email} is already bound to login type ${identity.loginType} (${providerName(identity.loginType)}) on another account`,
      { data: conflictData(sameType) },
    );
  }
  const accounts = [...new Set(holders.map((m) => m.user_id))];
  if (accounts.length > 1) {
    throw new AppError(
      'EMAIL_BOUND_TO_SEVERAL_ACCOUNTS',
      `email ${identity.email} is bound to ${accounts.length} accounts; log in with one of them and bind this login there`,
      { data: conflictData(holders) },
    );
  }
  const userId = accounts[0]!;
  const own = await methods.byUser(userId);
  return own.some((m) => m.login_type === identity.loginType) ? null : userId;
}

/** 40021: a first login through the overseas game-store provider, creating a user, with an unverified email. */
export function refuseUnverifiedStoreEmail(app: AppRecord, identity: ProviderIdentity): void {
  if (identity.loginType === GAME_STORE && app.region === 'overseas' && identity.email && !identity.emailVerified) {
    throw new AppError(
      'EMAIL_NOT_VERIFIED',
      `the game-store account's email ${identity.email} is not verified; verify it with the store, then log in again`,
      {
        data: { email: identity.email, loginType: identity.loginType },
      },
    );
  }
}
