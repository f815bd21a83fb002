import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { StoreConsumptionRequestsTable } from './store-payments.tables.js';

/** Every statement on order_consumption and store_consumption_requests (migration 0024). */
export class ConsumptionRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** The game's latest report replaces an earlier one. */
  async upsertReport(r: { trxNo: number; appId: number; consumptionPercentage: number; at: number }): Promise<void> {
    await this.db
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
  }

  async report(trxNo: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('order_consumption')
      .select('consumption_percentage')
      .where('trx_no', '=', trxNo)
      .executeTakeFirst();
    return row ? Number(row.consumption_percentage) : undefined;
  }

  async insertRequest(row: Insertable<StoreConsumptionRequestsTable>): Promise<void> {
    await this.db.insertInto('store_consumption_requests').values(row).execute();
  }

  listRequests(appId: number, limit: number) {
    return this.db
      .selectFrom('store_consumption_requests')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('request_id', 'desc')
      .limit(limit)
      .execute();
  }
}
