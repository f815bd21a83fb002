import { rowByKey, rowsByKey } from '../db/by-key.js';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { RefundRequestsTable, RefundRequestState } from './payment-providers.tables.js';

export type RefundRequestRow = Selectable<RefundRequestsTable>;
export type NewRefundRequest = Omit<Insertable<RefundRequestsTable>, 'refund_request_id' | 'amount_minor'> & {
  /** null: all that remains unrefunded. */
  amount_minor: number | null;
};

/** What the insert found: the new row, an existing row of the key, or why none was written. */
export type InsertOutcome =
  | { kind: 'created'; row: RefundRequestRow }
  | { kind: 'exists'; row: RefundRequestRow }
  | { kind: 'exceeds'; remaining: number }
  | { kind: 'not_paid' };

/** Every statement on refund_requests (migration 0032). */
export class RefundRequestsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  byKey(trxNo: number, key: string): Promise<RefundRequestRow | undefined> {
    return rowByKey(this.db, 'refund_requests', { trx_no: trxNo, idempotency_key: key });
  }

  byId(id: number): Promise<RefundRequestRow | undefined> {
    return this.db.selectFrom('refund_requests').selectAll().where('refund_request_id', '=', id).executeTakeFirst();
  }

  ofOrder(trxNo: number): Promise<RefundRequestRow[]> {
    return rowsByKey(this.db, 'refund_requests', { trx_no: trxNo }, ['refund_request_id']);
  }

  /**
   * What the order's requests hold, in one read: `taken`, every request not refused (what the payment's amount caps);
   * `unsettled`, those the provider has not settled (not yet applied to the order by the orders' core).
   */
  async sums(trxNo: number): Promise<{ taken: number; unsettled: number }> {
    const row = await this.db
      .selectFrom('refund_requests')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('amount_minor').filterWhere('state', '!=', 'refused'), eb.lit(0)).as('taken'),
        eb.fn
          .coalesce(eb.fn.sum<number>('amount_minor').filterWhere('state', 'in', ['requested', 'pending']), eb.lit(0))
          .as('unsettled'),
      ])
      .where('trx_no', '=', trxNo)
      .executeTakeFirstOrThrow();
    return { taken: Number(row.taken), unsettled: Number(row.unsettled) };
  }

  /** Inside the transaction that checked its amount; a second row of the same (order, key) is a unique violation. */
  insert(row: Insertable<RefundRequestsTable>): Promise<RefundRequestRow> {
    return this.db.insertInto('refund_requests').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Moves a request on from `from` (a conditional update: a state is left once); the row after, or undefined. */
  async move(
    id: number,
    from: RefundRequestState[],
    set: Partial<
      Pick<RefundRequestRow, 'state' | 'provider_refund_id' | 'error_code' | 'error_message' | 'lease_until'>
    >,
    at: number,
  ): Promise<RefundRequestRow | undefined> {
    return this.db
      .updateTable('refund_requests')
      .set({ ...set, updated_at: at })
      .where('refund_request_id', '=', id)
      .where('state', 'in', from)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * The reconciliation's batch: requests not settled (requested or pending) older than `before` whose lease is free,
   * leased until `leaseUntil` in one statement (instances running at once take disjoint rows).
   */
  leaseUnsettled(now: number, before: number, leaseUntil: number, limit: number): Promise<RefundRequestRow[]> {
    return this.db
      .updateTable('refund_requests')
      .set({ lease_until: leaseUntil })
      .where('refund_request_id', 'in', (eb) =>
        eb
          .selectFrom('refund_requests')
          .select('refund_request_id')
          .where('state', 'in', ['requested', 'pending'])
          .where('requested_at', '<=', before)
          .where('lease_until', '<=', now)
          .orderBy('requested_at')
          .limit(limit),
      )
      .where('state', 'in', ['requested', 'pending'])
      .where('lease_until', '<=', now)
      .returningAll()
      .execute();
  }
}
