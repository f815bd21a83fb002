import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { rowsIn, updateOne } from '../db/by-key.js';
import type { UserBansTable, UsersTable } from './accounts.tables.js';

export type UserRow = Selectable<UsersTable>;
export type BanRow = Selectable<UserBansTable>;

/** SQL of users, the apps they logged into, and their bans. */
export class UsersRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<UsersTable>): Promise<number> {
    const { user_id } = await this.db.insertInto('users').values(row).returning('user_id').executeTakeFirstOrThrow();
    return user_id;
  }

  async setUsername(userId: number, username: string): Promise<void> {
    await this.db.updateTable('users').set({ username }).where('user_id', '=', userId).execute();
  }

  async byId(userId: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  byIds(userIds: number[]): Promise<UserRow[]> {
    return rowsIn(this.db, 'users', 'user_id', userIds);
  }

  /** active -> cancelling; false when the user is not active. */
  requestCancellation(userId: number, now: number, dueAt: number): Promise<boolean> {
    const cancelling = { status: 'cancelling', cancel_requested_at: now, cancel_due_at: dueAt } as const;
    return updateOne(this.db, 'users', { user_id: userId, status: 'active' }, cancelling);
  }

  /** cancelling -> active; false when no cancellation was pending. */
  withdrawCancellation(userId: number): Promise<boolean> {
    const active = { status: 'active', cancel_requested_at: null, cancel_due_at: null } as const;
    return updateOne(this.db, 'users', { user_id: userId, status: 'cancelling' }, active);
  }

  async dueForCancellation(now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('user_id')
      .where('status', '=', 'cancelling')
      .where('cancel_due_at', '<=', now)
      .orderBy('cancel_due_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.user_id);
  }

  /** cancelling (and due) -> cancelled. Conditional, so of several instances exactly one wins. */
  markCancelled(userId: number, now: number): Promise<boolean> {
    const due = { user_id: userId, status: 'cancelling', cancel_due_at: ['<=', now] } as const;
    return updateOne(this.db, 'users', due, { status: 'cancelled', cancelled_at: now });
  }

  async touchApp(userId: number, appId: number, now: number): Promise<void> {
    await this.db
      .insertInto('user_apps')
      .values({ user_id: userId, app_id: appId, first_login_at: now, last_login_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'app_id']).doUpdateSet({ last_login_at: now }))
      .execute();
  }

  async appsOf(userId: number): Promise<Array<{ app_id: number; first_login_at: number; last_login_at: number }>> {
    return this.db
      .selectFrom('user_apps')
      .select(['app_id', 'first_login_at', 'last_login_at'])
      .where('user_id', '=', userId)
      .orderBy('app_id')
      .execute();
  }

  async insertBan(row: Insertable<UserBansTable>): Promise<BanRow> {
    return this.db.insertInto('user_bans').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Bans in force at `now`. */
  async activeBans(userId: number, now: number): Promise<BanRow[]> {
    return this.db
      .selectFrom('user_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .where('lifted_at', 'is', null)
      .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
      .execute();
  }

  async bansOf(userId: number): Promise<BanRow[]> {
    return this.db.selectFrom('user_bans').selectAll().where('user_id', '=', userId).orderBy('ban_id').execute();
  }

  /** Lifts the bans in force; answers how many. */
  async liftBans(userId: number, now: number, actor: string): Promise<number> {
    const r = await this.db
      .updateTable('user_bans')
      .set({ lifted_at: now, lifted_by: actor })
      .where('user_id', '=', userId)
      .where('lifted_at', 'is', null)
      .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}
