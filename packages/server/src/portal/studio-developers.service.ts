import { AppError, invalidParameter } from '../errors/app-error.js';
import { iso, isoOrNull } from '../accounts/accounts.format.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import {
  checkPassword,
  hashPassword,
  newPassword,
  newSecondFactor,
  replacePassword,
  replaceSecondFactor,
} from '../operators/credentials.js';
import { type AuditContext, type OperatorEvent, type SecondFactor } from '../operators/operators.service.js';
import type { DeveloperRow, PortalRepository } from './portal.repository.js';

/**
 * Studio developer accounts (docs/portal.md): made by an operator (admin API or CLI) with the same password and
 * TOTP second factor as an operator account (operators/credentials.ts), scoped to a list of apps. A developer is
 * never an operator: its sessions open the portal API only (portal-access.routes.ts).
 */

export interface DeveloperView {
  name: string;
  appIds: number[];
  disabled: boolean;
  lockedUntil: string | null;
  lastLoginAt: string | null;
  recoveryCodesLeft: number;
  createdAt: string;
}

export const studioTotpContext = (name: unknown) => `studio-totp:${String(name)}`;

/** The developer column sealed under the master key (master key rotation: master-key/reseal.ts). */
export const STUDIO_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'studio_developers',
    id: 'developer_id',
    column: 'totp_secret_enc',
    contextColumns: ['name'],
    context: (row) => studioTotpContext(row.name),
  },
];
/** How a developer is named in the audit trail: never mistakable for an operator account. */
export const studioActor = (name: string) => `studio:${name}`;
const NAME = /^[a-z0-9][a-z0-9._-]{1,63}$/;

export class StudioDeveloperService {
  constructor(
    readonly repo: PortalRepository,
    private readonly box: SecretBox,
    private readonly settings: { issuer: string },
    /** Throws NOT_FOUND for an app that does not exist. */
    private readonly requireApp: (appId: number) => Promise<unknown>,
    private readonly record: (e: OperatorEvent) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  async view(r: DeveloperRow): Promise<DeveloperView> {
    const locked = r.locked_until !== null && Number(r.locked_until) > this.now() ? Number(r.locked_until) : null;
    return {
      name: r.name,
      appIds: await this.repo.appsOf(r.developer_id),
      disabled: r.disabled === 1,
      lockedUntil: isoOrNull(locked),
      lastLoginAt: isoOrNull(r.last_login_at === null ? null : Number(r.last_login_at)),
      recoveryCodesLeft: (JSON.parse(r.recovery_codes) as string[]).length,
      createdAt: iso(Number(r.created_at)),
    };
  }

  async require(name: string): Promise<DeveloperRow> {
    const row = await this.repo.byName(name);
    if (!row) throw new AppError('NOT_FOUND', `no studio developer ${name}`);
    return row;
  }

  private async checkApps(appIds: number[]): Promise<number[]> {
    const unique = [...new Set(appIds)].sort((a, b) => a - b);
    for (const id of unique) await this.requireApp(id);
    return unique;
  }

  private secondFactor(name: string): { sealed: string; hashes: string; answer: SecondFactor } {
    return newSecondFactor((secret) => this.box.seal(secret, studioTotpContext(name)), name, this.settings.issuer);
  }

  /** The invitation: a new developer for `appIds`; its password and second factor are answered once. */
  async create(
    input: { name: string; appIds: number[]; password?: string },
    actor: string,
    ctx: AuditContext | null,
  ): Promise<{ developer: DeveloperView; password: string; secondFactor: SecondFactor }> {
    if (!NAME.test(input.name))
      throw invalidParameter('name', '2-64 characters: lower-case letters, digits, dot, dash, underscore');
    const password = input.password ?? newPassword();
    checkPassword(password);
    const appIds = await this.checkApps(input.appIds);
    if (await this.repo.byName(input.name))
      throw new AppError('CONFLICT', `studio developer ${input.name} already exists`);
    const factor = this.secondFactor(input.name);
    const at = this.now();
    const row = await this.repo.insert({
      name: input.name,
      password_hash: await hashPassword(password),
      totp_secret_enc: factor.sealed,
      recovery_codes: factor.hashes,
      locked_until: null,
      last_login_at: null,
      created_at: at,
      updated_at: at,
    });
    await this.repo.setApps(row.developer_id, appIds);
    await this.audit('studio-developer-created', actor, ctx, `${input.name} for apps ${appIds.join(',')}`);
    return { developer: await this.view(row), password, secondFactor: factor.answer };
  }

  async list(): Promise<DeveloperView[]> {
    return Promise.all((await this.repo.list()).map((r) => this.view(r)));
  }

  async get(name: string): Promise<DeveloperView> {
    return this.view(await this.require(name));
  }

  /** Its apps and disabled flag. Disabling, or taking apps away, ends its sessions at once. */
  async update(
    name: string,
    patch: { appIds?: number[]; disabled?: boolean },
    actor: string,
    ctx: AuditContext | null,
  ): Promise<DeveloperView> {
    const row = await this.require(name);
    if (patch.appIds !== undefined) {
      const before = await this.repo.appsOf(row.developer_id);
      const after = await this.checkApps(patch.appIds);
      await this.repo.setApps(row.developer_id, after);
      if (before.some((id) => !after.includes(id))) await this.repo.deleteSessionsOf(row.developer_id);
      await this.audit('studio-developer-apps', actor, ctx, `${name}: ${before.join(',')} -> ${after.join(',')}`);
    }
    if (patch.disabled !== undefined && patch.disabled !== (row.disabled === 1)) {
      await this.repo.update(row.developer_id, { disabled: patch.disabled ? 1 : 0, updated_at: this.now() });
      if (patch.disabled) await this.repo.deleteSessionsOf(row.developer_id);
      await this.audit(patch.disabled ? 'studio-developer-disabled' : 'studio-developer-enabled', actor, ctx, name);
    }
    return this.get(name);
  }

  /** A new TOTP secret and recovery codes (a lost phone); the old ones and the sessions end. */
  async resetSecondFactor(name: string, actor: string, ctx: AuditContext | null): Promise<SecondFactor> {
    const row = await this.require(name);
    const factor = this.secondFactor(name);
    await replaceSecondFactor(this.repo, row.developer_id, factor, this.now());
    await this.audit('studio-totp-reset', actor, ctx, name);
    return factor.answer;
  }

  /** A new password (given, or generated and answered once); lifts a lock and ends the sessions. */
  async resetPassword(name: string, password: string | undefined, actor: string, ctx: AuditContext | null) {
    const row = await this.require(name);
    const chosen = await replacePassword(this.repo, row.developer_id, password, this.now());
    await this.audit('studio-password-reset', actor, ctx, name);
    return { password: chosen };
  }

  async audit(
    event: string,
    operator: string,
    ctx: AuditContext | null,
    note: string | null,
    status = 200,
  ): Promise<void> {
    if (ctx) await this.record({ event, operator, operatorId: null, note, status, ctx });
  }
}
