import { AppError } from '../errors/app-error.js';
import type { SecretBox } from '../crypto/secret-box.js';
import {
  burnPasswordCheck,
  newSessionValue,
  normalizeRecoveryCode,
  sha256,
  totpStep,
  verifyPassword,
} from './credentials.js';
import type { Role } from './permissions.js';
import type { OperatorRow, OperatorsRepository } from './operators.repository.js';
import type { SignInMetrics } from './sign-in.metrics.js';
import {
  totpContext,
  type AuditContext,
  type OperatorService,
  type OperatorView,
  type Principal,
} from './operators.service.js';

export interface SecondFactorInput {
  totp?: string;
  recoveryCode?: string;
}

/**
 * The second factor of a sign-in (operator or studio developer account): null when the TOTP code (good once: its
 * time step must be newer than the last accepted) or the recovery code (good once) is right, else what was wrong.
 */
export async function checkSecondFactor(
  totpSecret: string,
  recoveryCodes: string,
  input: SecondFactorInput,
  at: number,
  claim: {
    claimTotpStep(step: number): Promise<boolean>;
    swapRecoveryCodes(before: string, after: string): Promise<boolean>;
  },
): Promise<string | null> {
  if (input.totp !== undefined) {
    const step = totpStep(totpSecret, input.totp, at);
    if (step === null) return 'wrong TOTP code';
    return (await claim.claimTotpStep(step)) ? null : 'replayed TOTP code';
  }
  if (input.recoveryCode !== undefined) {
    const hash = sha256(normalizeRecoveryCode(input.recoveryCode));
    const left = JSON.parse(recoveryCodes) as string[];
    if (!left.includes(hash)) return 'unknown or used recovery code';
    const swapped = await claim.swapRecoveryCodes(recoveryCodes, JSON.stringify(left.filter((h) => h !== hash)));
    return swapped ? null : 'unknown or used recovery code';
  }
  return 'no second factor';
}

/** What a sign-in with a password and a second factor found: the account to let in, a lock (429), or why not. */
export type SignInCheck<R> = { account: R } | { lockedSeconds: number } | { why: string };

/**
 * The checks of a password sign-in, in one order for both kinds of account (operators, studio developers): an
 * unknown name costs a password check all the same; a locked account is told so; then the password, the second
 * factor (`secondFactor`, only once the password is right), and a disabled account last.
 */
export async function checkPasswordSignIn<
  R extends { password_hash: string; locked_until: number | null; disabled: number },
>(
  row: R | null,
  password: string,
  at: number,
  secondFactor: (row: R) => Promise<string | null>,
): Promise<SignInCheck<R>> {
  if (!row) {
    await burnPasswordCheck(password);
    return { why: 'unknown name' };
  }
  if (row.locked_until !== null && Number(row.locked_until) > at)
    return { lockedSeconds: Math.ceil((Number(row.locked_until) - at) / 1000) };
  if (!(await verifyPassword(row.password_hash, password))) return { why: 'wrong password' };
  const problem = await secondFactor(row);
  if (problem) return { why: problem };
  if (row.disabled === 1) return { why: 'disabled' };
  return { account: row };
}

/** The answer to a sign-in of a locked account: 429 with Retry-After. */
export function lockedOut(seconds: number): AppError {
  return new AppError('OPERATOR_LOCKED', `locked for ${seconds} s more`, {
    headers: { 'retry-after': String(seconds) },
  });
}

export interface SignInSettings {
  sessionSeconds: number;
  maxFailures: number;
  lockSeconds: number;
  failureDelayMs: number;
}

