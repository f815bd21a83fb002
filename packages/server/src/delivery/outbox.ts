import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
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
 * SQLite's group commit (PostgreSQL's batches write their events in their own statement: consumption.pg-batch.ts):
 * the first event id free for enqueueEvents, so that a batch can name its events before it writes them (a notice's
 * link to its forward). Call it inside the transaction that then enqueues them: SQLite lets one writer at a time, and
 * in WAL mode a transaction whose read is overtaken by another writer's commit fails to write (SQLITE_BUSY_SNAPSHOT)
 * rather than use a taken id. AUTOINCREMENT never reuses an id; ids left unused (a notice stored before) stay gaps.
 */
export async function nextEventId(db: Kysely<Tables>): Promise<number> {
  const { rows } = await sql<{ next: number }>`
    select max(coalesce((select seq from sqlite_sequence where name = 'outbox'), 0),
               coalesce((select max(event_id) from outbox), 0)) + 1 as next`.execute(db);
  return Number(rows[0]!.next);
}

/**
 * enqueueEvent for many events at once on SQLite, with the ids nextEventId gave (each distinct, from it on): one
 * multi-row INSERT with the final bodies, for group commits, where one transaction stores the changes of many
 * requests. Same rules as enqueueEvent: call it with the business change's transaction. Before ids were given, this
 * inserted placeholders and updated the bodies once the ids came back: the 4.6 rate on SQLite 0.51x -> 0.56-0.63x of
 * its ceiling without that update and the notices' link update (issue 44).
 */
export async function enqueueEvents(
  db: Kysely<Tables>,
  events: Array<{ eventId: number; event: NewEvent }>,
  now: number = Date.now(),
): Promise<Array<{ eventId: number; body: string }>> {
  if (events.length === 0) return [];
  const out = events.map(({ eventId, event }) => ({ eventId, body: JSON.stringify(event.body(eventId)) }));
  await db
    .insertInto('outbox')
    .values(events.map(({ eventId, event }, i) => ({ event_id: eventId, ...pendingRow(event, out[i]!.body, now) })))
    .execute();
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
