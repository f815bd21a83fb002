import { rowByKey, rowsByKey, updateOne, updateWhere } from '../db/by-key.js';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import { groupBy } from '../db/group-by.js';
import { newestFirst, whereGiven, withinWindow } from '../db/list-filter.js';
import type { OrderItemsTable, OrderStatusChangesTable, OrdersTable, SupplementsTable } from './orders.tables.js';
import { creation, type StatusChangeRow } from './status-history.js';

export type OrderRow = Selectable<OrdersTable>;
export type ItemRow = Selectable<OrderItemsTable>;
export type SupplementRow = Selectable<SupplementsTable>;

/** What the operator finds orders by (all optional but the page size); `from`/`to` bound `created_at` (ms). */
export interface OrderFilter {
  appId?: number;
  trxNo?: number;
  outTrxNo?: string;
  userId?: string;
  roleId?: string;
  status?: number;
  trxType?: number;
  from?: number;
  to?: number;
  limit: number;
  before?: number;
}

/** A payment's refund orders (trxType 2, 2.5), oldest first. */
const refundOrdersOf = (db: Kysely<Tables>, trxNo: number) =>
  db.selectFrom('orders').selectAll().where('original_trx_no', '=', trxNo).where('trx_type', '=', 2).orderBy('trx_no');

/**
 * The orders store: SQL of orders, their items, their status history (status-history.ts) and supplements;
 * placement-writes.ts and placement-claims.ts hold its batched statements of order placement. One over `db` (or the
 * read replica) is built by the module; one over a transaction (`new OrdersRepository(trx)`) runs in it.
 */
