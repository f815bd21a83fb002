import { AppError, invalidParameter } from '../errors/app-error.js';
import { iso, isoOrNull } from '../accounts/accounts.format.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import { checkPassword, hashPassword, newPassword, newSecondFactor, newTotpSecret } from './credentials.js';
import type { Grant, PeopleRepository, PersonRow, Realm } from './people.repository.js';
import type { InvitationIssued, InvitationService } from './invitations.service.js';

/** The request an audited event came with. */
export interface AuditContext {
  ip: string;
  requestId: string;
  method: string;
  route: string;
  path: string;
}

/** One entry of the audit trail (admin-audit), written by the caller's recorder. */
export interface OperatorEvent {
  event: string;
  operator: string;
  operatorId: number | null;
  note: string | null;
  status: number;
  ctx: AuditContext;
}

/** What a person needs once to enrol the second factor: never answered again. */
export interface SecondFactor {
  totpSecret: string;
  totpUri: string;
  recoveryCodes: string[];
}

/** What every account view shows of a person, whatever its grants. */
export interface PersonView {
  name: string;
  disabled: boolean;
  lockedUntil: string | null;
  lastLoginAt: string | null;
  recoveryCodesLeft: number;
  createdAt: string;
}

/**
 * The sealing context of a person's TOTP secret: the realm's own prefix (as 0016 and 0018 sealed them, so the
 * secrets moved by 0025 open unchanged) and the name.
 */
export const totpContext = (realm: unknown, name: unknown) =>
  `${realm === 'studio' ? 'studio' : 'operator'}-totp:${String(name)}`;

/** The sealing context of the TOTP secret an invitee is enrolling (on its invitation, until confirmed). */
export const pendingTotpContext = (invitationId: number) => `invitation-totp:${invitationId}`;

/** The identity columns sealed under the master key (master key rotation: master-key/reseal.ts). */
export const PEOPLE_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'people',
    id: 'person_id',
    column: 'totp_secret_enc',
    contextColumns: ['realm', 'name'],
    context: (row) => totpContext(row.realm, row.name),
  },
  {
    // A TOTP secret an invitee is enrolling, until it confirms it (invitations.service.ts).
    table: 'person_invitations',
    id: 'invitation_id',
    column: 'pending_totp_enc',
    contextColumns: ['invitation_id'],
    context: (row) => pendingTotpContext(Number(row.invitation_id)),
  },
];

const NAME = /^[a-z0-9][a-z0-9._-]{1,63}$/;

/** How one realm's accounts are named: in errors, and in the audit trail's events. */
export interface RealmTerms {
  realm: Realm;
  /** 'operator', 'studio developer': in NOT_FOUND and CONFLICT details. */
  noun: string;
  events: { created: string; disabled: string; enabled: string };
}

/**
 * The accounts of one realm (docs/operators.md "One identity model"): creation with a second factor, disabling,
 * second factor and password resets, and the audit events of them all. What a person may do (its grants) is the
 * caller's: operators/operators.service.ts (a platform role), portal/studio-developers.service.ts (apps). The CLI
 * comes through here too (ctx null: the host's shell, not audited).
 */
