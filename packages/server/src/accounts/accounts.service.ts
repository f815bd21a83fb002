import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppRecord, AppService } from '../apps/apps.service.js';
import type { Config } from '../config/config.js';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { IpAllowList } from '../config/ip-ranges.js';
import type { Profile } from './accounts.schemas.js';
import { countryOrDefault } from './country.js';
import { autoBindTarget, refuseUnverifiedStoreEmail } from './email-binding.js';
import { GUEST, providerName, SVC_ID_LOGIN_TYPES, type SvcIdLoginType } from './login-types.js';
import { LoginMethodsRepository } from './login-methods.repository.js';
import {
  verifyCredential,
  type LoginProvider,
  type ProviderIdentity,
  type SandboxProvider,
} from './providers/index.js';
import { TokensRepository } from './tokens.repository.js';
import type { TokenService, TokenSession } from './tokens.service.js';
import { encodeUserCode } from './user-code.js';
import { UsersRepository } from './users.repository.js';
import { iso, isoWithOffset } from './accounts.format.js';
import type { CancellationService } from './cancellation.service.js';
import type { UserAdminService } from './user-admin.service.js';
import type { LinkingService } from './linking.service.js';
import type { BanService } from './bans.service.js';

/** Who a MAC-authenticated player request comes from (5.2). */
export interface PlayerAuth {
  appId: number;
  clientId: string;
  userId: string;
  tokenId: number;
  loginType: number;
}

/** The PlayerAuth of a MAC caller (its app and token). */
export function playerAuth({ app, token: session }: { app: AppRecord; token: TokenSession }): PlayerAuth {
  return {
    appId: app.appId,
    clientId: app.clientId,
    userId: String(session.userId),
    tokenId: session.tokenId,
    loginType: session.loginType,
  };
}

/** Where a client login comes from. */
export interface LoginContext {
  ip: string;
  /** The edge's country header, when the peer is a trusted proxy (see edgeCountry). */
  country: string | undefined;
}

export interface LoginResult {
  kid: string;
  macKey: string;
  macAlgorithm: 'hmac-sha-1';
  expiresAt: string;
  expiresIn: number;
  userId: string;
  userCode: string;
  loginType: number;
  openId: string;
  isNew: boolean;
}

interface AccountDeps {
  db: Kysely<Tables>;
  dialect: Dialect;
  config: Config;
  apps: AppService;
  tokens: TokenService;
  providers: Map<string, LoginProvider>;
  sandbox: SandboxProvider | null;
  cancellation: CancellationService;
  users: UserAdminService;
  linking: LinkingService;
  bans: BanService;
  now: () => number;
}

/** Guests' open id: SHA-256 of the device id, so the raw device id is neither stored nor answered. */
export function guestOpenId(deviceId: string): string {
  return crypto.createHash('sha256').update(`guest:${deviceId}`, 'utf8').digest('base64url');
}

/**
 * Platform accounts: logins that mint MAC tokens, the MAC authentication of
 * player requests, the profile of 4.3 and the open id lookup of 4.4; linking,
 * bans, cancellation and the operator's view are services of their own,
 * reached through this one.
 */
export class AccountService {
  readonly #trusted: IpAllowList;

  constructor(private readonly deps: AccountDeps) {
    let trusted: IpAllowList;
    try {
      trusted = new IpAllowList(deps.config.trustedProxies);
    } catch {
      trusted = new IpAllowList([]);
    }
    this.#trusted = trusted;
  }

  /** Cancellation requests and the sweep that carries them out. */
  get cancellation(): CancellationService {
    return this.deps.cancellation;
  }

  /** The operator's view: find users, show them, revoke their tokens. */
  get users(): UserAdminService {
    return this.deps.users;
  }

  /** Binding and unbinding login methods of the current account. */
  get linking(): LinkingService {
    return this.deps.linking;
  }

  /** Bans of platform accounts (operators, moderation). */
  get bans(): BanService {
    return this.deps.bans;
  }

  get tokens(): TokenService {
    return this.deps.tokens;
  }

  get sandbox(): SandboxProvider | null {
    return this.deps.sandbox;
  }

