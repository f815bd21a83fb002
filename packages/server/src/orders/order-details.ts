import type { DeliveryAttempt } from '../delivery/delivery.schemas.js';
import type { DeliveryService } from '../delivery/delivery.service.js';
import type { OrderService } from './orders.service.js';
import type { Order } from './orders.view.js';
import type { PendingSupplementAdmin, RefundService } from './refunds/refunds.js';
import type { WebRefunds } from './refunds/web-refunds.js';
import { toWebRefundView, type WebRefundView } from './refunds/web-refunds.schemas.js';
import { minorToNumber } from './money.js';
import type { StatusChange } from './status-history.js';

export interface OrderDetails {
  order: Order;
  /** Every status the order took, oldest first (empty for orders placed before migration 0009). */
  statusHistory: StatusChange[];
  /** The refund order of a refunded payment (a web payment's first). */
  refund: Order | null;
  /** Every refund order of the payment, oldest first. */
  refunds: Order[];
  /** How much of a web payment its refunds gave back (orders.refunded_minor). */
  refundedAmount: number;
  /** A web payment's refunds and lost disputes at its provider (refunds/web-refunds.ts). */
  webRefunds: WebRefundView[];
  /** The supplement that followed the refund, when the items had been granted. */
  supplement: PendingSupplementAdmin | null;
  /** Payment and refund notifications of this order (outbox events). */
  notifications: Array<{
    notifyId: number;
    type: string;
    target: string;
    state: string;
    attempts: number;
    createdAt: string;
    deliveredAt: string | null;
    lastError: string | null;
    body: unknown;
    /** Every delivery attempt: when, where, HTTP status, latency, outcome. */
    attemptLog: DeliveryAttempt[];
  }>;
}

/** The orders' services an order's details read. */
export interface OrderDetailsSources {
  orders: OrderService;
  refunds: RefundService;
  webRefunds: WebRefunds;
}

/** The delivery engine's reads of an order's notifications. */
export type OrderDetailsDelivery = Pick<DeliveryService, 'events' | 'get'>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An order with what followed it, for the operator (admin API, CLI). */
export async function orderDetails(
  from: OrderDetailsSources & { delivery: OrderDetailsDelivery },
  trxNo: number,
): Promise<OrderDetails> {
  const row = await from.orders.row(trxNo);
  const order = await from.orders.get(trxNo);
  const refunds = order.trxType === 0 ? await from.orders.refundsOf(trxNo) : [];
  const refund = refunds[0] ?? null;
  // A payment's supplement follows one of its refunds (a web payment's: the dispute it lost).
  const supplementNos =
    order.trxType === 0 ? refunds.map((r) => r.trxNo) : [order.trxType === 2 ? order.trxNo : order.originalTrxNo];
  let supplement: PendingSupplementAdmin | null = null;
  for (const no of supplementNos) if (no !== null && !supplement) supplement = await from.refunds.supplementOf(no);
  const eventIds = [order.notifyId, ...refunds.map((r) => r.notifyId)].filter((x): x is number => x !== null);
  const events = await from.delivery.events.byIds(eventIds);
  return {
    order,
    statusHistory: await from.orders.statusHistory(trxNo),
    refund,
    refunds,
    refundedAmount: minorToNumber(row.refunded_minor, row.currency),
    webRefunds: order.trxType === 0 ? (await from.webRefunds.ofOrder(trxNo)).map(toWebRefundView) : [],
    supplement,
    notifications: await Promise.all(
      events.map(async (e) => ({
        notifyId: e.event_id,
        type: e.type,
        target: e.target,
        state: e.state,
        attempts: e.attempts,
        createdAt: iso(e.created_at)!,
        deliveredAt: iso(e.delivered_at),
        lastError: e.last_error,
        body: JSON.parse(e.body) as unknown,
        attemptLog: (await from.delivery.get(e.event_id)).attemptLog,
      })),
    ),
  };
}
