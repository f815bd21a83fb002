import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { enqueueEvent } from '../delivery/outbox.js';
import { OrdersRepository, type ItemRow, type OrderRow } from './orders.repository.js';
import { paymentNotification, refundNotification } from './notifications.js';
import { currentTraceparent, inSpan, tracingOn } from '../tracing/tracing.js';

/**
 * Writes the notification of an order (payment 2.4 or refund 2.5) to the
 * outbox, in the caller's transaction, routed by the order's `serverId`
 * (4.7), and links it to the order; the event id is the `notifyId`.
 *
 * With tracing on, the notification belongs to the order's story: a span `notify game` is made a child of the
 * placement's span (the order's trace_parent) and linked to the request that completed the payment, and the event
 * stores it, so the placement, its game calls and every delivery attempt are one trace.
 */
export async function notifyGame(
  trx: Kysely<Tables>,
  type: 'payment' | 'refund',
  order: OrderRow,
  items: ItemRow[],
  now: number,
): Promise<number> {
  if (!tracingOn) return enqueueNotification(trx, type, order, items, now);
  const caller = currentTraceparent();
  return inSpan(
    `notify game ${type}`,
    {
      parent: order.trace_parent ?? caller,
      links: order.trace_parent ? [caller] : [],
      attributes: { 'order.trx_no': order.trx_no, 'game.app_id': order.app_id },
    },
    () => enqueueNotification(trx, type, order, items, now),
  );
}

/** The notification itself (notifyGame without the span). */
const enqueueNotification: typeof notifyGame = async (trx, type, order, items, now) => {
  const build = type === 'payment' ? paymentNotification : refundNotification;
  const { eventId } = await enqueueEvent(
    trx,
    {
      appId: order.app_id,
      type,
      target: 'callback',
      serverId: order.game_server_id,
      body: (notifyId) => build(notifyId, now, order, items),
    },
    now,
  );
  await new OrdersRepository(trx).linkNotification(order.trx_no, eventId);
  return eventId;
};
