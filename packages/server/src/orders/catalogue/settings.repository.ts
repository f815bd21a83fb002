import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../../db/tables.js';
import type { OrderSettingsTable } from '../orders.tables.js';

/** Every statement on `order_settings` (migrations 0006, 0021, 0024): one row per app that changed the defaults. */
export class OrderSettingsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  get(appId: number): Promise<Selectable<OrderSettingsTable> | undefined> {
    return this.db.selectFrom('order_settings').selectAll().where('app_id', '=', appId).executeTakeFirst();
  }

  /**
   * Sets the columns given and keeps the others, in one statement (so two changes of different settings at once
   * both hold); a new row takes the defaults (0) for the columns not given.
   */
  async put(
    appId: number,
    change: Partial<
      Pick<
        OrderSettingsTable,
        | 'web_region_lock'
        | 'refuse_store_orders_in_arrears'
        | 'consumption_consent'
        | 'consumption_consented_at'
        | 'refund_preference'
      > & { account_binding: string }
    >,
    updatedAt: number,
  ): Promise<void> {
    const values: Insertable<OrderSettingsTable> = {
      app_id: appId,
      web_region_lock: 0,
      refuse_store_orders_in_arrears: 0,
      consumption_consent: null,
      consumption_consented_at: null,
      refund_preference: null,
      ...change,
      updated_at: updatedAt,
    };
    await this.db
      .insertInto('order_settings')
      .values(values)
      .onConflict((oc) => oc.column('app_id').doUpdateSet({ ...change, updated_at: updatedAt }))
      .execute();
  }
}
