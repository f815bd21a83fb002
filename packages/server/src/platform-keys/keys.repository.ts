import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { updateRows } from '../db/by-key.js';
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

  retire(kid: string, at: number): Promise<number> {
    return updateRows(this.db, 'platform_keys', { kid, status: 'published' }, { status: 'retired', retired_at: at });
  }
}
