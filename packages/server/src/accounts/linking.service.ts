import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { isLoginType, providerName } from './login-types.js';
import { LoginMethodsRepository } from './login-methods.repository.js';
import { TokensRepository } from './tokens.repository.js';
import { verifyCredential, type LoginProvider } from './providers/index.js';
import type { TokenService, TokenSession } from './tokens.service.js';

/**
 * Linking (client API): binding another login method to the current account
 * and unbinding one. A method is bound to one account only; the last method
 * of an account, and the one the session logged in with, cannot be unbound.
 */
export class LinkingService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly methods: LoginMethodsRepository,
    private readonly dialect: Dialect,
    private readonly tokens: TokenService,
    private readonly providers: Map<string, LoginProvider>,
    private readonly now: () => number,
  ) {}

  async bind(
    s: TokenSession,
    provider: string,
    credential: string,
  ): Promise<{ loginList: number[]; provider: string[] }> {
    const identity = await verifyCredential(this.providers, provider, credential);
    const now = this.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        const methods = new LoginMethodsRepository(trx);
        const existing = await methods.byOpenId(identity.loginType, identity.openId);
        if (existing && existing.user_id !== s.userId) {
          throw new AppError(
            'CONFLICT',
            `this ${providerName(identity.loginType)} account is already bound to another platform account`,
          );
        }
        if (existing) return;
        const own = await methods.byUser(s.userId);
        if (own.some((m) => m.login_type === identity.loginType)) {
          throw new AppError(
            'CONFLICT',
            `a ${providerName(identity.loginType)} login is already bound to this account; unbind it first`,
          );
        }
        await methods.bind(s.userId, identity, now);
      });
    } catch (err) {
      if (this.dialect.isUniqueViolation(err))
        throw new AppError(
          'CONFLICT',
          `this ${providerName(identity.loginType)} account was bound elsewhere at the same time`,
        );
      throw err;
    }
    this.tokens.evictUser(s.userId);
    return this.loginMethodsOf(s.userId);
  }

  /** Unbinds a login type from the current account: never the last one, nor the one of the current session. */
  async unbind(s: TokenSession, loginTypeText: string): Promise<{ loginList: number[]; provider: string[] }> {
    const loginType = Number(loginTypeText);
    if (!isLoginType(loginType))
      throw invalidParameter('loginType', `${loginTypeText} is not a login type code of 2.2`);
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const methods = new LoginMethodsRepository(trx);
      const own = await methods.byUser(s.userId);
      const target = own.find((m) => m.login_type === loginType);
      if (!target) throw new AppError('NOT_FOUND', `no ${providerName(loginType)} login is bound to this account`);
      if (own.length === 1) throw new AppError('CONFLICT', 'the last login method of an account cannot be unbound');
      if (target.method_id === s.methodId)
        throw new AppError(
          'CONFLICT',
          'this session logged in with that method; log in with another method to unbind it',
        );
      await methods.delete(target.method_id);
      await new TokensRepository(trx).revokeUser(s.userId, 'unbind', now, target.method_id);
    });
    this.tokens.evictUser(s.userId);
    return this.loginMethodsOf(s.userId);
  }

  private async loginMethodsOf(userId: number): Promise<{ loginList: number[]; provider: string[] }> {
    const types = [...new Set((await this.methods.byUser(userId)).map((m) => m.login_type))].sort((a, b) => a - b);
    return { loginList: types, provider: types.map(providerName) };
  }
}
