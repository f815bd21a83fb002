import { invalidParameter } from '../errors/app-error.js';
import type { Grant, PersonRow } from './people.repository.js';
import type { AuditContext, PeopleService } from './people.service.js';
import type { InvitationIssued, InvitationService } from './invitations.service.js';

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
