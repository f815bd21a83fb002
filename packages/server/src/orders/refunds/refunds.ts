import crypto from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../db/tables.js';
import { Batcher } from '../../db/batcher.js';
import type { Database } from '../../db/database.js';
import type { Dialect } from '../../db/dialect.js';
import { notifyGame } from '../notify-game.js';
import { eventDelivered } from '../../delivery/outbox.js';
import { AppError } from '../../errors/app-error.js';
import { OrderStatus, SupplyStatus, TrxType, isStoreChannel } from '../enums.js';
import { pendingSupplement } from '../notifications.js';
import type { PendingSupplement } from '../notifications.schemas.js';
import { arrearsBatcher, type ArrearsRead } from './arrears-batch.js';
import { OrdersRepository, type ItemRow, type OrderRow, type SupplementRow } from '../orders.repository.js';
import type { OrderService, PlacedOrder } from '../orders.service.js';
import type { Order } from '../orders.view.js';
import type { OrdersTable } from '../orders.tables.js';

/**
 * Store refunds (2.5, 6) and the supplement orders that follow them (2.6, 3,
 * 4.5). A refund is an order of its own (trxType 2, its own trxNo) referring
 * to the payment (originalTrxNo); the paid order keeps status 0.
 */
export class RefundService {
  /**
   * Order placement's arrears reads (refuseStoreOrdersInArrears), one query per batch. A batch starts after its
   * requests arrived, so each answer reflects every change committed before its request.
   */
  readonly #arrears: Batcher<{ appId: number; userId: string }, SupplementRow[]>;
  readonly #arrearsWithNonces: ReturnType<typeof arrearsBatcher>;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
    private readonly orders: OrderService,
    private readonly now: () => number,
    /** The nonces' connection (Database.relaxed), for 4.5's one statement a batch. */
    relaxed: Database<Tables>['relaxed'],
    /** The orders' SQL over db (the module builds it once). */
    private readonly repo: OrdersRepository,
    /** Where the operator's list reads: over Database.reads (the read replica), a moment stale at most. */
    private readonly readsRepo: OrdersRepository = repo,
  ) {
    this.#arrearsWithNonces = arrearsBatcher({ dialect, relaxed });
    this.#arrears = new Batcher((keys) => this.repo.pendingSupplementsOf(keys), {
      maxBatch: 500,
      maxInFlight: dialect.batchesInFlight(),
    });
  }

  /**
   * A completed store refund of a paid order: the refund order, its
   * notification (2.5) and, when the game had granted the items (it accepted
   * the payment notification), a pending supplement (supplyStatus 1), all in
   * one transaction.
   */
  async refund(trxNo: number, bankRefundNo: string | null): Promise<Order> {
    const original = await this.orders.row(trxNo);
    if (original.trx_type !== TrxType.PAYMENT || !isStoreChannel(original.channel)) {
      throw new AppError(
        'REFUND_NOT_ALLOWED',
        `order ${trxNo} is not a store payment (channel ${original.channel}, trxType ${original.trx_type}); only iOS and Android store payments are refunded (6)`,
      );
    }
    if (original.status !== OrderStatus.SUCCEEDED) {
      throw new AppError(
        'REFUND_NOT_ALLOWED',
        `order ${trxNo} is not paid (status ${original.status}); only paid orders are refunded`,
      );
    }
    const now = this.now();
    let refundTrxNo: number;
    try {
      refundTrxNo = await this.db.transaction().execute(async (trx) => {
        const orders = new OrdersRepository(trx);
        const items = await orders.items(original.trx_no);
        const refund = await insertFollowing(orders, original, items, {
          trx_type: TrxType.REFUND,
          out_trx_no: null,
          original_trx_no: original.trx_no,
          status: OrderStatus.SUCCEEDED,
          bank_trx_no: bankRefundNo,
          origin: 'refund',
          created_at: now,
          success_time: now,
        });
        await notifyGame(trx, 'refund', refund, items, now);
        if (await granted(trx, original)) await orders.insertSupplement(supplementOf(refund, original, items, now));
        return refund.trx_no;
      });
    } catch (err) {
      if (!this.dialect.isUniqueViolation(err)) throw err;
      const earlier = await this.repo.refundOf(trxNo);
      throw new AppError(
        'REFUND_NOT_ALLOWED',
        `order ${trxNo} was already refunded (refund order ${earlier?.trx_no ?? '?'})`,
      );
    }
    return this.orders.get(refundTrxNo);
  }

  /** The pending supplements of store refunds of this user (order placement's refuseStoreOrdersInArrears). */
  async arrears(appId: number, userId: string): Promise<PendingSupplement[]> {
    return (await this.#arrears.submit({ appId, userId })).map(pendingSupplement);
  }

  /**
   * 4.5: the pending supplements of store refunds of this user, read in the statement that records the request's
   * nonce (arrears-batch.ts); null when the nonce was used.
   */
  async arrearsRecordingNonce(read: ArrearsRead): Promise<PendingSupplement[] | null> {
    return (await this.#arrearsWithNonces.submit(read))?.map(pendingSupplement) ?? null;
  }

  /**
   * The player pays a pending supplement: a supplement payment order
   * (trxType 1) for the refunded amount, opened at the channel. Paying it
   * makes the supplement supplemented, with no new payment notification
   * (2.5 rule 3). Asking again while one is open answers that one.
   */
  async startSupplementPayment(appId: number, userId: string, tradeNo: number): Promise<PlacedOrder> {
    const supplement = await this.repo.supplement(tradeNo);
    if (!supplement || supplement.app_id !== appId || supplement.user_id !== userId) {
      throw new AppError('NOT_FOUND', `tradeNo ${tradeNo} is not a supplement order of this player`);
    }
    if (supplement.supply_status !== SupplyStatus.PENDING) {
      throw new AppError('ORDER_STATE', `supplement ${tradeNo} was already supplemented`, {
        data: { trxNo: tradeNo, status: supplement.supply_status, requested: SupplyStatus.SUPPLEMENTED },
      });
    }
    if (supplement.paying_trx_no !== null) {
      const open = await this.orders.row(supplement.paying_trx_no);
      if (open.status === OrderStatus.CREATED || open.status === OrderStatus.AWAITING_PAYMENT) {
        return { order: await this.orders.get(open.trx_no), payment: null, paymentStep: null, created: false };
      }
    }
    const refund = await this.orders.row(tradeNo);
    await this.orders.requireChannel(refund.channel, refund.app_id);
    const now = this.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const orders = new OrdersRepository(trx);
      const items = await orders.items(tradeNo);
      const order = await insertFollowing(orders, refund, items, {
        trx_type: TrxType.SUPPLEMENT,
        out_trx_no: `${supplement.out_trade_no}-${crypto.randomBytes(4).toString('hex')}`,
        original_trx_no: tradeNo,
        status: OrderStatus.CREATED,
        bank_trx_no: null,
        origin: 'supplement',
        created_at: now,
        success_time: null,
      });
      // Compare-and-set, so two requests at once cannot both open a payment.
      if (!(await orders.claimSupplementPayment(tradeNo, supplement.paying_trx_no, order.trx_no))) {
        throw new AppError('CONFLICT', `a payment of supplement ${tradeNo} was opened at the same time; ask again`);
      }
      return order;
    });
    return { ...(await this.orders.openPayment(row)), created: true };
  }

  async listSupplements(q: Parameters<OrdersRepository['listSupplements']>[0]): Promise<Array<PendingSupplementAdmin>> {
    return (await this.readsRepo.listSupplements(q)).map(toAdmin);
  }

  /** The supplement as the operator sees it: 2.6 plus owner, state and times. */
  async supplementOf(tradeNo: number): Promise<PendingSupplementAdmin | null> {
    const s = await this.repo.supplement(tradeNo);
    return s ? toAdmin(s) : null;
  }
}

