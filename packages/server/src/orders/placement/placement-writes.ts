import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { groupBy } from '../../db/group-by.js';
import { Batcher, setEachById } from '../../db/batcher.js';
import type { Dialect } from '../../db/dialect.js';
import { OrderStatus } from '../enums.js';
import { OrdersRepository, type ItemRow, type OrderRow } from '../orders.repository.js';
import type { OrderItemsTable, OrdersTable } from '../orders.tables.js';
import { creation } from '../status-history.js';

export type NewItem = Omit<OrderItemsTable, 'trx_no' | 'line_no'>;

/** What creating an order gave: the row, or `null` when another order already holds its (appId, outTrxNo). */
export type Created = { row: OrderRow; items: ItemRow[] } | null;

/**
 * The statements of order placement, grouped across concurrent placements
 * (db/batcher.ts): one query looks up the outTrxNo of many requests; one
 * transaction creates many orders (multi-row inserts, `ON CONFLICT DO
 * NOTHING` on the (appId, outTrxNo) key, so a duplicate is told apart per
 * order and cannot fail the others); one UPDATE opens many at the channel.
 * Creating and opening write the orders' status history (OrdersRepository.recordStatusChanges)
 * in the same transaction. Each request goes on only after its batch committed.
 */
export class PlacementWrites {
  readonly #lookup: Batcher<{ appId: number; outTrxNo: string }, OrderRow | undefined>;
  readonly #create: Batcher<{ order: Insertable<OrdersTable>; items: NewItem[] }, Created>;
  readonly #open: Batcher<{ trxNo: number; bankTrxNo: string | null; at: number }, OrderRow | undefined>;

  constructor(
    private readonly db: Kysely<Tables>,
    dialect: Dialect,
  ) {
    const maxInFlight = dialect.batchesInFlight();
    this.#lookup = new Batcher((keys) => this.#lookupAll(keys), { maxBatch: 200, maxInFlight });
    // When a batch fails as a whole, each order is tried alone, so one cannot fail the others.
    this.#create = new Batcher((orders) => this.#createAll(orders), { maxBatch: 200, maxInFlight, retryAlone: true });
    this.#open = new Batcher((opens) => this.#openAll(opens), { maxBatch: 200, maxInFlight });
  }

  /** The order of (appId, outTrxNo), if any. */
  byOutTrxNo(appId: number, outTrxNo: string): Promise<OrderRow | undefined> {
    return this.#lookup.submit({ appId, outTrxNo });
  }

  /** Creates the order and its items in a transaction shared with concurrent placements. */
  create(order: Insertable<OrdersTable>, items: NewItem[]): Promise<Created> {
    return this.#create.submit({ order, items });
  }

  /** 1 -> 2 (compare-and-set): the row after the change, or undefined when the order was no longer created. */
  open(trxNo: number, bankTrxNo: string | null, at: number): Promise<OrderRow | undefined> {
    return this.#open.submit({ trxNo, bankTrxNo, at });
  }

  async #lookupAll(keys: Array<{ appId: number; outTrxNo: string }>): Promise<Array<OrderRow | undefined>> {
    const byApp = groupBy(
      keys,
      (k) => k.appId,
      (k) => k.outTrxNo,
    );
    const rows = await this.db
      .selectFrom('orders')
      .selectAll()
      .where((eb) =>
        eb.or([...byApp].map(([appId, nos]) => eb.and([eb('app_id', '=', appId), eb('out_trx_no', 'in', nos)]))),
      )
      .execute();
    const found = new Map(rows.map((r) => [`${r.app_id}\u0000${r.out_trx_no}`, r]));
    return keys.map((k) => found.get(`${k.appId}\u0000${k.outTrxNo}`));
  }

  async #createAll(batch: Array<{ order: Insertable<OrdersTable>; items: NewItem[] }>): Promise<Created[]> {
    // The same outTrxNo twice in one batch (concurrent twins): only the first is inserted, the others lose as on conflict.
    const keyOf = (o: Insertable<OrdersTable>) => `${o.app_id}\u0000${o.out_trx_no}`;
    const first = new Map<string, number>();
    batch.forEach((b, i) => {
      if (!first.has(keyOf(b.order))) first.set(keyOf(b.order), i);
    });
    const created = await this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .insertInto('orders')
        .values([...first.values()].map((i) => batch[i]!.order))
        .onConflict((oc) => oc.columns(['app_id', 'out_trx_no']).doNothing())
        .returningAll()
        .execute();
      const byKey = new Map(rows.map((r) => [`${r.app_id}\u0000${r.out_trx_no}`, r]));
      const items: ItemRow[] = [];
      const result = new Map<number, Created>();
      for (const [key, i] of first) {
        const row = byKey.get(key);
        if (!row) continue;
        const own = batch[i]!.items.map((it, n) => ({ ...it, trx_no: row.trx_no, line_no: n + 1 }));
        items.push(...own);
        result.set(i, { row, items: own });
      }
      if (items.length > 0) await trx.insertInto('order_items').values(items).execute();
      await new OrdersRepository(trx).recordStatusChanges(rows.map(creation));
      return result;
    });
    return batch.map((_, i) => created.get(i) ?? null);
  }

  async #openAll(
    batch: Array<{ trxNo: number; bankTrxNo: string | null; at: number }>,
  ): Promise<Array<OrderRow | undefined>> {
    const rows = await this.db.transaction().execute(async (trx) => {
      const opening = batch.map((b) => ({ trx_no: b.trxNo, bank_trx_no: b.bankTrxNo, updated_at: b.at }));
      const types = { bank_trx_no: 'text', updated_at: 'bigint' } as const;
      const open = trx.updateTable('orders').set({ status: OrderStatus.AWAITING_PAYMENT });
      const opened = await setEachById(open, 'trx_no', types, opening)
        .where('status', '=', OrderStatus.CREATED)
        .returningAll()
        .execute();
      await new OrdersRepository(trx).recordStatusChanges(
        opened.map((r) => ({
          trx_no: r.trx_no,
          from_status: OrderStatus.CREATED,
          to_status: r.status,
          reason: null,
          at: r.updated_at,
        })),
      );
      return opened;
    });
    const byTrxNo = new Map(rows.map((r) => [r.trx_no, r]));
    return batch.map((b) => byTrxNo.get(b.trxNo));
  }
}
