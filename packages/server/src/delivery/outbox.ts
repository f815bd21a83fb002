import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import { setEachById } from '../db/batcher.js';
import type { Tables } from '../db/tables.js';
import { currentTraceparent } from '../tracing/tracing.js';
import type { EventType } from './event-types.js';

/** The outbox's event types (event-types.ts, the one list). */
export { EVENT_TYPES, type EventType } from './event-types.js';
/** apple_consumption: Apple's Send Consumption Information, sent by the store-payments sender (issue 27). */
export type EventTarget = 'callback' | 'cancellation' | 'partner' | 'apple_consumption';

/**
 * Emits `enqueued` after every enqueueEvent in this process, so the
 * dispatchers here wake at once instead of at their next poll.
 */
export const outboxSignal = new EventEmitter().setMaxListeners(0);

export interface NewEvent {
  appId: number;
  type: EventType;
  target: EventTarget;
  /** serverId of the order (4.7 callback map); null or absent: `default`. */
  serverId?: string | null;
  /** Builds the body once the event id (the `notifyId`) is known. */
  body: (eventId: number) => unknown;
  /** The trace its delivery attempts join (W3C traceparent); absent: the active span's, if tracing. */
  traceParent?: string | null;
}

/** A new outbox row, due now; `body` is a placeholder until the event id is known. */
function pendingRow(event: NewEvent, body: string, now: number) {
  return {
    app_id: event.appId,
    type: event.type,
    target: event.target,
    server_id: event.serverId ?? null,
    body,
    state: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    delivered_at: null,
    last_error: null,
    due_at: now,
    trace_parent: event.traceParent ?? currentTraceparent(),
  };
}

/**
 * Writes an event to the outbox. Call it with the transaction of the business
 * change that caused the event, so that both commit or neither does (an event
 * can never be lost between the two). The body is serialised here, once: the
 * same bytes are signed and sent on every attempt.
 */
export async function enqueueEvent(
  db: Kysely<Tables>,
  event: NewEvent,
  now: number = Date.now(),
): Promise<{ eventId: number; body: string }> {
  // Empty until its id is known: the claim never takes an event with an empty body.
  const { event_id: eventId } = await db
    .insertInto('outbox')
    .values(pendingRow(event, '', now))
    .returning('event_id')
    .executeTakeFirstOrThrow();
  const body = JSON.stringify(event.body(eventId));
  await db.updateTable('outbox').set({ body }).where('event_id', '=', eventId).execute();
  // Possibly before the caller's transaction commits: the dispatcher looks again shortly after.
  outboxSignal.emit('enqueued');
  return { eventId, body };
}

/**
 * enqueueEvent for many events at once, in two statements whatever their
 * number (a multi-row INSERT, then one UPDATE of the bodies): for group
 * commits, where one transaction stores the changes of many requests. Same
 * rules as enqueueEvent: call it with the business change's transaction.
 * Answers in the order of `events`.
 */
export async function enqueueEvents(
  db: Kysely<Tables>,
  events: NewEvent[],
  now: number = Date.now(),
): Promise<Array<{ eventId: number; body: string }>> {
  if (events.length === 0) return [];
  // Each row carries a placeholder body until its id is known, so the returned ids are matched to
  // the events without relying on the order of RETURNING.
  const rows = await db
    .insertInto('outbox')
    .values(events.map((event, i) => pendingRow(event, `#${i}`, now)))
    .returning(['event_id', 'body'])
    .execute();
  const ids = new Map(rows.map((r) => [r.body, r.event_id]));
  const out = events.map((event, i) => {
    const eventId = ids.get(`#${i}`)!;
    return { eventId, body: JSON.stringify(event.body(eventId)) };
  });
  const bodies = out.map((o) => ({ event_id: o.eventId, body: o.body }));
  await setEachById(db.updateTable('outbox'), 'event_id', { body: 'text' }, bodies).execute();
  outboxSignal.emit('enqueued');
  return out;
}

/**
 * The columns of an outbox row as enqueueEvent writes it (event_id aside), in
 * order: for a batch statement that inserts its events in SQL
 * (orders/consumption/consumption.pg-batch.ts), which must give a value for each.
 */
export const OUTBOX_COLUMNS = Object.keys(
  pendingRow({ appId: 0, type: 'test', target: 'callback', body: () => null }, '', 0),
) as Array<keyof ReturnType<typeof pendingRow>>;

/**
 * Whether the game accepted the event (4.7: 200 or 204), read in the caller's transaction: a refund asks it of the
 * payment notification of the order it refunds (were the items granted?).
 */
export async function eventDelivered(db: Kysely<Tables>, eventId: number): Promise<boolean> {
  const event = await db.selectFrom('outbox').select('state').where('event_id', '=', eventId).executeTakeFirst();
  return event?.state === 'delivered';
}
