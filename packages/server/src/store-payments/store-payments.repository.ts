import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { StoreMessagesTable, StoreRevocationsTable, StoreTransactionsTable } from './store-payments.tables.js';

export type StoreTransactionRow = Selectable<StoreTransactionsTable>;
export type StoreMessageRow = Selectable<StoreMessagesTable>;
export type StoreName = StoreTransactionsTable['store'];

export interface MessageFilter {
  appId: number;
  store?: StoreName;
  outcome?: string;
  since?: number;
  before?: number;
  limit: number;
}

/** A store's transaction by one of its keys: ours (store_key) or the store's transaction id (bank_trx_no). */
function transactionBy(db: Kysely<Tables>, store: StoreName, key: 'store_key' | 'bank_trx_no', value: string) {
  const byStore = db.selectFrom('store_transactions').selectAll().where('store', '=', store);
  return byStore.where(key, '=', value).executeTakeFirst();
}

/**
 * Every statement on store_transactions, store_revocations, store_key_locks and store_cursors (migration 0014); the
 * store_messages go through the channels' message log (orders/payments/channel-messages.ts).
 */
export class StorePaymentsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Inside the payment's transaction: a key already recorded throws a unique violation (it paid before). */
  async insertTransactions(rows: Insertable<StoreTransactionsTable>[]): Promise<void> {
    await this.db.insertInto('store_transactions').values(rows).execute();
  }

  transaction(store: StoreName, storeKey: string): Promise<StoreTransactionRow | undefined> {
    return transactionBy(this.db, store, 'store_key', storeKey);
  }

  byBankTrxNo(store: StoreName, bankTrxNo: string): Promise<StoreTransactionRow | undefined> {
    return transactionBy(this.db, store, 'bank_trx_no', bankTrxNo);
  }

  /**
   * Takes the lock rows of these store keys until the transaction ends (an upsert: PostgreSQL's row lock, SQLite's one
   * writer), in sorted order so two takers of overlapping keys never deadlock. Both a submission's payment and a
   * refund take them before they look at the other's rows (docs/stores.md "Revocation").
   */
  async lockKeys(store: StoreName, keys: (string | null)[], at: number): Promise<void> {
    const sorted = [...new Set(keys.filter((k): k is string => k !== null))].sort();
    for (const key of sorted)
      await this.db
        .insertInto('store_key_locks')
        .values({ store, store_key: key, locked_at: at })
        .onConflict((oc) => oc.columns(['store', 'store_key']).doUpdateSet({ locked_at: at }))
        .execute();
  }

  /** Keeps a refund reported before its transaction paid anything (the first report holds the key). */
  async insertRevocation(row: Insertable<StoreRevocationsTable>): Promise<void> {
    await this.db
      .insertInto('store_revocations')
      .values(row)
      .onConflict((oc) => oc.columns(['store', 'store_key']).doNothing())
      .execute();
  }

  /** A revocation of this app kept for the store key or the store's transaction id. */
  async revoked(store: StoreName, appId: number, storeKey: string | null, bankTrxNo: string | null): Promise<boolean> {
    let q = this.db
      .selectFrom('store_revocations')
      .select('store_key')
      .where('store', '=', store)
      .where('app_id', '=', appId);
    q = q.where((eb) =>
      eb.or([
        ...(storeKey !== null ? [eb('store_key', '=', storeKey)] : []),
        ...(bankTrxNo !== null ? [eb('bank_trx_no', '=', bankTrxNo)] : []),
      ]),
    );
    if (storeKey === null && bankTrxNo === null) return false;
    return (await q.executeTakeFirst()) !== undefined;
  }

  async markRefunded(trxNo: number, at: number): Promise<void> {
    await this.db
      .updateTable('store_transactions')
      .set({ refunded_at: at })
      .where('trx_no', '=', trxNo)
      .where('refunded_at', 'is', null)
      .execute();
  }

  async markAcknowledged(store: StoreName, storeKey: string): Promise<void> {
    await this.db
      .updateTable('store_transactions')
      .set({ acknowledged: 1 })
      .where('store', '=', store)
      .where('store_key', '=', storeKey)
      .execute();
  }

  /** Google purchases paid but not yet acknowledged (the reconciliation retries them). */
  unacknowledged(appId: number, limit: number): Promise<StoreTransactionRow[]> {
    return this.db
      .selectFrom('store_transactions')
      .selectAll()
      .where('app_id', '=', appId)
      .where('store', '=', 'google')
      .where('acknowledged', '=', 0)
      .where('refunded_at', 'is', null)
      .limit(limit)
      .execute();
  }

  /** Transactions of an app and store paid since `since` and not refunded (Apple's refund lookup). */
  unrefundedSince(appId: number, store: StoreName, since: number, limit: number): Promise<StoreTransactionRow[]> {
    return this.db
      .selectFrom('store_transactions')
      .selectAll()
      .where('app_id', '=', appId)
      .where('store', '=', store)
      .where('created_at', '>=', since)
      .where('refunded_at', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /**
   * Takes the reconciliation lease of (app, store) until `leaseUntil` if it is free (compare-and-set, so several
   * instances never poll the same app and store at once); answers the cursor's `since`, or null when another
   * instance holds it. The first poll starts `initialSince`.
   */
  async takeCursor(
    appId: number,
    store: StoreName,
    now: number,
    leaseUntil: number,
    initialSince: number,
  ): Promise<number | null> {
    await this.db
      .insertInto('store_cursors')
      .values({ app_id: appId, store, since: initialSince, lease_until: 0, updated_at: now })
      .onConflict((oc) => oc.columns(['app_id', 'store']).doNothing())
      .execute();
    const row = await this.db
      .updateTable('store_cursors')
      .set({ lease_until: leaseUntil, updated_at: now })
      .where('app_id', '=', appId)
      .where('store', '=', store)
      .where('lease_until', '<=', now)
      .returning('since')
      .executeTakeFirst();
    return row ? Number(row.since) : null;
  }

  /** Moves the cursor on and frees the lease. */
  async releaseCursor(appId: number, store: StoreName, since: number | null, now: number): Promise<void> {
    await this.db
      .updateTable('store_cursors')
      .set({ ...(since !== null ? { since } : {}), lease_until: 0, updated_at: now })
      .where('app_id', '=', appId)
      .where('store', '=', store)
      .execute();
  }
}