export class PeopleService {
  constructor(
    readonly repo: PeopleRepository,
    private readonly box: SecretBox,
    private readonly terms: RealmTerms,
    private readonly issuer: string,
    private readonly record: (e: OperatorEvent) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  get realm(): Realm {
    return this.terms.realm;
  }

  view(r: PersonRow): PersonView {
    const locked = r.locked_until !== null && Number(r.locked_until) > this.now() ? Number(r.locked_until) : null;
    return {
      name: r.name,
      disabled: r.disabled === 1,
      lockedUntil: isoOrNull(locked),
      lastLoginAt: isoOrNull(r.last_login_at === null ? null : Number(r.last_login_at)),
      recoveryCodesLeft: (JSON.parse(r.recovery_codes) as string[]).length,
      createdAt: iso(Number(r.created_at)),
    };
  }

  /** Whether the realm has any account yet (the console's first-run hint). */
  hasAny(): Promise<boolean> {
    return this.repo.any(this.terms.realm);
  }

  async require(name: string): Promise<PersonRow> {
    const row = await this.repo.byName(this.terms.realm, name);
    if (!row) throw new AppError('NOT_FOUND', `no ${this.terms.noun} ${name}`);
    return row;
  }

  list(): Promise<PersonRow[]> {
    return this.repo.list(this.terms.realm);
  }

  private secondFactor(name: string): { sealed: string; hashes: string; answer: SecondFactor } {
    const context = totpContext(this.terms.realm, name);
    return newSecondFactor((secret) => this.box.seal(secret, context), name, this.issuer);
  }

  /** Checks a new account's name and password (before its grants are checked: the order of the 400s). */
  checkNew(input: { name: string; password?: string }): string {
    if (!NAME.test(input.name))
      throw invalidParameter('name', '2-64 characters: lower-case letters, digits, dot, dash, underscore');
    const password = input.password ?? newPassword();
    checkPassword(password);
    return password;
  }

  /** A new person with `grants` and a second factor; the password and second factor are answered once. */
  async create(
    input: { name: string; password: string; grants: Grant[] },
    actor: string,
    ctx: AuditContext | null,
    note: string,
  ): Promise<{ row: PersonRow; password: string; secondFactor: SecondFactor }> {
    if (await this.repo.byName(this.terms.realm, input.name))
      throw new AppError('CONFLICT', `${this.terms.noun} ${input.name} already exists`);
    const factor = this.secondFactor(input.name);
    const at = this.now();
    const row = await this.repo.insert(
      {
        realm: this.terms.realm,
        name: input.name,
        password_hash: await hashPassword(input.password),
        totp_secret_enc: factor.sealed,
        recovery_codes: factor.hashes,
        locked_until: null,
        last_login_at: null,
        created_at: at,
        updated_at: at,
      },
      input.grants,
    );
    await this.audit(this.terms.events.created, actor, ctx, note);
    return { row, password: input.password, secondFactor: factor.answer };
  }

  /**
   * A new person with `grants` whose password and second factor nobody knows: its invitation (invitations.service.ts)
   * is how the person sets them. Until then no sign-in can succeed (an unknown password, a TOTP secret nobody holds,
   * no recovery codes, no passkey).
   */
  async createPending(
    input: { name: string; grants: Grant[] },
    actor: string,
    ctx: AuditContext | null,
    note: string,
  ): Promise<PersonRow> {
    if (await this.repo.byName(this.terms.realm, input.name))
      throw new AppError('CONFLICT', `${this.terms.noun} ${input.name} already exists`);
    const at = this.now();
    const row = await this.repo.insert(
      {
        realm: this.terms.realm,
        name: input.name,
        password_hash: await hashPassword(newPassword()),
        totp_secret_enc: this.box.seal(newTotpSecret(), totpContext(this.terms.realm, input.name)),
        recovery_codes: '[]',
        locked_until: null,
        last_login_at: null,
        created_at: at,
        updated_at: at,
      },
      input.grants,
    );
    await this.audit(this.terms.events.created, actor, ctx, `${note} (invited)`);
    return row;
  }

  /** Disables or enables; a disabled person's sessions end at once (its tokens stop working with it). */
  async setDisabled(row: PersonRow, disabled: boolean, actor: string, ctx: AuditContext | null): Promise<void> {
    if (disabled === (row.disabled === 1)) return;
    await this.repo.update(row.person_id, { disabled: disabled ? 1 : 0, updated_at: this.now() });
    if (disabled) await this.repo.deleteSessionsOf(row.person_id);
    await this.audit(disabled ? this.terms.events.disabled : this.terms.events.enabled, actor, ctx, row.name);
  }

  async audit(
    event: string,
    actor: string,
    ctx: AuditContext | null,
    note: string | null,
    personId: number | null = null,
    status = 200,
  ): Promise<void> {
    if (ctx) await this.record({ event, operator: actor, operatorId: personId, note, status, ctx });
  }
}

/**
 * What the account services of both realms share (operators/operators.service.ts, portal/studio-developers.service.ts):
 * the lookups and resets by name; each adds its grants and its view.
 */
export abstract class Accounts<V> {
  constructor(
    readonly people: PeopleService,
    readonly invitations: InvitationService,
  ) {}

  abstract view(row: PersonRow): Promise<V>;

  require(name: string): Promise<PersonRow> {
    return this.people.require(name);
  }

  async list(): Promise<V[]> {
    return Promise.all((await this.people.list()).map((r) => this.view(r)));
  }

  async get(name: string): Promise<V> {
    return this.view(await this.require(name));
  }

  /**
   * A reset link for account `name` (a lost phone, a forgotten password): the person sets a new password and second
   * factor with it. Until then the old ones keep working; disable the account too if they may be in other hands.
   */
  async reset(
    name: string,
    email: string | null,
    actor: string,
    ctx: AuditContext | null,
    origin: string,
  ): Promise<InvitationIssued> {
    return this.invitations.issue(await this.require(name), 'reset', email, actor, ctx, origin);
  }

  /**
   * A new account of `grants`: the first of the realm's (the first admin, made at the host or with the break-glass
   * token) is answered its password and second factor as before (nobody else is there to invite); any other is
   * created pending and answered its invitation.
   */
  protected async createAccount(
    input: { name: string; password?: string; email?: string },
    grants: Grant[],
    actor: string,
    ctx: AuditContext | null,
    note: string,
    origin: string,
  ) {
    const password = this.people.checkNew(input);
    if (this.people.realm === 'platform' && (await this.people.list()).length === 0) {
      const made = await this.people.create({ name: input.name, password, grants }, actor, ctx, note);
      return { row: made.row, password, secondFactor: made.secondFactor };
    }
    if (input.password !== undefined) throw invalidParameter('password', 'the invitee sets its own password');
    const row = await this.people.createPending({ name: input.name, grants }, actor, ctx, note);
    return { row, ...(await this.invitations.issue(row, 'invite', input.email ?? null, actor, ctx, origin)) };
  }

  /** An entry of the audit trail (not written for the host's shell, ctx null). */
  readonly audit: PeopleService['audit'] = (...entry) => this.people.audit(...entry);
}
