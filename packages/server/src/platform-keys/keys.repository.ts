import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { PlatformKeysTable } from './keys.tables.js';

export type PlatformKeyRow = Selectable<PlatformKeysTable>;

export class PlatformKeysRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<PlatformKeysTable>): Promise<void> {
    await this.db.insertInto('platform_keys').values(row).execute();
  }

  /** Published keys, newest first: the first one signs. */
  async published(): Promise<PlatformKeyRow[]> {
    return this.db
      .selectFrom('platform_keys')
      .selectAll()
      .where('status', '=', 'published')
      .orderBy('created_at', 'desc')
      .orderBy('kid', 'desc')
      .execute();
  }

  async all(): Promise<PlatformKeyRow[]> {
    return this.db
      .selectFrom('platform_keys')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('kid', 'desc')
      .execute();
  }

  async retire(kid: string, at: number): Promise<number> {
    const r = await this.db
      .updateTable('platform_keys')
      .set({ status: 'retired', retired_at: at })
      .where('kid', '=', kid)
      .where('status', '=', 'published')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }
}
