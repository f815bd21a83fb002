import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../tables.js';
import type { AppsTable } from './apps.tables.js';

export type AppRow = Selectable<AppsTable>;

/** SQL of the app registry. */
export class AppsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<AppsTable>): Promise<AppRow> {
    return this.db.insertInto('apps').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async list(): Promise<AppRow[]> {
    return this.db.selectFrom('apps').selectAll().orderBy('app_id').execute();
  }

  async byAppId(appId: number): Promise<AppRow | undefined> {
    return this.db.selectFrom('apps').selectAll().where('app_id', '=', appId).executeTakeFirst();
  }

  async byClientId(clientId: string): Promise<AppRow | undefined> {
    return this.db.selectFrom('apps').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  }

  async update(appId: number, changes: Updateable<AppsTable>): Promise<AppRow | undefined> {
    return this.db.updateTable('apps').set(changes).where('app_id', '=', appId).returningAll().executeTakeFirst();
  }
}