export class OrdersRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** History rows, written with the change they record (same transaction). */
  async recordStatusChanges(changes: StatusChangeRow[]): Promise<void> {
    if (changes.length > 0) await this.db.insertInto('order_status_changes').values(changes).execute();
  }

  /** The statuses an order went through, oldest first. */
  statusChanges(trxNo: number): Promise<Selectable<OrderStatusChangesTable>[]> {
    return rowsByKey(this.db, 'order_status_changes', { trx_no: trxNo }, ['change_id']);
  }

  async insertOrder(
    row: Insertable<OrdersTable>,
    items: Array<Omit<OrderItemsTable, 'trx_no' | 'line_no'>>,
  ): Promise<OrderRow> {
    const order = await this.db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
    await this.recordStatusChanges([creation(order)]);
    await this.db
      .insertInto('order_items')
      .values(items.map((it, i) => ({ ...it, trx_no: order.trx_no, line_no: i + 1 })))
      .execute();
    return order;
  }

  byTrxNo(trxNo: number): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('trx_no', '=', trxNo).executeTakeFirst();
  }

  byOutTrxNo(appId: number, outTrxNo: string): Promise<OrderRow | undefined> {
    return rowByKey(this.db, 'orders', { app_id: appId, out_trx_no: outTrxNo });
  }

  /** The (first) refund order of a payment: a store payment's only one, a web payment's oldest. */
  refundOf(trxNo: number): Promise<OrderRow | undefined> {
    return refundOrdersOf(this.db, trxNo).executeTakeFirst();
  }

  /** Every refund order of a payment, oldest first (a web payment may be refunded in parts). */
  refundsOf(trxNo: number): Promise<OrderRow[]> {
    return refundOrdersOf(this.db, trxNo).execute();
  }

  /**
   * The order, its row locked until the caller's transaction ends, so what it reads stays true until that
   * transaction's writes: PostgreSQL `FOR UPDATE`; SQLite a no-op update, which takes the one writer's lock first (a
   * transaction that read before writing could not take it while another process, the CLI or the service, wrote).
   */
  lockForUpdate(dialect: Pick<Dialect, 'name'>, trxNo: number): Promise<OrderRow | undefined> {
    if (dialect.name === 'postgres')
      return this.db.selectFrom('orders').selectAll().where('trx_no', '=', trxNo).forUpdate().executeTakeFirst();
    return this.db
      .updateTable('orders')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('trx_no', '=', trxNo)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Takes `amountMinor` of a paid payment for a refund: one conditional update, so the check (never more than what
   * remains) and the change are one step under the row's lock, held until the caller's transaction ends; a
   * concurrent refund of the same order waits and is checked against what this one left. Undefined: the order is
   * not a paid payment, or not that much remains.
   */
  takeRefund(trxNo: number, amountMinor: number, at: number): Promise<OrderRow | undefined> {
    return this.db
      .updateTable('orders')
      .set((eb) => ({ refunded_minor: eb('refunded_minor', '+', amountMinor), updated_at: at }))
      .where('trx_no', '=', trxNo)
      .where('trx_type', '=', 0)
      .where('status', '=', 0)
      .where((eb) => eb(eb('refunded_minor', '+', amountMinor), '<=', eb.ref('total_minor')))
      .returningAll()
      .executeTakeFirst();
  }

  items(trxNo: number): Promise<ItemRow[]> {
    return this.db.selectFrom('order_items').selectAll().where('trx_no', '=', trxNo).orderBy('line_no').execute();
  }

  /** The items of many orders in one query, by trxNo (a list page). */
  async itemsOf(trxNos: number[]): Promise<Map<number, ItemRow[]>> {
    if (trxNos.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('order_items')
      .selectAll()
      .where('trx_no', 'in', trxNos)
      .orderBy('trx_no')
      .orderBy('line_no')
      .execute();
    return groupBy(rows, (r) => r.trx_no);
  }

  /**
   * Compare-and-set of the status: the row changes only if it still has `from`. The change and its history row are
   * one transaction (the caller's, or one of its own).
   */
  async setStatus(
    trxNo: number,
    from: number,
    changes: Updateable<OrdersTable> & { status: number },
  ): Promise<OrderRow | undefined> {
    const change = async (trx: Kysely<Tables>) => {
      const row = await updateWhere(trx, 'orders', { trx_no: trxNo, status: from }, changes)
        .returningAll()
        .executeTakeFirst();
      if (row)
        await new OrdersRepository(trx).recordStatusChanges([
          {
            trx_no: trxNo,
            from_status: from,
            to_status: row.status,
            reason: changes.failure_reason ?? null,
            at: row.updated_at,
          },
        ]);
      return row;
    };
    return this.db.isTransaction ? change(this.db) : this.db.transaction().execute(change);
  }

  find(q: OrderFilter): Promise<OrderRow[]> {
    const query = whereGiven(this.db.selectFrom('orders').selectAll(), {
      app_id: q.appId,
      trx_no: q.trxNo,
      out_trx_no: q.outTrxNo,
      user_id: q.userId,
      game_role_id: q.roleId,
      status: q.status,
      trx_type: q.trxType,
    });
    return newestFirst(withinWindow(query, 'created_at', q), 'trx_no', q).execute();
  }

  insertSupplement(row: SupplementRow): Promise<SupplementRow> {
    return this.db.insertInto('supplements').values(row).returningAll().executeTakeFirstOrThrow();
  }

  supplement(refundTrxNo: number): Promise<SupplementRow | undefined> {
    return this.db.selectFrom('supplements').selectAll().where('refund_trx_no', '=', refundTrxNo).executeTakeFirst();
  }

  /** The arrears of 4.5: pending supplements of store refunds of each (app, user), in one query for many (answered in the order of `keys`). */
  async pendingSupplementsOf(keys: Array<{ appId: number; userId: string }>): Promise<SupplementRow[][]> {
    const byApp = new Map<number, Set<string>>();
    for (const k of keys) byApp.set(k.appId, (byApp.get(k.appId) ?? new Set()).add(k.userId));
    const rows = await this.db
      .selectFrom('supplements')
      .selectAll()
      .where((eb) =>
        eb.or([...byApp].map(([appId, users]) => eb.and([eb('app_id', '=', appId), eb('user_id', 'in', [...users])]))),
      )
      .where('supply_status', '=', 1)
      .where('channel_type', 'in', [1, 2])
      .orderBy('refund_trx_no')
      .execute();
    const byKey = groupBy(rows, (r) => `${r.app_id}\u0000${r.user_id}`);
    return keys.map((k) => byKey.get(`${k.appId}\u0000${k.userId}`) ?? []);
  }

  listSupplements(q: {
    appId?: number;
    userId?: string;
    supplyStatus?: number;
    before?: number;
    limit: number;
  }): Promise<SupplementRow[]> {
    const query = whereGiven(this.db.selectFrom('supplements').selectAll(), {
      app_id: q.appId,
      user_id: q.userId,
      supply_status: q.supplyStatus,
    });
    return newestFirst(query, 'refund_trx_no', q).execute();
  }

  claimSupplementPayment(refundTrxNo: number, previous: number | null, next: number): Promise<boolean> {
    // The supplement as the caller read it; previous null (no payment yet) is matched by `is null`.
    const asRead = { refund_trx_no: refundTrxNo, supply_status: 1, paying_trx_no: previous };
    return updateOne(this.db, 'supplements', asRead, { paying_trx_no: next });
  }

  async markSupplemented(payingTrxNo: number, at: number): Promise<SupplementRow | undefined> {
    return this.db
      .updateTable('supplements')
      .set({ supply_status: 2, supplied_at: at })
      .where('paying_trx_no', '=', payingTrxNo)
      .where('supply_status', '=', 1)
      .returningAll()
      .executeTakeFirst();
  }

  /** Links an order to the outbox event of its notification (the event id is the notifyId). */
  async linkNotification(trxNo: number, eventId: number): Promise<void> {
    await this.db.updateTable('orders').set({ notify_event_id: eventId }).where('trx_no', '=', trxNo).execute();
  }
}
