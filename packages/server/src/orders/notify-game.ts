import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { enqueueEvent } from '../delivery/outbox.js';
import { ordersRepo, type ItemRow, type OrderRow } from './orders.repository.js';
import { paymentNotification, refundNotification } from './notifications.js';

/**
 * Writes the notification of an order (payment 2.4 or refund 2.5) to the
 * outbox, in the caller's transaction, routed by the order's `serverId`
 * (4.7), and links it to the order; the event id is the `notifyId`.
 */
export async function notifyGame(
  trx: Kysely<Tables>,
  type: 'payment' | 'refund',
  order: OrderRow,
  items: ItemRow[],
  now: number,
): Promise<number> {
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
  await ordersRepo.linkNotification(trx, order.trx_no, eventId);
  return eventId;
}