/** Console sign-in (password + TOTP or recovery code, slowed and locked on failures) and the sessions it opens. */
export class SignInService {
  constructor(
    private readonly repo: OperatorsRepository,
    private readonly box: SecretBox,
    private readonly operators: OperatorService,
    private readonly settings: SignInSettings,
    private readonly metrics: SignInMetrics,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /**
   * Console sign-in: name, password and a TOTP code or a recovery code. Every refusal is the same answer (which
   * part was wrong goes to the audit trail only), answered late, and counted towards the lock.
   */
  async login(
    input: { name: string; password: string; totp?: string; recoveryCode?: string },
    ctx: AuditContext,
  ): Promise<{ session: string; csrfToken: string; operator: OperatorView; expiresAt: number }> {
    const row = (await this.repo.byName(input.name)) ?? null;
    const at = this.now();
    const check = await checkPasswordSignIn(row, input.password, at, (r) => this.checkSecondFactor(r, input, at));
    if ('lockedSeconds' in check) {
      this.metrics.failed('operator', 'locked');
      await this.operators.audit('login-locked', input.name, ctx, 'locked', row!.operator_id, 429);
      throw lockedOut(check.lockedSeconds);
    }
    if ('why' in check) return this.refuse(input.name, row, check.why, ctx);
    return this.openSession(check.account, at, ctx, input.recoveryCode ? 'with a recovery code' : null);
  }

  /**
   * Sign-in by the company's identity provider (OpenID Connect, operators/oidc.ts): the provider checked who it is
   * (and its second factor); the operator must exist by `name`, be enabled and not locked. A refusal is audited
   * and answered like a wrong password.
   */
  async loginVerified(
    name: string,
    via: string,
    ctx: AuditContext,
  ): Promise<{ session: string; csrfToken: string; operator: OperatorView; expiresAt: number }> {
    const row = await this.repo.byName(name);
    const at = this.now();
    if (!row) return this.refuse(name, null, `unknown operator (${via})`, ctx);
    if (row.disabled === 1) return this.refuse(name, row, `disabled (${via})`, ctx);
    if (row.locked_until !== null && Number(row.locked_until) > at)
      return this.refuse(name, row, `locked (${via})`, ctx);
    return this.openSession(row, at, ctx, via);
  }

  /** An audited refusal of a sign-in that never named an operator (e.g. a provider's answer that did not check). */
  async refuseUnnamed(why: string, ctx: AuditContext): Promise<never> {
    return this.refuse('(unknown)', null, why, ctx);
  }

  private async openSession(row: OperatorRow, at: number, ctx: AuditContext, note: string | null) {
    await this.repo.update(row.operator_id, { failed_logins: 0, locked_until: null, last_login_at: at });
    await this.repo.deleteExpiredSessions(at);
    const session = newSessionValue();
    const csrfToken = newSessionValue();
    const expiresAt = at + this.settings.sessionSeconds * 1000;
    await this.repo.insertSession({
      session_hash: sha256(session),
      operator_id: row.operator_id,
      csrf_token: csrfToken,
      ip: ctx.ip,
      created_at: at,
      expires_at: expiresAt,
    });
    await this.operators.audit('login', row.name, ctx, note, row.operator_id);
    return { session, csrfToken, operator: this.operators.view((await this.repo.byId(row.operator_id))!), expiresAt };
  }

  /** null when the code is right (and now used), else what was wrong. */
  private checkSecondFactor(row: OperatorRow, input: SecondFactorInput, at: number): Promise<string | null> {
    return checkSecondFactor(this.box.open(row.totp_secret_enc, totpContext(row.name)), row.recovery_codes, input, at, {
      claimTotpStep: (step) => this.repo.claimTotpStep(row.operator_id, step),
      swapRecoveryCodes: (before, after) => this.repo.swapRecoveryCodes(row.operator_id, before, after),
    });
  }

  private async refuse(name: string, row: OperatorRow | null, why: string, ctx: AuditContext): Promise<never> {
    const failures = row
      ? await this.repo.countFailure(
          row.operator_id,
          this.settings.maxFailures,
          this.now() + this.settings.lockSeconds * 1000,
          this.now(),
        )
      : 1;
    this.metrics.failed('operator', why);
    if (row && failures >= this.settings.maxFailures) this.metrics.locked('operator');
    await this.operators.audit('login-failed', name.slice(0, 100), ctx, why, row?.operator_id ?? null, 401);
    // Slows guessing: each failure in a row waits longer (the lock stops it).
    await this.sleep(Math.min(5000, this.settings.failureDelayMs * failures));
    throw new AppError('OPERATOR_LOGIN_FAILED');
  }

  /** The principal of a session cookie, or null (unknown, expired, or its operator disabled). */
  async sessionPrincipal(cookie: string): Promise<Principal | null> {
    const hash = sha256(cookie);
    const s = await this.repo.session(hash);
    if (!s) return null;
    if (Number(s.expires_at) <= this.now()) {
      await this.repo.deleteSession(hash);
      return null;
    }
    const op = await this.repo.byId(Number(s.operator_id));
    if (!op || op.disabled === 1) return null;
    return {
      kind: 'session',
      operatorId: op.operator_id,
      name: op.name,
      role: op.role as Role,
      sessionHash: hash,
      csrfToken: s.csrf_token,
    };
  }

  async logout(p: Principal, ctx: AuditContext): Promise<void> {
    if (p.sessionHash) await this.repo.deleteSession(p.sessionHash);
    await this.operators.audit('logout', p.name, ctx, null, p.operatorId);
  }
}
