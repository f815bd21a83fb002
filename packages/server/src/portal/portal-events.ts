import { AppError } from '../errors/app-error.js';

/** What the portal needs of the delivery engine (delivery/delivery.service.ts). */
export interface DeliveryOps<E extends { appId: number }> {
  get(eventId: number): Promise<E>;
  resend(eventId: number): Promise<unknown>;
}

/** An event of `appId`, or 404 as if it did not exist (another app's event is not the studio's to see). */
export async function eventOfApp<E extends { appId: number }>(
  delivery: DeliveryOps<E>,
  appId: number,
  eventId: number,
): Promise<E> {
  // The delivery engine answers the same 404 for an event that does not exist.
  const event = await delivery.get(eventId);
  if (event.appId !== appId) throw new AppError('NOT_FOUND', `event ${eventId} does not exist`);
  return event;
}

/**
 * Resends events of `appId` (same notifyId and body, fresh signature). All are checked first: one that is not the
 * app's refuses the whole request, and nothing is resent.
 */
export async function resendOfApp<E extends { appId: number }>(
  delivery: DeliveryOps<E>,
  appId: number,
  eventIds: number[],
): Promise<number[]> {
  const unique = [...new Set(eventIds)];
  for (const id of unique) await eventOfApp(delivery, appId, id);
  for (const id of unique) await delivery.resend(id);
  return unique;
}
