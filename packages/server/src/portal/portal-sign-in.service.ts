import { AppError } from '../errors/app-error.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { newSessionValue, sha256 } from '../operators/credentials.js';
import type { AuditContext } from '../operators/operators.service.js';
import {
  checkSecondFactor,
  lockedOut,
  checkPasswordSignIn,
  type SignInSettings,
} from '../operators/sign-in.service.js';
import type { DeveloperRow, PortalRepository } from './portal.repository.js';
import type { SignInMetrics } from '../operators/sign-in.metrics.js';
import { studioActor, studioTotpContext, type StudioDeveloperService } from './studio-developers.service.js';

/** Who is calling the portal API: a studio developer's session, and the apps it may see. */
export interface StudioPrincipal {
  developerId: number;
  name: string;
  appIds: number[];
  sessionHash: string;
  csrfToken: string;
}

/**
 * Portal sign-in (docs/portal.md): name, password and a TOTP code or a recovery code, with the operator accounts'
 * rules and settings (OPERATOR_SESSION_SECONDS, OPERATOR_LOGIN_MAX_FAILURES, OPERATOR_LOCK_SECONDS,
 * OPERATOR_LOGIN_DELAY_MS): every refusal is the same answer, answered late, counted towards the lock and audited.
 */
export class PortalSignInService {
  constructor(
    private readonly repo: PortalRepository,
    private readonly box: SecretBox,
    private readonly developers: StudioDeveloperService,
    private readonly settings: SignInSettings,
    private readonly metrics: SignInMetrics,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async login(
    input: { name: string; password: string; totp?: string; recoveryCode?: string },
    ctx: AuditContext,
  ): Promise<{ session: string; principal: StudioPrincipal }> {
    const row = (await this.repo.byName(input.name)) ?? null;
    const at = this.now();
    const actor = studioActor(input.name.slice(0, 100));
    const check = await checkPasswordSignIn(row, input.password, at, (r) =>
      checkSecondFactor(this.box.open(r.totp_secret_enc, studioTotpContext(r.name)), r.recovery_codes, input, at, {
        claimTotpStep: (step) => this.repo.claimTotpStep(r.developer_id, step),
        swapRecoveryCodes: (before, after) => this.repo.swapRecoveryCodes(r.developer_id, before, after),
      }),
    );
    if ('lockedSeconds' in check) {
      this.metrics.failed('studio_developer', 'locked');
      await this.developers.audit('portal-login-locked', actor, ctx, 'locked', 429);
      throw lockedOut(check.lockedSeconds);
    }
    if ('why' in check) return this.refuse(actor, row, check.why, ctx);
    const developer = check.account;

    await this.repo.update(developer.developer_id, { failed_logins: 0, locked_until: null, last_login_at: at });
    await this.repo.deleteExpiredSessions(at);
    const session = newSessionValue();
    const csrfToken = newSessionValue();
    await this.repo.insertSession({
      session_hash: sha256(session),
      developer_id: developer.developer_id,
      csrf_token: csrfToken,
      ip: ctx.ip,
      created_at: at,
      expires_at: at + this.settings.sessionSeconds * 1000,
    });
    await this.developers.audit('portal-login', actor, ctx, input.recoveryCode ? 'with a recovery code' : null);
    return {
      session,
      principal: {
        developerId: developer.developer_id,
        name: developer.name,
        appIds: await this.repo.appsOf(developer.developer_id),
        sessionHash: sha256(session),
        csrfToken,
      },
    };
  }

  private async refuse(actor: string, row: DeveloperRow | null, why: string, ctx: AuditContext): Promise<never> {
    const failures = row
      ? await this.repo.countFailure(
          row.developer_id,
          this.settings.maxFailures,
          this.now() + this.settings.lockSeconds * 1000,
          this.now(),
        )
      : 1;
    this.metrics.failed('studio_developer', why);
    if (row && failures >= this.settings.maxFailures) this.metrics.locked('studio_developer');
    await this.developers.audit('portal-login-failed', actor, ctx, why, 401);
    // Slows guessing: each failure in a row waits longer (the lock stops it).
    await this.sleep(Math.min(5000, this.settings.failureDelayMs * failures));
    throw new AppError('PORTAL_LOGIN_FAILED');
  }

  /** The principal of a portal session cookie, or null (unknown, expired, or its developer disabled). */
  async sessionPrincipal(cookie: string): Promise<StudioPrincipal | null> {
    const hash = sha256(cookie);
    const s = await this.repo.session(hash);
    if (!s) return null;
    if (Number(s.expires_at) <= this.now()) {
      await this.repo.deleteSession(hash);
      return null;
    }
    const dev = await this.repo.byId(Number(s.developer_id));
    if (!dev || dev.disabled === 1) return null;
    return {
      developerId: dev.developer_id,
      name: dev.name,
      appIds: await this.repo.appsOf(dev.developer_id),
      sessionHash: hash,
      csrfToken: s.csrf_token,
    };
  }

  async logout(p: StudioPrincipal, ctx: AuditContext): Promise<void> {
    await this.repo.deleteSession(p.sessionHash);
    await this.developers.audit('portal-logout', studioActor(p.name), ctx, null);
  }
}
