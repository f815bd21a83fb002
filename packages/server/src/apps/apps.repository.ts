import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { keyRead, type KeyReads } from '../db/key-read.js';
import type { Tables } from '../db/tables.js';
import type { AppsTable } from './apps.tables.js';

export type AppRow = Selectable<AppsTable>;

/** SQL of the app registry. */
export class AppsRepository {
  /** On the path of admin reads and of every first request of a clientId (db/key-read.ts). */
  readonly byAppId: (appId: number) => Promise<AppRow | undefined>;
  readonly byClientId: (clientId: string) => Promise<AppRow | undefined>;

  constructor(
    private readonly db: Kysely<Tables>,
    reads: KeyReads | null = null,
  ) {
    this.byAppId = keyRead(db, reads, 'apps_by_app_id', 'select * from apps where app_id = $1');
    this.byClientId = keyRead(db, reads, 'apps_by_client_id', 'select * from apps where client_id = $1');
  }

  async insert(row: Insertable<AppsTable>): Promise<AppRow> {
    return this.db.insertInto('apps').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async list(): Promise<AppRow[]> {
    return this.db.selectFrom('apps').selectAll().orderBy('app_id').execute();
  }

  async update(appId: number, changes: Updateable<AppsTable>): Promise<AppRow | undefined> {
    return this.db.updateTable('apps').set(changes).where('app_id', '=', appId).returningAll().executeTakeFirst();
  }
}
