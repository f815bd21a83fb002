import type { Grant, PersonRow } from '../identity/people.repository.js';
import type { AuditContext, PeopleService, PersonView } from '../identity/people.service.js';
import { Accounts } from '../identity/realm-accounts.js';
import type { InvitationService } from '../identity/invitations.service.js';
import { invalidParameter } from '../errors/app-error.js';
import { STUDIO_REFUND_ROLE, STUDIO_ROLE } from '../operators/permissions.js';

/**
 * Studio developer accounts (docs/portal.md): people of the studio realm (identity/), made by an operator (admin
 * API or CLI; the developer completes its invitation) with the same second factors as an operator, whose grants are apps with the studio
 * role. A developer is never an operator: its sessions open the portal API only (portal-access.routes.ts).
 */

export interface DeveloperView extends PersonView {
  appIds: number[];
  /** The apps whose web orders it may refund in the portal (a subset of appIds). */
  refundAppIds: number[];
}

/** How a developer is named in the audit trail: never mistakable for an operator account. */
export const studioActor = (name: string) => `studio:${name}`;

/** The apps of a studio developer's grants. */
export const appsOf = (grants: Grant[]): number[] =>
  grants.filter((g) => g.appId !== null && g.role === STUDIO_ROLE).map((g) => g.appId!);

/** The apps of a developer's grants where it may also refund web orders (docs/portal.md "Refunds"). */
export const refundAppsOf = (grants: Grant[]): number[] => {
  const apps = appsOf(grants);
  return grants.filter((g) => g.role === STUDIO_REFUND_ROLE && apps.includes(g.appId!)).map((g) => g.appId!);
};

const grantsFor = (appIds: number[], refundAppIds: number[] = []): Grant[] => [
  ...appIds.map((appId) => ({ appId, role: STUDIO_ROLE })),
  ...refundAppIds.filter((id) => appIds.includes(id)).map((appId) => ({ appId, role: STUDIO_REFUND_ROLE })),
];

/** refundAppIds must be apps the developer sees. */
function checkRefundApps(appIds: number[], refundAppIds: number[]): number[] {
  const unique = [...new Set(refundAppIds)].sort((a, b) => a - b);
  if (unique.some((id) => !appIds.includes(id))) throw invalidParameter('refundAppIds', 'must be among appIds');
  return unique;
}

export class StudioDeveloperService extends Accounts<DeveloperView> {
  constructor(
    people: PeopleService,
    invitations: InvitationService,
    /** Throws NOT_FOUND for an app that does not exist. */
    private readonly requireApp: (appId: number) => Promise<unknown>,
  ) {
    super(people, invitations);
  }

  async appIdsOf(row: PersonRow): Promise<number[]> {
    return appsOf(await this.people.repo.grantsOf(row.person_id));
  }

  async view(row: PersonRow): Promise<DeveloperView> {
    const { name, ...rest } = this.people.view(row);
    const grants = await this.people.repo.grantsOf(row.person_id);
    return { name, appIds: appsOf(grants), refundAppIds: refundAppsOf(grants), ...rest };
  }

  private async checkApps(appIds: number[]): Promise<number[]> {
    const unique = [...new Set(appIds)].sort((a, b) => a - b);
    for (const id of unique) await this.requireApp(id);
    return unique;
  }

  /** The invitation: a new developer for `appIds`, who sets its own password and second factor with the link. */
  async create(
    input: { name: string; appIds: number[]; refundAppIds?: number[]; password?: string; email?: string },
    actor: string,
    ctx: AuditContext | null,
    origin: string,
  ) {
    this.people.checkNew(input);
    const appIds = await this.checkApps(input.appIds);
    const refundAppIds = checkRefundApps(appIds, input.refundAppIds ?? []);
    const { row, ...made } = await this.createAccount(
      input,
      grantsFor(appIds, refundAppIds),
      actor,
      ctx,
      `${input.name} for apps ${appIds.join(',')}`,
      origin,
    );
    return { developer: await this.view(row), ...made };
  }

  /** Its apps and disabled flag. Disabling, or taking apps away, ends its sessions at once. */
  async update(
    name: string,
    patch: { appIds?: number[]; refundAppIds?: number[]; disabled?: boolean },
    actor: string,
    ctx: AuditContext | null,
  ): Promise<DeveloperView> {
    const row = await this.people.require(name);
    if (patch.appIds !== undefined || patch.refundAppIds !== undefined) {
      const grants = await this.people.repo.grantsOf(row.person_id);
      const before = appsOf(grants);
      const after = patch.appIds !== undefined ? await this.checkApps(patch.appIds) : before;
      const refundsBefore = refundAppsOf(grants);
      const refunds =
        patch.refundAppIds !== undefined
          ? checkRefundApps(after, patch.refundAppIds)
          : refundsBefore.filter((id) => after.includes(id));
      await this.people.repo.setGrants(row.person_id, grantsFor(after, refunds));
      // Taking an app or its refunds away ends the developer's sessions at once (their principal holds both).
      if (before.some((id) => !after.includes(id)) || refundsBefore.some((id) => !refunds.includes(id)))
        await this.people.repo.deleteSessionsOf(row.person_id);
      if (patch.appIds !== undefined)
        await this.people.audit(
          'studio-developer-apps',
          actor,
          ctx,
          `${name}: ${before.join(',')} -> ${after.join(',')}`,
        );
      if (refunds.join(',') !== refundsBefore.join(','))
        await this.people.audit(
          'studio-developer-refunds',
          actor,
          ctx,
          `${name}: refunds ${refundsBefore.join(',')} -> ${refunds.join(',')}`,
        );
    }
    if (patch.disabled !== undefined) await this.people.setDisabled(row, patch.disabled, actor, ctx);
    return this.get(name);
  }
}
