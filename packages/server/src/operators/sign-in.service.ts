import type { Entry, PasskeyCheck, SignIn } from '../identity/sign-in.js';
import type { AuditContext } from '../identity/people.service.js';
import { platformRole, type OperatorService, type OperatorView, type Principal } from './operators.service.js';

/**
 * The console's door of the one sign-in (identity/sign-in.ts): it accepts a person holding a platform role, and
 * answers in the admin API's terms (a Principal, an OperatorView).
 */
export class SignInService {
  constructor(
    readonly door: SignIn,
    private readonly operators: OperatorService,
  ) {}

  /** Console sign-in: name, password and a TOTP code, a recovery code or a passkey (checked by `passkeyOf`). */
  async login(
    input: { name: string; password: string; totp?: string; recoveryCode?: string; passkey?: unknown },
    ctx: AuditContext,
    passkeyOf?: PasskeyCheck,
  ): Promise<{ session: string; csrfToken: string; operator: OperatorView; expiresAt: number }> {
    return this.answer(await this.door.login(input, ctx, passkeyOf));
  }

  /** Console sign-in with a passkey alone. */
  async loginWithPasskey(response: unknown, check: PasskeyCheck, ctx: AuditContext) {
    return this.answer(await this.door.loginWithPasskey(response, check, ctx));
  }

  private async answer(e: Entry & { session: string; expiresAt: number }) {
    return {
      session: e.session,
      csrfToken: e.csrfToken,
      operator: await this.operators.view(e.person),
      expiresAt: e.expiresAt,
    };
  }

  /** Sign-in by the company's identity provider (identity/oidc.ts): the operator named `name`. */
  async loginVerified(name: string, via: string, ctx: AuditContext) {
    return this.answer(await this.door.loginVerified(name, via, ctx));
  }

  refuseUnnamed(why: string, ctx: AuditContext): Promise<never> {
    return this.door.refuseUnnamed(why, ctx);
  }

  /** The principal of a session cookie, or null (unknown, expired, or its operator disabled). */
  async sessionPrincipal(cookie: string): Promise<Principal | null> {
    const e = await this.door.session(cookie);
    if (!e) return null;
    return {
      kind: 'session',
      operatorId: e.person.person_id,
      name: e.person.name,
      role: platformRole(e.grants)!,
      sessionHash: e.sessionHash,
      csrfToken: e.csrfToken,
    };
  }

  logout(p: Principal, ctx: AuditContext): Promise<void> {
    return this.door.logout(
      { name: p.name, personId: p.operatorId, ...(p.sessionHash ? { sessionHash: p.sessionHash } : {}) },
      ctx,
    );
  }
}
