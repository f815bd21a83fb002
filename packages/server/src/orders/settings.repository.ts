import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../tables.js';
import type { OrderSettingsTable } from './orders.tables.js';

/** Every statement on `order_settings` (migrations 0006, 0021): one row per app that changed the defaults. */
export class OrderSettingsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  get(appId: number): Promise<Selectable<OrderSettingsTable> | undefined> {
    return this.db.selectFrom('order_settings').selectAll().where('app_id', '=', appId).executeTakeFirst();
  }

  async put(values: Insertable<OrderSettingsTable>): Promise<void> {
    await this.db
      .insertInto('order_settings')
      .values(values)
      .onConflict((oc) =>
        oc.column('app_id').doUpdateSet({
          web_region_lock: values.web_region_lock,
          refuse_store_orders_in_arrears: values.refuse_store_orders_in_arrears,
          updated_at: values.updated_at,
        }),
      )
      .execute();
  }
}