export type PendingSupplementAdmin = Omit<PendingSupplement, 'supplyStatus'> & {
  supplyStatus: number;
  appId: number;
  userId: string;
  originalTrxNo: number;
  payingTrxNo: number | null;
  createdAt: string;
  suppliedAt: string | null;
};

function toAdmin(s: SupplementRow): PendingSupplementAdmin {
  return {
    ...pendingSupplement(s),
    supplyStatus: s.supply_status,
    appId: s.app_id,
    userId: s.user_id,
    originalTrxNo: s.original_trx_no,
    payingTrxNo: s.paying_trx_no,
    createdAt: new Date(s.created_at).toISOString(),
    suppliedAt: s.supplied_at === null ? null : new Date(s.supplied_at).toISOString(),
  };
}

/**
 * The pending supplement (supplyStatus 1, 2.6) a refund of granted items leaves: the refunded amount, owed by the
 * player (3, 4.5).
 */
export function supplementOf(refund: OrderRow, original: OrderRow, items: ItemRow[], now: number): SupplementRow {
  return {
    refund_trx_no: refund.trx_no,
    app_id: refund.app_id,
    user_id: refund.user_id,
    original_trx_no: original.trx_no,
    // A web order's lines have no store SKU: its product code stands in.
    product_id: items[0]!.channel_sku_code || items[0]!.product_code,
    currency: refund.currency,
    out_trade_no: `S${crypto.randomUUID().replaceAll('-', '')}`,
    bank_trade_no: original.bank_trx_no,
    refund_minor: refund.total_minor,
    // One merchant account per channel: the channel id is the channel (docs/orders.md).
    channel_id: refund.channel,
    channel_type: refund.channel,
    platform: refund.platform,
    supply_status: SupplyStatus.PENDING,
    paying_trx_no: null,
    created_at: now,
    supplied_at: null,
  };
}

