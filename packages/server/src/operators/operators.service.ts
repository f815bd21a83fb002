import { invalidParameter } from '../errors/app-error.js';
import type { Grant, PersonRow } from '../identity/people.repository.js';
import type { AuditContext, PersonView } from '../identity/people.service.js';
import { Accounts } from '../identity/realm-accounts.js';
import { isRole, type Role } from './permissions.js';

export type { AuditContext, OperatorEvent, SecondFactor } from '../identity/people.service.js';

/** Who is calling the admin API, as established by operators/admin-access.routes.ts. */
export interface Principal {
  kind: 'session' | 'token' | 'break-glass';
  /** null for the break-glass ADMIN_TOKEN. */
  operatorId: number | null;
  /** The operator's name; `ADMIN_TOKEN` for the break-glass token. */
  name: string;
  role: Role;
  tokenId?: number;
  sessionHash?: string;
  csrfToken?: string;
}

export interface OperatorView extends PersonView {
  role: Role;
}

/** An operator is a person of the platform realm holding one platform role (a grant without an app). */
export const platformRole = (grants: Grant[]): Role | null =>
  (grants.find((g) => g.appId === null && isRole(g.role))?.role as Role | undefined) ?? null;

const ROLE_PROBLEM = 'must be admin, operator, moderator or support';

/**
 * Operator accounts (docs/operators.md): people of the platform realm (identity/) whose grant is a platform role.
 * Creation, roles and disabling here; the second factor and password resets, sign-in and sessions are identity's;
 * API tokens are in operator-tokens.service.ts. The CLI comes through here too (ctx null: the host's shell).
 */
export class OperatorService extends Accounts<OperatorView> {
  async roleOf(row: PersonRow): Promise<Role> {
    return platformRole(await this.people.repo.grantsOf(row.person_id)) ?? 'support';
  }

  async view(row: PersonRow): Promise<OperatorView> {
    const { name, ...rest } = this.people.view(row);
    return { name, role: await this.roleOf(row), ...rest };
  }

  /**
   * A new operator: invited (a link with which it sets its own password and second factor), except the very first,
   * whose password and second factor are answered once (identity/realm-accounts.ts Accounts.createAccount).
   */
  async create(
    input: { name: string; role: string; password?: string; email?: string },
    actor: string,
    ctx: AuditContext | null,
    origin: string,
  ) {
    this.people.checkNew(input);
    if (!isRole(input.role)) throw invalidParameter('role', ROLE_PROBLEM);
    const { row, ...made } = await this.createAccount(
      input,
      [{ appId: null, role: input.role }],
      actor,
      ctx,
      `${input.name} as ${input.role}`,
      origin,
    );
    return { operator: await this.view(row), ...made };
  }

  /** Role and disabled flag. A disabled operator's sessions end at once; its tokens stop working with it. */
  async update(
    name: string,
    patch: { role?: string; disabled?: boolean },
    actor: string,
    ctx: AuditContext | null,
  ): Promise<OperatorView> {
    const row = await this.require(name);
    if (patch.role !== undefined && !isRole(patch.role)) throw invalidParameter('role', ROLE_PROBLEM);
    if (patch.role !== undefined) {
      const before = await this.roleOf(row);
      if (patch.role !== before) {
        await this.people.repo.setGrants(row.person_id, [{ appId: null, role: patch.role }]);
        await this.people.audit('role-changed', actor, ctx, `${name}: ${before} -> ${patch.role}`);
      }
    }
    if (patch.disabled !== undefined) await this.people.setDisabled(row, patch.disabled, actor, ctx);
    return this.get(name);
  }
}
