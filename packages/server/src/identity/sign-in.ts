import { AppError } from '../errors/app-error.js';
import type { ErrorReason } from '../errors/codes.js';
import type { SecretBox } from '../crypto/secret-box.js';
import {
  burnPasswordCheck,
  newSessionValue,
  normalizeRecoveryCode,
  sha256,
  totpStep,
  verifyPassword,
} from './credentials.js';
import type { Grant, PeopleRepository, PersonRow, Realm } from './people.repository.js';
import { totpContext, type AuditContext, type PeopleService } from './people.service.js';
import type { AccountKind, SignInMetrics } from './sign-in.metrics.js';
import { PasskeyRefused } from './passkeys.service.js';

export interface SecondFactorInput {
  totp?: string;
  recoveryCode?: string;
  /** A passkey's answer after the password (checked by the caller's `passkeyOf`: the person it proves). */
  passkey?: unknown;
}

/** Checks a passkey answer (identity/passkeys.service.ts): the person it proves, or throws PasskeyRefused. */
export type PasskeyCheck = (response: unknown) => Promise<PersonRow>;

export interface SignInSettings {
  sessionSeconds: number;
  maxFailures: number;
  lockSeconds: number;
  failureDelayMs: number;
}

/**
 * What tells one door from another (the console's, the portal's): whose names it looks up, the grants it accepts,
 * and how its audit events and refusal are named. Everything else of a sign-in is the same code.
 */
export interface Door {
  realm: Realm;
  metrics: AccountKind;
  /** The grants a person must hold to come in (console: a platform role; portal: apps). */
  accepts(grants: Grant[]): boolean;
  /** The audit trail's name of a person signing in here (`studio:<name>` in the portal). */
  actor(name: string): string;
  /** Whether the trail's operator_id names the person (operators) or stays null (studio developers). */
  recordsId: boolean;
  events: { login: string; failed: string; locked: string; logout: string };
  /** The one answer to every refused sign-in (401). */
  refusal: ErrorReason;
}

/** A person let in: its row, its grants, and the session opened or presented. */
export interface Entry {
  person: PersonRow;
  grants: Grant[];
  sessionHash: string;
  csrfToken: string;
}

/**
 * The second factor of a sign-in: null when the TOTP code (good once: its time step must be newer than the last
 * accepted) or the recovery code (good once) is right, else what was wrong.
 */
async function checkSecondFactor(
  repo: PeopleRepository,
  row: PersonRow,
  totpSecret: string,
  input: SecondFactorInput,
  at: number,
  passkeyOf: PasskeyCheck | undefined,
): Promise<string | null> {
  if (input.passkey !== undefined) {
    if (!passkeyOf) return 'passkeys are not available here';
    try {
      const person = await passkeyOf(input.passkey);
      return person.person_id === row.person_id ? null : "another person's passkey";
    } catch (e) {
      if (e instanceof PasskeyRefused) return `passkey: ${e.message}`;
      throw e;
    }
  }
  if (input.totp !== undefined) {
    const step = totpStep(totpSecret, input.totp, at);
    if (step === null) return 'wrong TOTP code';
    return (await repo.claimTotpStep(row.person_id, step)) ? null : 'replayed TOTP code';
  }
  if (input.recoveryCode !== undefined) {
    const hash = sha256(normalizeRecoveryCode(input.recoveryCode));
    const left = JSON.parse(row.recovery_codes) as string[];
    if (!left.includes(hash)) return 'unknown or used recovery code';
    const after = JSON.stringify(left.filter((h) => h !== hash));
    return (await repo.swapRecoveryCodes(row.person_id, row.recovery_codes, after))
      ? null
      : 'unknown or used recovery code';
  }
  return 'no second factor';
}

