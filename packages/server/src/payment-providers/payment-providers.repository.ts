import { deleteRows, putRow, rowByKey, rowsByKey, updateOne } from '../db/by-key.js';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../db/tables.js';
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
 * Every statement on payment_provider_settings and provider_payments (migration 0022); one over a transaction
 * (`new ProvidersRepository(trx)`) changes a payment's row in the transaction that pays the order. The
 * provider_messages go through the channels' message log (orders/payments/channel-messages.ts).
 */
export class ProvidersRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  // --- settings ---
  settingsOf(appId: number): Promise<ProviderSettingsRow[]> {
    return rowsByKey(this.db, 'payment_provider_settings', { app_id: appId }, ['provider']);
  }

  settings(appId: number, provider: string): Promise<ProviderSettingsRow | undefined> {
    return rowByKey(this.db, 'payment_provider_settings', { app_id: appId, provider });
  }

  /** Inserts or replaces the row of (app, provider); created_at stays that of the first write. */
  putSettings(row: Insertable<PaymentProviderSettingsTable>): Promise<void> {
    return putRow(this.db, 'payment_provider_settings', row, ['app_id', 'provider'], ['created_at', 'settings_id']);
  }

  /** Answers whether there was a row. */
  async deleteSettings(appId: number, provider: string): Promise<boolean> {
    return (await deleteRows(this.db, 'payment_provider_settings', { app_id: appId, provider })) > 0;
  }

  // --- payments ---
  async insertPayment(row: Insertable<ProviderPaymentsTable>): Promise<void> {
    await this.db.insertInto('provider_payments').values(row).execute();
  }

  payment(trxNo: number): Promise<ProviderPaymentRow | undefined> {
    return this.db.selectFrom('provider_payments').selectAll().where('trx_no', '=', trxNo).executeTakeFirst();
  }

  paymentByRef(provider: string, ref: string): Promise<ProviderPaymentRow | undefined> {
    return rowByKey(this.db, 'provider_payments', { provider, ref });
  }

  paymentByProviderTrxId(provider: string, providerTrxId: string): Promise<ProviderPaymentRow | undefined> {
    return rowByKey(this.db, 'provider_payments', { provider, provider_trx_id: providerTrxId });
  }

  /** open -> paid by `providerTrxId`, in the transaction that pays the order; false when it was not open. */
  markPaid(trxNo: number, providerTrxId: string, at: number): Promise<boolean> {
    return this.fromOpen(trxNo, { state: 'paid', provider_trx_id: providerTrxId, paid_at: at });
  }

  /** open -> closed; false when it was not open. */
  markClosed(trxNo: number, at: number): Promise<boolean> {
    return this.fromOpen(trxNo, { state: 'closed', closed_at: at });
  }

  /** An open payment's change of state (false when it was not open). */
  private fromOpen(trxNo: number, set: Updateable<ProviderPaymentsTable>): Promise<boolean> {
    return updateOne(this.db, 'provider_payments', { trx_no: trxNo, state: 'open' }, set);
  }

  /**
   * The result view's late query takes its turn (compare-and-set on checked_at, so many polls and instances ask the
   * provider at most once per `every`): true when this caller is to ask.
   */
  async takeCheck(trxNo: number, now: number, every: number): Promise<boolean> {
    const res = await this.db
      .updateTable('provider_payments')
      .set({ checked_at: now })
      .where('trx_no', '=', trxNo)
      .where('state', '=', 'open')
      .where('opened_at', '<=', now - every)
      .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', now - every)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * The reconciliation's batch: up to `limit` open payments opened before `openedBefore` whose lease is free, leased
   * until `leaseUntil` (one statement: instances running at once take disjoint rows).
   */
  async leaseDue(now: number, openedBefore: number, leaseUntil: number, limit: number): Promise<ProviderPaymentRow[]> {
    return this.db
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
  }
}
