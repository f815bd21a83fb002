import type { Entry, PasskeyCheck, SignIn } from '../identity/sign-in.js';
import type { AuditContext } from '../identity/people.service.js';
import { appsOf, refundAppsOf } from './studio-developers.service.js';

/** Who is calling the portal API: a studio developer's session, and the apps it may see. */
export interface StudioPrincipal {
  developerId: number;
  name: string;
  appIds: number[];
  /** The apps whose web orders it may refund (STUDIO_REFUND_ROLE grants). */
  refundAppIds: number[];
  sessionHash: string;
  csrfToken: string;
}

/**
 * The portal's door of the one sign-in (identity/sign-in.ts, docs/portal.md): it accepts a person of the studio
 * realm, whose grants are its apps, with the operators' rules and settings (OPERATOR_SESSION_SECONDS,
 * OPERATOR_LOGIN_MAX_FAILURES, OPERATOR_LOCK_SECONDS, OPERATOR_LOGIN_DELAY_MS).
 */
export class PortalSignInService {
  constructor(readonly door: SignIn) {}

  async login(
    input: { name: string; password: string; totp?: string; recoveryCode?: string; passkey?: unknown },
    ctx: AuditContext,
    passkeyOf?: PasskeyCheck,
  ): Promise<{ session: string; principal: StudioPrincipal }> {
    const e = await this.door.login(input, ctx, passkeyOf);
    return { session: e.session, principal: principalOf(e) };
  }

  /** Portal sign-in with a passkey alone. */
  async loginWithPasskey(response: unknown, check: PasskeyCheck, ctx: AuditContext) {
    const e = await this.door.loginWithPasskey(response, check, ctx);
    return { session: e.session, principal: principalOf(e) };
  }

  /** The principal of a portal session cookie, or null (unknown, expired, or its developer disabled). */
  async sessionPrincipal(cookie: string): Promise<StudioPrincipal | null> {
    const e = await this.door.session(cookie);
    return e ? principalOf(e) : null;
  }

  logout(p: StudioPrincipal, ctx: AuditContext): Promise<void> {
    return this.door.logout({ name: p.name, personId: p.developerId, sessionHash: p.sessionHash }, ctx);
  }
}

function principalOf(e: Entry): StudioPrincipal {
  return {
    developerId: e.person.person_id,
    name: e.person.name,
    appIds: appsOf(e.grants),
    refundAppIds: refundAppsOf(e.grants),
    sessionHash: e.sessionHash,
    csrfToken: e.csrfToken,
  };
}
