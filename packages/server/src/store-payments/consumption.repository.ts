import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { StoreConsumptionRequestsTable } from './store-payments.tables.js';

/** Every statement on order_consumption and store_consumption_requests (migration 0024). */
export const consumptionRepo = {
  /** The game's latest report replaces an earlier one. */
  async upsertReport(
    db: Kysely<Tables>,
    r: { trxNo: number; appId: number; consumptionPercentage: number; at: number },
  ): Promise<void> {
    await db
      .insertInto('order_consumption')
      .values({
        trx_no: r.trxNo,
        app_id: r.appId,
        consumption_percentage: r.consumptionPercentage,
        reported_at: r.at,
      })
      .onConflict((oc) =>
        oc.column('trx_no').doUpdateSet({ consumption_percentage: r.consumptionPercentage, reported_at: r.at }),
      )
      .execute();
  },

  async report(db: Kysely<Tables>, trxNo: number): Promise<number | undefined> {
    const row = await db
      .selectFrom('order_consumption')
      .select('consumption_percentage')
      .where('trx_no', '=', trxNo)
      .executeTakeFirst();
    return row ? Number(row.consumption_percentage) : undefined;
  },

  async insertRequest(db: Kysely<Tables>, row: Insertable<StoreConsumptionRequestsTable>): Promise<void> {
    await db.insertInto('store_consumption_requests').values(row).execute();
  },

  listRequests(db: Kysely<Tables>, appId: number, limit: number) {
    return db
      .selectFrom('store_consumption_requests')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('request_id', 'desc')
      .limit(limit)
      .execute();
  },
};
