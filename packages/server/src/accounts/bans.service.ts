import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../db/tables.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import type { Ban } from './accounts.schemas.js';
import { toBan } from './accounts.format.js';
import type { TokenService } from './tokens.service.js';
import { TokensRepository } from './tokens.repository.js';
import { UsersRepository } from './users.repository.js';

/** Bans of platform accounts, by operators (admin API, CLI) and by moderation decisions on reports. */
export class BanService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly users: UsersRepository,
    private readonly tokens: TokenService,
    private readonly now: () => number,
  ) {}

  /**
   * Bans a user: all their tokens are revoked at once and logins are refused
   * (ACCOUNT_BANNED, 40302) until the ban ends (`until`, Unix ms, or lifted). Runs in `trx` when given, so a
   * moderation decision and its ban commit together.
   */
  async banUser(
    userId: number,
    ban: { reason: string; until: number | null; actor: string },
    trx?: Transaction<Tables>,
  ): Promise<Ban> {
    const now = this.now();
    if (ban.until !== null && ban.until <= now)
      throw invalidParameter('until', 'must be in the future (or null for a ban until lifted)');
    const apply = async (t: Kysely<Tables>) => {
      const users = new UsersRepository(t);
      await this.requireUser(users, userId);
      const inserted = await users.insertBan({
        user_id: userId,
        reason: ban.reason,
        until: ban.until,
        actor: ban.actor,
        created_at: now,
        lifted_at: null,
        lifted_by: null,
      });
      await new TokensRepository(t).revokeUser(userId, 'ban', now);
      return inserted;
    };
    const row = trx ? await apply(trx) : await this.db.transaction().execute(apply);
    this.tokens.evictUser(userId);
    return toBan(row);
  }

  /** Lifts every ban in force on a user; answers how many. */
  async liftBan(userId: number, actor: string, trx?: Transaction<Tables>): Promise<number> {
    const users = trx ? new UsersRepository(trx) : this.users;
    await this.requireUser(users, userId);
    return users.liftBans(userId, this.now(), actor);
  }

  private async requireUser(users: UsersRepository, userId: number) {
    const user = await users.byId(userId);
    if (!user) throw new AppError('NOT_FOUND', `user ${userId} does not exist`);
    return user;
  }
}
