import type { DeliveryAttempt } from '../delivery/delivery.schemas.js';
import type { DeliveryService } from '../delivery/delivery.service.js';
import type { OrderService } from './orders.service.js';
import type { Order } from './orders.view.js';
import type { PendingSupplementAdmin, RefundService } from './refunds/refunds.js';
import type { StatusChange } from './status-history.js';

export interface OrderDetails {
  order: Order;
  /** Every status the order took, oldest first (empty for orders placed before migration 0009). */
  statusHistory: StatusChange[];
  /** The refund order of a refunded payment. */
  refund: Order | null;
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

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An order with what followed it, for the operator (admin API, CLI). */
export async function orderDetails(
  from: { orders: OrderService; refunds: RefundService; delivery: DeliveryService },
  trxNo: number,
): Promise<OrderDetails> {
  const order = await from.orders.get(trxNo);
  const refund = order.trxType === 0 ? await from.orders.refundOf(trxNo) : null;
  const supplementNo =
    refund?.trxNo ?? (order.trxType === 2 ? order.trxNo : order.trxType === 1 ? order.originalTrxNo : null);
  const supplement = supplementNo === null ? null : await from.refunds.supplementOf(supplementNo);
  const eventIds = [order.notifyId, refund?.notifyId ?? null].filter((x): x is number => x !== null);
  const events = await from.delivery.events.byIds(eventIds);
  return {
    order,
    statusHistory: await from.orders.statusHistory(trxNo),
    refund,
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
