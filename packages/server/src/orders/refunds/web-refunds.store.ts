import { rowByKey, rowsByKey } from '../../db/by-key.js';
import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../db/tables.js';
import type { WebRefundsTable } from '../orders.tables.js';

export type WebRefundRow = Selectable<WebRefundsTable>;

/** The store of web refunds (migration 0031): one row per provider refund or lost dispute. */
export class WebRefundsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Written in the refund's transaction; the (provider, provider_refund_id) key refuses a second one. */
  async insert(row: WebRefundRow): Promise<void> {
    await this.db.insertInto('web_refunds').values(row).execute();
  }

  byProviderId(provider: string, providerRefundId: string): Promise<WebRefundRow | undefined> {
    return rowByKey(this.db, 'web_refunds', { provider, provider_refund_id: providerRefundId });
  }

  /** The web refunds of one payment, oldest first. */
  ofOrder(originalTrxNo: number): Promise<WebRefundRow[]> {
    return rowsByKey(this.db, 'web_refunds', { original_trx_no: originalTrxNo }, ['refund_trx_no']);
  }
}
