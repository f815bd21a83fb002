import { AppError, invalidParameter } from '../errors/app-error.js';
import type { UserDetail, UserFindQuery, UserSummary } from './accounts.schemas.js';
import { toBan } from './accounts.format.js';
import { iso, isoOrNull } from '../identity/times.js';
import { GUEST, isLoginType, LOGIN_TYPE_CODES, providerName } from './login-types.js';
import type { LoginMethodRow } from './login-methods.repository.js';
import type { TokenService } from './tokens.service.js';
import type { UserRow, UsersRepository } from './users.repository.js';
import type { AccountRepositories } from './account-repositories.js';
import { decodeUserCode, encodeUserCode } from './user-code.js';

/** The operator's view of accounts (admin API and CLI): find, show, revoke. */
export class UserAdminService {
  constructor(
    private readonly repos: AccountRepositories,
    private readonly tokens: TokenService,
    private readonly now: () => number,
    /** Where `find` reads (the read replica, Database.reads): a search may be a moment stale; `detail` reads the primary. */
    private readonly reads: AccountRepositories = repos,
  ) {}

  /** Users by exactly one of: userId, userCode, openId (optionally of one login type), email. */
  async find(q: UserFindQuery): Promise<UserSummary[]> {
    const given = (['userId', 'userCode', 'openId', 'email'] as const).filter((k) => q[k] !== undefined);
    if (given.length !== 1) throw invalidParameter('query', 'give exactly one of userId, userCode, openId, email');
    if (q.loginType !== undefined && q.openId === undefined)
      throw invalidParameter('loginType', 'only goes with openId');
    const { users, methods } = this.reads;
    let ids: number[] = [];
    if (q.userId !== undefined) ids = [Number(q.userId)];
    else if (q.userCode !== undefined) {
      const id = decodeUserCode(q.userCode);
      if (id === null)
        throw invalidParameter('userCode', 'is not a well-formed user code (check symbol does not match)');
      ids = [id];
    } else if (q.openId !== undefined) {
      const types = q.loginType !== undefined ? [Number(q.loginType)] : LOGIN_TYPE_CODES;
      if (q.loginType !== undefined && !isLoginType(types[0]!))
        throw invalidParameter('loginType', 'is not a login type code of 2.2');
      for (const t of types) {
        const m = await methods.byOpenId(t, q.openId);
        if (m) ids.push(m.user_id);
      }
    } else {
      ids = (await methods.byEmail(q.email!.trim().toLowerCase())).map((m) => m.user_id);
    }
    const rows = await users.byIds([...new Set(ids)]);
    return Promise.all(rows.map(async (u) => this.summary(u, await methods.byUser(u.user_id), users)));
  }

  async detail(userId: number): Promise<UserDetail> {
    const { users } = this.repos;
    const user = await users.byId(userId);
    if (!user) throw new AppError('NOT_FOUND', `user ${userId} does not exist`);
    const methods = await this.repos.methods.byUser(userId);
    const now = this.now();
    const [tokens, apps, bans] = await Promise.all([
      this.repos.tokens.byUser(userId),
      users.appsOf(userId),
      users.bansOf(userId),
    ]);
    return {
      ...(await this.summary(user, methods, users)),
      methods: methods.map((m) => ({
        loginType: m.login_type,
        provider: providerName(m.login_type),
        openId: m.open_id,
        unionId: m.union_id,
        nickname: m.nickname,
        avatar: m.avatar,
        email: m.email,
        emailVerified: m.email_verified === 1,
        createdAt: iso(m.created_at),
        lastLoginAt: iso(m.last_login_at),
      })),
      sessions: tokens.map((t) => ({
        tokenId: t.token_id,
        appId: t.app_id,
        loginType: t.login_type,
        openId: t.open_id,
        issuedIp: t.issued_ip,
        userRegion: t.user_region,
        createdAt: iso(t.created_at),
        expiresAt: iso(t.expires_at),
        revokedAt: isoOrNull(t.revoked_at),
        revokeReason: t.revoke_reason,
        live: t.revoked_at === null && t.expires_at > now,
      })),
      apps: apps.map((a) => ({
        appId: a.app_id,
        firstLoginAt: iso(a.first_login_at),
        lastLoginAt: iso(a.last_login_at),
      })),
      bans: bans.map(toBan),
    };
  }

  /** Revokes every live token of the user (reason `admin`); answers how many. */
  async revokeTokens(userId: number): Promise<number> {
    if (!(await this.repos.users.byId(userId))) throw new AppError('NOT_FOUND', `user ${userId} does not exist`);
    const n = await this.repos.tokens.revokeUser(userId, 'admin', this.now());
    this.tokens.evictUser(userId);
    return n;
  }

  private async summary(u: UserRow, methods: LoginMethodRow[], users: UsersRepository): Promise<UserSummary> {
    const now = this.now();
    const types = [...new Set(methods.map((m) => m.login_type))].sort((a, b) => a - b);
    const bans = await users.activeBans(u.user_id, now);
    return {
      userId: String(u.user_id),
      userCode: encodeUserCode(u.user_id),
      username: u.username,
      status: u.status as UserSummary['status'],
      registTime: iso(u.regist_time),
      registIp: u.regist_ip,
      source: u.source,
      isGuest: types.length > 0 && types.every((t) => t === GUEST),
      loginList: types,
      banned: bans.length > 0,
      cancelDueAt: isoOrNull(u.cancel_due_at),
      cancelledAt: isoOrNull(u.cancelled_at),
    };
  }
}
