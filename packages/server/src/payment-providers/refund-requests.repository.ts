import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { RefundRequestsTable, RefundRequestState } from './payment-providers.tables.js';
import { providersRepo } from './payment-providers.repository.js';

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
export const refundRequestsRepo = {
  byKey(db: Kysely<Tables>, trxNo: number, key: string): Promise<RefundRequestRow | undefined> {
    return db
      .selectFrom('refund_requests')
      .selectAll()
      .where('trx_no', '=', trxNo)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  },

  byId(db: Kysely<Tables>, id: number): Promise<RefundRequestRow | undefined> {
    return db.selectFrom('refund_requests').selectAll().where('refund_request_id', '=', id).executeTakeFirst();
  },

  ofOrder(db: Kysely<Tables>, trxNo: number): Promise<RefundRequestRow[]> {
    return db
      .selectFrom('refund_requests')
      .selectAll()
      .where('trx_no', '=', trxNo)
      .orderBy('refund_request_id')
      .execute();
  },

  /**
   * The request, written only if its amount fits what remains unrefunded (the payment's amount less every request not
   * refused), in one transaction that first locks the payment's row: two requests at once are counted one after the
   * other (PostgreSQL row lock; SQLite has one writer). A second row of the same (order, key) is the first one.
   */
  async insertWithin(
    db: Kysely<Tables>,
    row: NewRefundRequest,
    isUniqueViolation: (e: unknown) => boolean,
    /**
     * What the orders' core says remains of the payment (its refunds applied, the provider's own included), read just
     * before: less the requests not yet applied, it caps the amount too. null: no cap beyond this table's.
     */
    applied: number | null = null,
  ): Promise<InsertOutcome> {
    try {
      return await db.transaction().execute(async (trx) => {
        const locked = await providersRepo.lockPaid(trx, Number(row.trx_no));
        if (!locked) return { kind: 'not_paid' as const };
        const existing = await refundRequestsRepo.byKey(trx, Number(row.trx_no), row.idempotency_key);
        if (existing) return { kind: 'exists' as const, row: existing };
        const taken = await trx
          .selectFrom('refund_requests')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
          .where('trx_no', '=', row.trx_no)
          .where('state', '!=', 'refused')
          .executeTakeFirstOrThrow();
        let remaining = Number(locked.amount_minor) - Number(taken.total);
        if (applied !== null) {
          const unsettled = await trx
            .selectFrom('refund_requests')
            .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
            .where('trx_no', '=', row.trx_no)
            .where('state', 'in', ['requested', 'pending'])
            .executeTakeFirstOrThrow();
          remaining = Math.min(remaining, applied - Number(unsettled.total));
        }
        const amount = row.amount_minor ?? remaining;
        if (amount < 1 || amount > remaining) return { kind: 'exceeds' as const, remaining };
        const created = await trx
          .insertInto('refund_requests')
          .values({ ...row, amount_minor: amount })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { kind: 'created' as const, row: created };
      });
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const existing = await refundRequestsRepo.byKey(db, Number(row.trx_no), row.idempotency_key);
      if (!existing) throw e;
      return { kind: 'exists', row: existing };
    }
  },

  /** Moves a request on from `from` (a conditional update: a state is left once); the row after, or undefined. */
  async move(
    db: Kysely<Tables>,
    id: number,
    from: RefundRequestState[],
    set: Partial<
      Pick<RefundRequestRow, 'state' | 'provider_refund_id' | 'error_code' | 'error_message' | 'lease_until'>
    >,
    at: number,
  ): Promise<RefundRequestRow | undefined> {
    return db
      .updateTable('refund_requests')
      .set({ ...set, updated_at: at })
      .where('refund_request_id', '=', id)
      .where('state', 'in', from)
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * The reconciliation's batch: requests not settled (requested or pending) older than `before` whose lease is free,
   * leased until `leaseUntil` in one statement (instances running at once take disjoint rows).
   */
  leaseUnsettled(
    db: Kysely<Tables>,
    now: number,
    before: number,
    leaseUntil: number,
    limit: number,
  ): Promise<RefundRequestRow[]> {
    return db
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
  },
};
