import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../db/tables.js';
import type { WebRefundsTable } from '../orders.tables.js';

export type WebRefundRow = Selectable<WebRefundsTable>;

/** The store of web refunds (migration 0031): one row per provider refund or lost dispute. Takes the executor. */
export const webRefundsStore = {
  /** Written in the refund's transaction; the (provider, provider_refund_id) key refuses a second one. */
  async insert(db: Kysely<Tables>, row: WebRefundRow): Promise<void> {
    await db.insertInto('web_refunds').values(row).execute();
  },

  byProviderId(db: Kysely<Tables>, provider: string, providerRefundId: string): Promise<WebRefundRow | undefined> {
    return db
      .selectFrom('web_refunds')
      .selectAll()
      .where('provider', '=', provider)
      .where('provider_refund_id', '=', providerRefundId)
      .executeTakeFirst();
  },

  /** The web refunds of one payment, oldest first. */
  ofOrder(db: Kysely<Tables>, originalTrxNo: number): Promise<WebRefundRow[]> {
    return db
      .selectFrom('web_refunds')
      .selectAll()
      .where('original_trx_no', '=', originalTrxNo)
      .orderBy('refund_trx_no')
      .execute();
  },
};