/** Whether the game granted the items: it accepted the payment notification (4.7: 200 or 204). */
export async function granted(db: Kysely<Tables>, original: OrderRow): Promise<boolean> {
  return original.notify_event_id !== null && (await eventDelivered(db, original.notify_event_id));
}

/**
 * Writes an order that follows another (a payment's refund, a refund's supplement payment) with the other's items,
 * in the caller's transaction: `own` are the columns of its kind, the rest taken over (copyOf).
 */
export function insertFollowing(
  orders: OrdersRepository,
  from: OrderRow,
  items: ItemRow[],
  own: Pick<
    Insertable<OrdersTable>,
    'trx_type' | 'out_trx_no' | 'original_trx_no' | 'status' | 'bank_trx_no' | 'origin' | 'created_at' | 'success_time'
  > & { total_minor?: number },
): Promise<OrderRow> {
  return orders.insertOrder(
    { ...copyOf(from), region: null, request_digest: null, updated_at: own.created_at, ...own },
    items.map(({ product_code, quantity, unit_price_minor, channel_sku_code }) => ({
      product_code,
      quantity,
      unit_price_minor,
      channel_sku_code,
    })),
  );
}

/** The columns a refund or supplement order takes over from the order it follows. */
function copyOf(o: OrderRow) {
  return {
    app_id: o.app_id,
    user_id: o.user_id,
    platform: o.platform,
    channel: o.channel,
    payment_type: o.payment_type,
    currency: o.currency,
    total_minor: o.total_minor,
    client_amount_minor: null,
    client_currency: null,
    client_region: null,
    game_server_id: o.game_server_id,
    game_role_id: o.game_role_id,
    game_ext: o.game_ext,
    merged_receipts: 0,
    sdk_version: null,
    ip_country: null,
    notify_event_id: null,
    failure_reason: null,
  };
}
