import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { newestFirst } from '../db/list-filter.js';
import type {
  PaymentProviderSettingsTable,
  ProviderMessagesTable,
  ProviderPaymentsTable,
} from './payment-providers.tables.js';

export type ProviderSettingsRow = Selectable<PaymentProviderSettingsTable>;
export type ProviderPaymentRow = Selectable<ProviderPaymentsTable>;
export type ProviderMessageRow = Selectable<ProviderMessagesTable>;

export interface ProviderMessageFilter {
  appId: number;
  provider?: string;
  outcome?: string;
  type?: string;
  trxNo?: number;
  since?: number;
  before?: number;
  limit: number;
}

/**
 * Every statement on payment_provider_settings, provider_payments and provider_messages (migration 0022). Functions
 * take the executor, so a payment's row changes in the transaction that pays the order.
 */
export const providersRepo = {
  // --- settings ---
  settingsOf(db: Kysely<Tables>, appId: number): Promise<ProviderSettingsRow[]> {
    return db
      .selectFrom('payment_provider_settings')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('provider')
      .execute();
  },

  settings(db: Kysely<Tables>, appId: number, provider: string): Promise<ProviderSettingsRow | undefined> {
    return db
      .selectFrom('payment_provider_settings')
      .selectAll()
      .where('app_id', '=', appId)
      .where('provider', '=', provider)
      .executeTakeFirst();
  },

  /** Inserts or replaces the row of (app, provider); created_at stays that of the first write. */
  async putSettings(db: Kysely<Tables>, row: Insertable<PaymentProviderSettingsTable>): Promise<void> {
    const { app_id: _a, provider: _p, created_at: _c, settings_id: _i, ...changes } = row;
    await db
      .insertInto('payment_provider_settings')
      .values(row)
      .onConflict((oc) => oc.columns(['app_id', 'provider']).doUpdateSet(changes))
      .execute();
  },

  /** Answers whether there was a row. */
  async deleteSettings(db: Kysely<Tables>, appId: number, provider: string): Promise<boolean> {
    const res = await db
      .deleteFrom('payment_provider_settings')
      .where('app_id', '=', appId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  },

  // --- payments ---
  async insertPayment(db: Kysely<Tables>, row: Insertable<ProviderPaymentsTable>): Promise<void> {
    await db.insertInto('provider_payments').values(row).execute();
  },

  payment(db: Kysely<Tables>, trxNo: number): Promise<ProviderPaymentRow | undefined> {
    return db.selectFrom('provider_payments').selectAll().where('trx_no', '=', trxNo).executeTakeFirst();
  },

  paymentByRef(db: Kysely<Tables>, provider: string, ref: string): Promise<ProviderPaymentRow | undefined> {
    return db
      .selectFrom('provider_payments')
      .selectAll()
      .where('provider', '=', provider)
      .where('ref', '=', ref)
      .executeTakeFirst();
  },

  paymentByProviderTrxId(
    db: Kysely<Tables>,
    provider: string,
    providerTrxId: string,
  ): Promise<ProviderPaymentRow | undefined> {
    return db
      .selectFrom('provider_payments')
      .selectAll()
      .where('provider', '=', provider)
      .where('provider_trx_id', '=', providerTrxId)
      .executeTakeFirst();
  },

  /** open -> paid by `providerTrxId`, in the transaction that pays the order; false when it was not open. */
  async markPaid(db: Kysely<Tables>, trxNo: number, providerTrxId: string, at: number): Promise<boolean> {
    const res = await db
      .updateTable('provider_payments')
      .set({ state: 'paid', provider_trx_id: providerTrxId, paid_at: at })
      .where('trx_no', '=', trxNo)
      .where('state', '=', 'open')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /**
   * Locks a paid payment's row for the rest of the transaction (a no-op update: PostgreSQL's row lock, SQLite's one
   * writer) and answers its amount; undefined when it is not paid. Operators' refunds of it are counted under it.
   */
  lockPaid(db: Kysely<Tables>, trxNo: number): Promise<{ amount_minor: number } | undefined> {
    return db
      .updateTable('provider_payments')
      .set((eb) => ({ lease_until: eb.ref('lease_until') }))
      .where('trx_no', '=', trxNo)
      .where('state', '=', 'paid')
      .returning(['amount_minor'])
      .executeTakeFirst();
  },

  /** open -> closed; false when it was not open. */
  async markClosed(db: Kysely<Tables>, trxNo: number, at: number): Promise<boolean> {
    const res = await db
      .updateTable('provider_payments')
      .set({ state: 'closed', closed_at: at })
      .where('trx_no', '=', trxNo)
      .where('state', '=', 'open')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /**
   * The result view's late query takes its turn (compare-and-set on checked_at, so many polls and instances ask the
   * provider at most once per `every`): true when this caller is to ask.
   */
  async takeCheck(db: Kysely<Tables>, trxNo: number, now: number, every: number): Promise<boolean> {
    const res = await db
      .updateTable('provider_payments')
      .set({ checked_at: now })
      .where('trx_no', '=', trxNo)
      .where('state', '=', 'open')
      .where('opened_at', '<=', now - every)
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', now - every)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },

  /**
   * The reconciliation's batch: up to `limit` open payments opened before `openedBefore` whose lease is free, leased
   * until `leaseUntil` (one statement: instances running at once take disjoint rows).
   */
  async leaseDue(
    db: Kysely<Tables>,
    now: number,
    openedBefore: number,
    leaseUntil: number,
    limit: number,
  ): Promise<ProviderPaymentRow[]> {
    return db
      .updateTable('provider_payments')
      .set({ lease_until: leaseUntil, checked_at: now })
      .where('trx_no', 'in', (eb) =>
        eb
          .selectFrom('provider_payments')
          .select('trx_no')
          .where('state', '=', 'open')
          .where('opened_at', '<=', openedBefore)
          .where('lease_until', '<=', now)
          .orderBy('opened_at')
          .limit(limit),
      )
      .where('state', '=', 'open')
      .where('lease_until', '<=', now)
      .returningAll()
      .execute();
  },

  // --- messages ---
  async insertMessage(db: Kysely<Tables>, row: Insertable<ProviderMessagesTable>): Promise<void> {
    await db.insertInto('provider_messages').values(row).execute();
  },

  /**
   * Records the message that took effect, inside the transaction of its effect, with its dedup key; if another
   * delivery of the same event holds the key already (it found the effect made), this one is still recorded, without.
   */
  async insertClaimingMessage(db: Kysely<Tables>, row: Insertable<ProviderMessagesTable>): Promise<void> {
    const res = await db
      .insertInto('provider_messages')
      .values(row)
      .onConflict((oc) => oc.columns(['provider', 'app_id', 'dedup_key']).doNothing())
      .executeTakeFirst();
    if (Number(res.numInsertedOrUpdatedRows ?? 0) === 0)
      await db
        .insertInto('provider_messages')
        .values({ ...row, dedup_key: null })
        .execute();
  },

  messageByKey(
    db: Kysely<Tables>,
    provider: string,
    appId: number,
    dedupKey: string,
  ): Promise<ProviderMessageRow | undefined> {
    return db
      .selectFrom('provider_messages')
      .selectAll()
      .where('provider', '=', provider)
      .where('app_id', '=', appId)
      .where('dedup_key', '=', dedupKey)
      .executeTakeFirst();
  },

  listMessages(db: Kysely<Tables>, q: ProviderMessageFilter): Promise<ProviderMessageRow[]> {
    let query = db.selectFrom('provider_messages').selectAll().where('app_id', '=', q.appId);
    if (q.provider) query = query.where('provider', '=', q.provider);
    if (q.outcome) query = query.where('outcome', '=', q.outcome as ProviderMessageRow['outcome']);
    if (q.type) query = query.where('type', '=', q.type);
    if (q.trxNo !== undefined) query = query.where('trx_no', '=', q.trxNo);
    if (q.since !== undefined) query = query.where('received_at', '>=', q.since);
    return newestFirst(query, 'message_id', q).execute();
  },
};
