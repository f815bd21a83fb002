import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../tables.js';
import type { StudioDevelopersTable, StudioSessionsTable } from './portal.tables.js';

export type DeveloperRow = Selectable<StudioDevelopersTable>;
export type StudioSessionRow = Selectable<StudioSessionsTable>;

/** Every statement on studio_developers, studio_developer_apps and studio_sessions (migration 0018). */
export class PortalRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  insert(row: Insertable<StudioDevelopersTable>): Promise<DeveloperRow> {
    return this.db.insertInto('studio_developers').values(row).returningAll().executeTakeFirstOrThrow();
  }

  byName(name: string): Promise<DeveloperRow | undefined> {
    return this.db.selectFrom('studio_developers').selectAll().where('name', '=', name).executeTakeFirst();
  }

  byId(id: number): Promise<DeveloperRow | undefined> {
    return this.db.selectFrom('studio_developers').selectAll().where('developer_id', '=', id).executeTakeFirst();
  }

  list(): Promise<DeveloperRow[]> {
    return this.db.selectFrom('studio_developers').selectAll().orderBy('name').execute();
  }

  async update(id: number, set: Updateable<StudioDevelopersTable>): Promise<void> {
    await this.db.updateTable('studio_developers').set(set).where('developer_id', '=', id).execute();
  }

  /** A failed sign-in: one more on the counter, and the lock when it reaches `max`. Answers the new count. */
  async countFailure(id: number, max: number, lockedUntil: number, at: number): Promise<number> {
    const row = await this.db
      .updateTable('studio_developers')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1), updated_at: at }))
      .where('developer_id', '=', id)
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    const n = Number(row.failed_logins);
    if (n >= max)
      await this.db
        .updateTable('studio_developers')
        .set({ locked_until: lockedUntil, failed_logins: 0 })
        .where('developer_id', '=', id)
        .execute();
    return n;
  }

  /** Takes TOTP step `step` if it is newer than the last accepted (false: a replayed or older code). */
  async claimTotpStep(id: number, step: number): Promise<boolean> {
    const r = await this.db
      .updateTable('studio_developers')
      .set({ totp_last_step: step })
      .where('developer_id', '=', id)
      .where('totp_last_step', '<', step)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Replaces the unused recovery codes if they are still `before` (false: another sign-in used one meanwhile). */
  async swapRecoveryCodes(id: number, before: string, after: string): Promise<boolean> {
    const r = await this.db
      .updateTable('studio_developers')
      .set({ recovery_codes: after })
      .where('developer_id', '=', id)
      .where('recovery_codes', '=', before)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // --- the apps of a developer ---

  async appsOf(id: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('studio_developer_apps')
      .select('app_id')
      .where('developer_id', '=', id)
      .orderBy('app_id')
      .execute();
    return rows.map((r) => Number(r.app_id));
  }

  async hasApp(id: number, appId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('studio_developer_apps')
      .select('app_id')
      .where('developer_id', '=', id)
      .where('app_id', '=', appId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Replaces the developer's apps in one transaction. */
  async setApps(id: number, appIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('studio_developer_apps').where('developer_id', '=', id).execute();
      if (appIds.length > 0)
        await trx
          .insertInto('studio_developer_apps')
          .values(appIds.map((app_id) => ({ developer_id: id, app_id })))
          .execute();
    });
  }

  // --- sessions ---

  async insertSession(row: Insertable<StudioSessionsTable>): Promise<void> {
    await this.db.insertInto('studio_sessions').values(row).execute();
  }

  session(hash: string): Promise<StudioSessionRow | undefined> {
    return this.db.selectFrom('studio_sessions').selectAll().where('session_hash', '=', hash).executeTakeFirst();
  }

  async deleteSession(hash: string): Promise<void> {
    await this.db.deleteFrom('studio_sessions').where('session_hash', '=', hash).execute();
  }

  async deleteSessionsOf(id: number): Promise<void> {
    await this.db.deleteFrom('studio_sessions').where('developer_id', '=', id).execute();
  }

  async deleteExpiredSessions(at: number): Promise<void> {
    await this.db.deleteFrom('studio_sessions').where('expires_at', '<=', at).execute();
  }
}
