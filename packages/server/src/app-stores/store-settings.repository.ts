import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { AppStoreSettingsTable } from './store-settings.tables.js';
import { deleteRows, putRow, rowByKey } from '../db/by-key.js';

export type StoreSettingsRow = Selectable<AppStoreSettingsTable>;
export type StoreName = AppStoreSettingsTable['store'];

/** Every statement on `app_store_settings` (migration 0013): one row per app and store. */
export class StoreSettingsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  list(appId: number): Promise<StoreSettingsRow[]> {
    return this.db.selectFrom('app_store_settings').selectAll().where('app_id', '=', appId).orderBy('store').execute();
  }

  get(appId: number, store: StoreName): Promise<StoreSettingsRow | undefined> {
    return rowByKey(this.db, 'app_store_settings', { app_id: appId, store });
  }

  /** Inserts or replaces the row of (app, store); created_at stays that of the first write. */
  put(row: Insertable<AppStoreSettingsTable>): Promise<void> {
    return putRow(this.db, 'app_store_settings', row, ['app_id', 'store'], ['created_at', 'settings_id']);
  }

  /** The apps with enabled settings of this store (the reconciliation's round). */
  async enabledApps(store: StoreName): Promise<number[]> {
    const rows = await this.db
      .selectFrom('app_store_settings')
      .select('app_id')
      .where('store', '=', store)
      .where('enabled', '=', 1)
      .orderBy('app_id')
      .execute();
    return rows.map((r) => Number(r.app_id));
  }

  /** Answers whether there was a row. */
  async delete(appId: number, store: StoreName): Promise<boolean> {
    return (await deleteRows(this.db, 'app_store_settings', { app_id: appId, store })) > 0;
  }
}
