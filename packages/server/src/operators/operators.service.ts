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
} from './credentials.js';
import { isRole, type Role } from './permissions.js';
import type { OperatorRow, OperatorsRepository } from './operators.repository.js';

/** Who is calling the admin API, as established by operators/access.ts. */
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

export interface OperatorView {
  name: string;
  role: Role;
  disabled: boolean;
  lockedUntil: string | null;
  lastLoginAt: string | null;
  recoveryCodesLeft: number;
  createdAt: string;
}

/** What an operator needs once to enrol the second factor: never answered again. */
export interface SecondFactor {
  totpSecret: string;
  totpUri: string;
  recoveryCodes: string[];
}

export interface OperatorSettings {
  /** The issuer shown in authenticator apps. */
  issuer: string;
}

export const totpContext = (name: unknown) => `operator-totp:${String(name)}`;
const NAME = /^[a-z0-9][a-z0-9._-]{1,63}$/;

/** The operator column sealed under the master key (master key rotation: master-key/reseal.ts). */
export const OPERATOR_SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'operators',
    id: 'operator_id',
    column: 'totp_secret_enc',
    contextColumns: ['name'],
    context: (row) => totpContext(row.name),
  },
];

/**
 * Operator accounts: creation, roles, disabling, the second factor and password resets, and the audit events of
 * them all. Sign-in and sessions are in sign-in.service.ts, API tokens in operator-tokens.service.ts. The CLI comes through here too (actor null: the host's shell).
 */
export class OperatorService {
  constructor(
    readonly repo: OperatorsRepository,
    private readonly box: SecretBox,
    private readonly settings: OperatorSettings,
    private readonly record: (e: OperatorEvent) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  view(r: OperatorRow): OperatorView {
    const lockedUntil = r.locked_until !== null && Number(r.locked_until) > this.now() ? r.locked_until : null;
    return {
      name: r.name,
      role: r.role as Role,
      disabled: r.disabled === 1,
      lockedUntil: isoOrNull(lockedUntil === null ? null : Number(lockedUntil)),
      lastLoginAt: isoOrNull(r.last_login_at === null ? null : Number(r.last_login_at)),
      recoveryCodesLeft: (JSON.parse(r.recovery_codes) as string[]).length,
      createdAt: iso(Number(r.created_at)),
    };
  }

  async require(name: string): Promise<OperatorRow> {
    const row = await this.repo.byName(name);
    if (!row) throw new AppError('NOT_FOUND', `no operator ${name}`);
    return row;
  }

  private secondFactor(name: string): { sealed: string; hashes: string; answer: SecondFactor } {
    return newSecondFactor((secret) => this.box.seal(secret, totpContext(name)), name, this.settings.issuer);
  }

  /** A new operator with its second factor; the password and second factor are answered once. */
  async create(
    input: { name: string; role: string; password?: string },
    actor: string,
    ctx: AuditContext | null,
  ): Promise<{ operator: OperatorView; password: string; secondFactor: SecondFactor }> {
    if (!NAME.test(input.name))
      throw invalidParameter('name', '2-64 characters: lower-case letters, digits, dot, dash, underscore');
    if (!isRole(input.role)) throw invalidParameter('role', 'must be admin, operator, moderator or support');
    const password = input.password ?? newPassword();
    checkPassword(password);
    if (await this.repo.byName(input.name)) throw new AppError('CONFLICT', `operator ${input.name} already exists`);
    const factor = this.secondFactor(input.name);
    const at = this.now();
    const row = await this.repo.insert({
      name: input.name,
      password_hash: await hashPassword(password),
      role: input.role,
      totp_secret_enc: factor.sealed,
      recovery_codes: factor.hashes,
      locked_until: null,
      last_login_at: null,
      created_at: at,
      updated_at: at,
    });
    await this.audit('operator-created', actor, ctx, `${input.name} as ${input.role}`);
    return { operator: this.view(row), password, secondFactor: factor.answer };
  }

  async list(): Promise<OperatorView[]> {
    return (await this.repo.list()).map((r) => this.view(r));
  }

  async get(name: string): Promise<OperatorView> {
    return this.view(await this.require(name));
  }

  /** Role and disabled flag. A disabled operator's sessions end at once; its tokens stop working with it. */
  async update(
    name: string,
    patch: { role?: string; disabled?: boolean },
    actor: string,
    ctx: AuditContext | null,
  ): Promise<OperatorView> {
    const row = await this.require(name);
    if (patch.role !== undefined && !isRole(patch.role))
      throw invalidParameter('role', 'must be admin, operator, moderator or support');
    const at = this.now();
    await this.repo.update(row.operator_id, {
      ...(patch.role !== undefined ? { role: patch.role } : {}),
      ...(patch.disabled !== undefined ? { disabled: patch.disabled ? 1 : 0 } : {}),
      updated_at: at,
    });
    if (patch.role !== undefined && patch.role !== row.role)
      await this.audit('role-changed', actor, ctx, `${name}: ${row.role} -> ${patch.role}`);
    if (patch.disabled !== undefined && patch.disabled !== (row.disabled === 1)) {
      if (patch.disabled) await this.repo.deleteSessionsOf(row.operator_id);
      await this.audit(patch.disabled ? 'operator-disabled' : 'operator-enabled', actor, ctx, name);
    }
    return this.get(name);
  }

  /** A new TOTP secret and recovery codes (a lost phone); the old ones stop working. */
  async resetSecondFactor(name: string, actor: string, ctx: AuditContext | null): Promise<SecondFactor> {
    const row = await this.require(name);
    const factor = this.secondFactor(name);
    await replaceSecondFactor(this.repo, row.operator_id, factor, this.now());
    await this.audit('totp-reset', actor, ctx, name);
    return factor.answer;
  }

  /** A new password (given, or generated and answered once); lifts a lock and ends the sessions. */
  async resetPassword(name: string, password: string | undefined, actor: string, ctx: AuditContext | null) {
    const row = await this.require(name);
    const chosen = await replacePassword(this.repo, row.operator_id, password, this.now());
    await this.audit('password-reset', actor, ctx, name);
    return { password: chosen };
  }

  async audit(
    event: string,
    operator: string,
    ctx: AuditContext | null,
    note: string | null,
    operatorId: number | null = null,
    status = 200,
  ): Promise<void> {
    if (ctx) await this.record({ event, operator, operatorId, note, status, ctx });
  }
}