/** The answer to a sign-in of a locked account: 429 with Retry-After. */
export function lockedOut(seconds: number): AppError {
  return new AppError('OPERATOR_LOCKED', `locked for ${seconds} s more`, {
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * Sign-in through one door (password + TOTP or recovery code, or a name an identity provider vouches for), slowed
 * and locked on failures, and the sessions it opens. Every refusal is the same answer (which part was wrong goes to
 * the audit trail only), answered late, and counted towards the lock.
 */
export class SignIn {
  constructor(
    private readonly door: Door,
    private readonly repo: PeopleRepository,
    private readonly box: SecretBox,
    private readonly people: PeopleService,
    private readonly settings: SignInSettings,
    private readonly metrics: SignInMetrics,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  private audit(
    event: string,
    name: string,
    ctx: AuditContext,
    note: string | null,
    row?: PersonRow | null,
    status = 200,
  ) {
    const id = this.door.recordsId ? (row?.person_id ?? null) : null;
    return this.people.audit(event, this.door.actor(name), ctx, note, id, status);
  }

  /**
   * The checks of a password sign-in, in one order: an unknown name costs a password check all the same; a locked
   * account is told so; then the password, the second factor (only once the password is right), a disabled
   * account, and grants this door does not accept, last.
   */
  async login(
    input: { name: string; password: string } & SecondFactorInput,
    ctx: AuditContext,
    passkeyOf?: PasskeyCheck,
  ): Promise<Entry & { session: string; expiresAt: number }> {
    const row = (await this.repo.byName(this.door.realm, input.name)) ?? null;
    const at = this.now();
    if (!row) {
      await burnPasswordCheck(input.password);
      return this.refuse(input.name, null, 'unknown name', ctx);
    }
    if (row.locked_until !== null && Number(row.locked_until) > at) {
      this.metrics.failed(this.door.metrics, 'locked');
      await this.audit(this.door.events.locked, input.name, ctx, 'locked', row, 429);
      throw lockedOut(Math.ceil((Number(row.locked_until) - at) / 1000));
    }
    if (!(await verifyPassword(row.password_hash, input.password)))
      return this.refuse(input.name, row, 'wrong password', ctx);
    const secret = this.box.open(row.totp_secret_enc, totpContext(row.realm, row.name));
    const problem = await checkSecondFactor(this.repo, row, secret, input, at, passkeyOf);
    if (problem) return this.refuse(input.name, row, problem, ctx);
    if (row.disabled === 1) return this.refuse(input.name, row, 'disabled', ctx);
    const via = input.recoveryCode ? 'with a recovery code' : input.passkey !== undefined ? 'with a passkey' : null;
    return this.open(row, at, ctx, via);
  }

  /**
   * Sign-in by a passkey alone (a discoverable credential with user verification: something held and something known
   * or been, in one): `check` verifies the answer and names the person; a locked or disabled person is refused, and a
   * refused answer is audited and answered like a wrong password.
   */
  async loginWithPasskey(
    response: unknown,
    check: PasskeyCheck,
    ctx: AuditContext,
  ): Promise<Entry & { session: string; expiresAt: number }> {
    let row: PersonRow;
    try {
      row = await check(response);
    } catch (e) {
      if (e instanceof PasskeyRefused) return this.refuse('(passkey)', null, `passkey: ${e.message}`, ctx);
      throw e;
    }
    const at = this.now();
    if (row.realm !== this.door.realm) return this.refuse('(passkey)', null, 'passkey of another realm', ctx);
    if (row.disabled === 1) return this.refuse(row.name, row, 'disabled (passkey)', ctx);
    if (row.locked_until !== null && Number(row.locked_until) > at)
      return this.refuse(row.name, row, 'locked (passkey)', ctx);
    return this.open(row, at, ctx, 'with a passkey');
  }

  /**
   * Sign-in by the company's identity provider (OpenID Connect, identity/oidc.ts): the provider checked who it is
   * (and its second factor); the person must exist by `name`, be enabled and not locked. A refusal is audited and
   * answered like a wrong password.
   */
  async loginVerified(
    name: string,
    via: string,
    ctx: AuditContext,
  ): Promise<Entry & { session: string; expiresAt: number }> {
    const row = await this.repo.byName(this.door.realm, name);
    const at = this.now();
    if (!row) return this.refuse(name, null, `unknown operator (${via})`, ctx);
    if (row.disabled === 1) return this.refuse(name, row, `disabled (${via})`, ctx);
    if (row.locked_until !== null && Number(row.locked_until) > at)
      return this.refuse(name, row, `locked (${via})`, ctx);
    return this.open(row, at, ctx, via);
  }

  /** An audited refusal of a sign-in that never named a person (e.g. a provider's answer that did not check). */
  async refuseUnnamed(why: string, ctx: AuditContext): Promise<never> {
    return this.refuse('(unknown)', null, why, ctx);
  }

  private async open(row: PersonRow, at: number, ctx: AuditContext, note: string | null) {
    const grants = await this.repo.grantsOf(row.person_id);
    if (!this.door.accepts(grants)) return this.refuse(row.name, row, 'disabled (no grant this door accepts)', ctx);
    await this.repo.update(row.person_id, { failed_logins: 0, locked_until: null, last_login_at: at });
    await this.repo.deleteExpiredSessions(at);
    const session = newSessionValue();
    const csrfToken = newSessionValue();
    const expiresAt = at + this.settings.sessionSeconds * 1000;
    await this.repo.insertSession({
      session_hash: sha256(session),
      person_id: row.person_id,
      csrf_token: csrfToken,
      ip: ctx.ip,
      created_at: at,
      expires_at: expiresAt,
    });
    await this.audit(this.door.events.login, row.name, ctx, note, row);
    const person = (await this.repo.byId(row.person_id))!;
    return { session, person, grants, sessionHash: sha256(session), csrfToken, expiresAt };
  }

  private async refuse(name: string, row: PersonRow | null, why: string, ctx: AuditContext): Promise<never> {
    const failures = row
      ? await this.repo.countFailure(
          row.person_id,
          this.settings.maxFailures,
          this.now() + this.settings.lockSeconds * 1000,
          this.now(),
        )
      : 1;
    this.metrics.failed(this.door.metrics, why);
    if (row && failures >= this.settings.maxFailures) this.metrics.locked(this.door.metrics);
    await this.audit(this.door.events.failed, name.slice(0, 100), ctx, why, row, 401);
    // Slows guessing: each failure in a row waits longer (the lock stops it).
    await this.sleep(Math.min(5000, this.settings.failureDelayMs * failures));
    throw new AppError(this.door.refusal);
  }

  /** The person of a session cookie, or null (unknown, expired, disabled, or no longer holding a grant accepted here). */
  async session(cookie: string): Promise<Entry | null> {
    const hash = sha256(cookie);
    const s = await this.repo.session(hash);
    if (!s) return null;
    if (Number(s.expires_at) <= this.now()) {
      await this.repo.deleteSession(hash);
      return null;
    }
    const person = await this.repo.byId(Number(s.person_id));
    if (!person || person.realm !== this.door.realm || person.disabled === 1) return null;
    const grants = await this.repo.grantsOf(person.person_id);
    if (!this.door.accepts(grants)) return null;
    return { person, grants, sessionHash: hash, csrfToken: s.csrf_token };
  }

  /** Ends the session `sessionHash` (none for a token or the break-glass token) and records the sign-out. */
  async logout(who: { name: string; personId: number | null; sessionHash?: string }, ctx: AuditContext) {
    if (who.sessionHash) await this.repo.deleteSession(who.sessionHash);
    await this.people.audit(
      this.door.events.logout,
      this.door.actor(who.name),
      ctx,
      null,
      this.door.recordsId ? who.personId : null,
    );
  }
}
