import { AppError, invalidParameter } from '../errors/app-error.js';
import { iso, isoOrNull } from '../identity/times.js';
import { API_TOKEN_PATTERN, newApiToken, sha256 } from '../identity/credentials.js';
import { isRole, mayGrant, type Role } from './permissions.js';
import type { PeopleRepository, TokenRow } from '../identity/people.repository.js';
import type { AuditContext, OperatorService, Principal } from './operators.service.js';

export interface TokenView {
  tokenId: number;
  operator: string;
  name: string;
  role: Role;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const MAX_DAYS = 366;

/**
 * Per-operator API tokens for scripts: a name, a role (at most the owner's: mayGrant), an expiry, the last use.
 * Stored as a SHA-256; the value is answered once, at creation. A token works only while its owner is enabled and
 * still may grant its role.
 */
export class OperatorTokenService {
  constructor(
    private readonly repo: PeopleRepository,
    private readonly operators: OperatorService,
    private readonly now: () => number = Date.now,
  ) {}

  /** The operator a token is of (a person of the platform realm: tokens are the admin API's only). */
  private async ownerOf(t: TokenRow) {
    const owner = await this.repo.byId(Number(t.person_id));
    return owner?.realm === 'platform' ? owner : undefined;
  }

  private view(t: TokenRow, owner: string): TokenView {
    return {
      tokenId: t.token_id,
      operator: owner,
      name: t.name,
      role: t.role as Role,
      createdAt: iso(Number(t.created_at)),
      expiresAt: isoOrNull(t.expires_at === null ? null : Number(t.expires_at)),
      lastUsedAt: isoOrNull(t.last_used_at === null ? null : Number(t.last_used_at)),
      revokedAt: isoOrNull(t.revoked_at === null ? null : Number(t.revoked_at)),
    };
  }

  /** A token for `ownerName` (an admin may make one for anyone; others for themselves). */
  async create(
    actor: Principal,
    input: { name: string; role?: string; expiresInDays?: number; operator?: string },
    ctx: AuditContext | null,
  ): Promise<{ token: string; info: TokenView }> {
    const ownerName = input.operator ?? actor.name;
    if (actor.operatorId === null && input.operator === undefined)
      throw invalidParameter('operator', 'the break-glass ADMIN_TOKEN has no account: name the operator');
    if (ownerName !== actor.name && actor.role !== 'admin')
      throw new AppError('OPERATOR_FORBIDDEN', "only an admin makes tokens for another operator's account");
    const owner = await this.operators.require(ownerName);
    const ownerRole = await this.operators.roleOf(owner);
    const role = input.role ?? ownerRole;
    if (!isRole(role)) throw invalidParameter('role', 'must be admin, operator, moderator or support');
    if (!mayGrant(ownerRole, role))
      throw invalidParameter('role', `a ${ownerRole} may hold a token of its own role or support`);
    const days = input.expiresInDays ?? 90;
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
      throw invalidParameter('expiresInDays', `1-${MAX_DAYS}`);
    const token = newApiToken();
    const at = this.now();
    const row = await this.repo.insertToken({
      person_id: owner.person_id,
      name: input.name,
      token_hash: sha256(token),
      role,
      created_at: at,
      expires_at: at + days * 86_400_000,
      last_used_at: null,
      revoked_at: null,
    });
    await this.operators.audit(
      'token-created',
      actor.name,
      ctx,
      `#${row.token_id} ${input.name} for ${ownerName} as ${role}`,
      actor.operatorId,
    );
    return { token, info: this.view(row, ownerName) };
  }

  async list(actor: Principal, ownerName?: string): Promise<TokenView[]> {
    const name = ownerName ?? actor.name;
    if (name !== actor.name && actor.role !== 'admin' && actor.role !== 'support')
      throw new AppError('OPERATOR_FORBIDDEN', "only an admin or support lists another operator's tokens");
    const owner = await this.operators.require(name);
    return (await this.repo.tokensOf(owner.person_id)).map((t) => this.view(t, name));
  }

  async revoke(actor: Principal, tokenId: number, ctx: AuditContext | null): Promise<TokenView> {
    const t = await this.repo.tokenById(tokenId);
    const owner = t ? await this.ownerOf(t) : undefined;
    if (!t || !owner || (owner.name !== actor.name && actor.role !== 'admin'))
      throw new AppError('NOT_FOUND', `no token ${tokenId} of yours`);
    if (await this.repo.revokeToken(tokenId, this.now()))
      await this.operators.audit('token-revoked', actor.name, ctx, `#${tokenId} ${t.name}`, actor.operatorId);
    return this.view((await this.repo.tokenById(tokenId))!, owner.name);
  }

  /**
   * The principal of a bearer token, or null when it is not an operator token at all. A known token that is
   * revoked, expired, or whose owner is disabled (or may no longer grant its role) is refused and audited.
   */
  async principal(token: string, ctx: AuditContext): Promise<Principal | null> {
    if (!API_TOKEN_PATTERN.test(token)) return null;
    const t = await this.repo.tokenByHash(sha256(token));
    if (!t) return null;
    const owner = await this.ownerOf(t);
    const ownerRole = owner ? await this.operators.roleOf(owner) : null;
    const at = this.now();
    const problem =
      t.revoked_at !== null
        ? 'revoked'
        : t.expires_at !== null && Number(t.expires_at) <= at
          ? 'expired'
          : !owner || owner.disabled === 1
            ? 'of a disabled operator'
            : !mayGrant(ownerRole!, t.role as Role)
              ? `above its owner's role (${ownerRole})`
              : null;
    if (problem) {
      await this.operators.audit(
        'token-refused',
        owner?.name ?? '?',
        ctx,
        `#${t.token_id} ${t.name}: ${problem}`,
        owner?.person_id ?? null,
        401,
      );
      throw new AppError('ADMIN_UNAUTHORIZED', `the operator token is ${problem}`, {
        headers: { 'www-authenticate': 'Bearer realm="admin"' },
      });
    }
    await this.repo.touchToken(t.token_id, at);
    return {
      kind: 'token',
      operatorId: owner!.person_id,
      name: owner!.name,
      role: t.role as Role,
      tokenId: t.token_id,
    };
  }
}