  private now(): number {
    return this.deps.now();
  }

  /**
   * The edge country header (EDGE_COUNTRY_HEADER) of a request, believed
   * only when the socket peer is a trusted proxy (the edge): a client talking
   * to us directly cannot choose its region.
   */
  edgeCountry(peer: string | undefined, headers: Record<string, string | string[] | undefined>): string | undefined {
    if (!this.#trusted.has(peer)) return undefined;
    const value = headers[this.deps.config.EDGE_COUNTRY_HEADER.toLowerCase()];
    return typeof value === 'string' ? value : undefined;
  }

  // --- logins ---

  async loginGuest(clientId: string, deviceId: string, ctx: LoginContext): Promise<LoginResult> {
    const app = await this.deps.apps.requireActive(clientId);
    const identity: ProviderIdentity = {
      loginType: GUEST,
      openId: guestOpenId(deviceId),
      unionId: null,
      nickname: null,
      avatar: null,
      email: null,
      emailVerified: false,
    };
    return this.login(app, identity, ctx);
  }

  async loginWithProvider(
    clientId: string,
    provider: string,
    credential: string,
    ctx: LoginContext,
  ): Promise<LoginResult> {
    const app = await this.deps.apps.requireActive(clientId);
    const identity = await verifyCredential(this.deps.providers, provider, credential);
    return this.login(app, identity, ctx);
  }

  private async login(app: AppRecord, identity: ProviderIdentity, ctx: LoginContext): Promise<LoginResult> {
    try {
      return await this.loginOnce(app, identity, ctx);
    } catch (err) {
      // Two first logins of one open id at once: the loser's insert hits the unique key; its second try finds the method.
      if (this.deps.dialect.isUniqueViolation(err)) return this.loginOnce(app, identity, ctx);
      throw err;
    }
  }

  private async loginOnce(app: AppRecord, identity: ProviderIdentity, ctx: LoginContext): Promise<LoginResult> {
    const now = this.now();
    const userRegion = app.region === 'mainland' ? '' : countryOrDefault(ctx.country);
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const users = new UsersRepository(trx);
      const methods = new LoginMethodsRepository(trx);
      let isNew = false;
      let method = await methods.byOpenId(identity.loginType, identity.openId);
      if (method) {
        await this.refuseIfBanned(users, method.user_id, now);
        await methods.update(method.method_id, {
          last_login_at: now,
          // What the provider says now wins; what it no longer sends is kept.
          ...(identity.nickname !== null ? { nickname: identity.nickname } : {}),
          ...(identity.avatar !== null ? { avatar: identity.avatar } : {}),
          ...(identity.unionId !== null ? { union_id: identity.unionId } : {}),
          ...(identity.email !== null ? { email: identity.email, email_verified: identity.emailVerified ? 1 : 0 } : {}),
        });
      } else {
        const target = identity.loginType === GUEST ? null : await autoBindTarget(methods, identity);
        if (target !== null) await this.refuseIfBanned(users, target, now);
        if (target === null) refuseUnverifiedStoreEmail(app, identity);
        const userId = target ?? (await this.createUser(users, ctx.ip, now));
        isNew = target === null;
        method = await methods.bind(userId, identity, now);
      }
      await users.touchApp(method.user_id, app.appId, now);
      const token = await this.deps.tokens.issue(trx, {
        userId: method.user_id,
        appId: app.appId,
        methodId: method.method_id,
        loginType: identity.loginType,
        openId: identity.openId,
        userRegion,
        ip: ctx.ip,
      });
      return { token, userId: method.user_id, isNew };
    });
    this.deps.tokens.evictTokens(result.token.revokedIds);
    if (!result.isNew) this.deps.tokens.evictUser(result.userId);
    return {
      kid: result.token.kid,
      macKey: result.token.macKey,
      macAlgorithm: 'hmac-sha-1',
      expiresAt: iso(result.token.expiresAt),
      expiresIn: Math.round((result.token.expiresAt - now) / 1000),
      userId: String(result.userId),
      userCode: encodeUserCode(result.userId),
      loginType: identity.loginType,
      openId: identity.openId,
      isNew: result.isNew,
    };
  }

  private async createUser(users: UsersRepository, ip: string, now: number): Promise<number> {
    const userId = await users.insert({
      username: '',
      regist_time: now,
      regist_ip: ip,
      source: 0,
      status: 'active',
      cancel_requested_at: null,
      cancel_due_at: null,
      cancelled_at: null,
    });
    await users.setUsername(userId, `player_${encodeUserCode(userId)}`);
    return userId;
  }

  private async refuseIfBanned(users: UsersRepository, userId: number, now: number): Promise<void> {
    const bans = await users.activeBans(userId, now);
    if (bans.length === 0) return;
    const until = bans.some((b) => b.until === null) ? null : Math.max(...bans.map((b) => b.until!));
    throw new AppError(
      'ACCOUNT_BANNED',
      until === null ? 'this account is banned until further notice' : `this account is banned until ${iso(until)}`,
      {
        data: { until: until === null ? null : iso(until) },
      },
    );
  }

  // --- MAC-authenticated requests ---

  /**
   * The token rules of the MAC scheme (auth/mac.ts, refuseToken), checked
   * only once the mac proved the caller holds the key: revoked, expired, or
   * issued for another app; each a 40300 detail. A revocation takes effect at
   * once on this instance and within TOKEN_CACHE_SECONDS on the others.
   */
  refuseToken(token: TokenSession, app: AppRecord): string | null {
    if (token.revokedAt !== null)
      return `the access token was revoked (${token.revokeReason ?? 'revoked'}) at ${iso(token.revokedAt)}; log in again`;
    if (token.expiresAt <= this.now()) return `the access token expired at ${iso(token.expiresAt)}; log in again`;
    if (token.appId !== app.appId) return `the access token was issued for another app, not clientId ${app.clientId}`;
    return null;
  }

  /** The object of 2.2 for the current token (4.3). */
  profile(app: AppRecord, s: TokenSession): Profile {
    return {
      appId: String(app.appId),
      userId: String(s.userId),
      userCode: encodeUserCode(s.userId),
      username: s.user.username,
      nickName: s.method.nickname,
      avatar: s.method.avatar,
      loginType: s.loginType,
      registTime: isoWithOffset(s.user.registTime),
      registIp: s.user.registIp,
      source: s.user.source,
      loginList: s.loginTypes,
      isGuest: s.loginTypes.length > 0 && s.loginTypes.every((t) => t === GUEST),
      provider: s.loginTypes.map(providerName),
      openId: s.openId,
      userRegion: s.userRegion,
      unionId: app.unionIdEnabled ? s.method.unionId : null,
    };
  }

  async logout(s: TokenSession): Promise<void> {
    await new TokensRepository(this.deps.db).revoke(s.tokenId, 'logout', this.now());
    this.deps.tokens.evictTokens([s.tokenId]);
  }

  // --- 4.4 ---

  /** The loginType of 4.4, checked before the caller (400 naming the field). */
  static svcIdLoginType(loginTypeName: string): SvcIdLoginType {
    if (!Object.hasOwn(SVC_ID_LOGIN_TYPES, loginTypeName)) {
      throw invalidParameter(
        'loginType',
        `must be one of ${Object.keys(SVC_ID_LOGIN_TYPES).join(', ')} (lowercase provider name)`,
      );
    }
    return loginTypeName as SvcIdLoginType;
  }

  /**
   * The platform user id of an open id (4.4). The caller was checked against
   * the app's IP allow-list by its hook (auth/ip-allow-list.ts).
   */
  async svcId(loginTypeName: string, openId: string): Promise<string> {
    const loginType = AccountService.svcIdLoginType(loginTypeName);
    const method = await new LoginMethodsRepository(this.deps.db).byOpenId(SVC_ID_LOGIN_TYPES[loginType], openId);
    if (!method)
      throw new AppError('ILLEGAL_USER_ID', `no user has the ${loginType} open id ${JSON.stringify(openId)}`, {
        data: '',
      });
    return String(method.user_id);
  }
}
