import { rowsByKey, rowsIn, updateOne, updateRows } from '../db/by-key.js';
import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { newestFirst, whereGiven, withinWindow } from '../db/list-filter.js';
import type { DeliveryAttemptsTable, OutboxTable } from './outbox.tables.js';

export type EventRow = Selectable<OutboxTable>;
export type AttemptRow = Selectable<DeliveryAttemptsTable>;

export interface EventFilter {
  appId?: number;
  state?: string;
  type?: string;
  /** created_at >= from (ms) */
  from?: number;
  /** created_at < to (ms) */
  to?: number;
  /** Newest first: event ids below this. */
  before?: number;
  limit: number;
}

/**
 * The outbox and its attempt log as the operator and the pull endpoint see them: reads, and the operator's resend and
 * recover (an event due again at once).
 */
export class EventsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(f: EventFilter): Promise<EventRow[]> {
    const q = whereGiven(this.db.selectFrom('outbox').selectAll(), { app_id: f.appId, state: f.state, type: f.type });
    return newestFirst(withinWindow(q, 'created_at', f), 'event_id', f).execute();
  }

  /** The game's own notifications (not partner forwards), oldest first, after a cursor. */
  async forGame(appId: number, o: { since: number; after: number; limit: number }): Promise<EventRow[]> {
    return this.db
      .selectFrom('outbox')
      .selectAll()
      .where('app_id', '=', appId)
      .where('target', 'not in', ['partner', 'apple_consumption'])
      .where('created_at', '>=', o.since)
      .where('event_id', '>', o.after)
      .where('body', '<>', '')
      .orderBy('event_id', 'asc')
      .limit(o.limit)
      .execute();
  }

  /** Events by id, oldest first (the notifications of an order, orders/order-details.ts). */
  byIds(eventIds: number[]): Promise<EventRow[]> {
    return rowsIn(this.db, 'outbox', 'event_id', eventIds);
  }

  async get(eventId: number): Promise<EventRow | undefined> {
    return this.db.selectFrom('outbox').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  }

  async attempts(eventId: number): Promise<AttemptRow[]> {
    return rowsByKey(this.db, 'delivery_attempts', { event_id: eventId }, ['attempt_id']);
  }
  /**
   * Operator resend: the event is due now, whatever its state. Same notifyId
   * and body; fresh Timestamp, Nonce and Signature. A dead event gets one more
   * attempt; a pending one keeps its place in the schedule. False: no such event.
   */
  resend(eventId: number, now: number): Promise<boolean> {
    return updateOne(this.db, 'outbox', { event_id: eventId }, { ...dueAgain(now), delivered_at: null });
  }

  /**
   * After an outage: every dead event of an app that died at or after `since`
   * is due again now (one more attempt each). Returns how many.
   */
  async recoverDead(appId: number, since: number, now: number): Promise<number> {
    return updateRows(this.db, 'outbox', { app_id: appId, state: 'dead', dead_at: ['>=', since] }, dueAgain(now));
  }
}

/** The columns of an event due again at `now` (resend, recover): pending, unclaimed, with one more attempt. */
function dueAgain(now: number) {
  return {
    state: 'pending',
    next_attempt_at: now,
    due_at: now,
    held_reason: null,
    claim_token: null,
    dead_at: null,
  } as const;
}
