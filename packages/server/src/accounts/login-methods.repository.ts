import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { LoginMethodsTable } from './accounts.tables.js';
import type { ProviderIdentity } from './providers/provider.js';
import { rowByKey, rowsByKey } from '../db/by-key.js';

export type LoginMethodRow = Selectable<LoginMethodsTable>;

/** SQL of the login methods bound to users. Methods of cancelled users are deleted at cancellation. */
export class LoginMethodsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<LoginMethodsTable>): Promise<LoginMethodRow> {
    return this.db.insertInto('login_methods').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Binds a provider's verified identity to the user as a new login method, first used `now`. */
  bind(userId: number, identity: ProviderIdentity, now: number): Promise<LoginMethodRow> {
    return this.insert({
      user_id: userId,
      login_type: identity.loginType,
      open_id: identity.openId,
      union_id: identity.unionId,
      nickname: identity.nickname,
      avatar: identity.avatar,
      email: identity.email,
      email_verified: identity.emailVerified ? 1 : 0,
      created_at: now,
      last_login_at: now,
    });
  }

  /** The method of an open id (unique per login type). */
  async byOpenId(loginType: number, openId: string): Promise<LoginMethodRow | undefined> {
    return rowByKey(this.db, 'login_methods', { login_type: loginType, open_id: openId });
  }

  async byUser(userId: number): Promise<LoginMethodRow[]> {
    return rowsByKey(this.db, 'login_methods', { user_id: userId }, ['login_type']);
  }

  /** Methods whose provider vouched for this (lower-cased) email: the candidates of auto-binding. */
  async verifiedByEmail(email: string): Promise<LoginMethodRow[]> {
    return rowsByKey(this.db, 'login_methods', { email, email_verified: 1 }, ['method_id']);
  }

  async byEmail(email: string): Promise<LoginMethodRow[]> {
    return this.db.selectFrom('login_methods').selectAll().where('email', '=', email).orderBy('method_id').execute();
  }

  async update(methodId: number, changes: Updateable<LoginMethodsTable>): Promise<void> {
    await this.db.updateTable('login_methods').set(changes).where('method_id', '=', methodId).execute();
  }

  async delete(methodId: number): Promise<void> {
    await this.db.deleteFrom('login_methods').where('method_id', '=', methodId).execute();
  }

  async deleteByUser(userId: number): Promise<void> {
    await this.db.deleteFrom('login_methods').where('user_id', '=', userId).execute();
  }
}
