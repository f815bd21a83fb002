import type { Kysely } from 'kysely';
import type client from 'prom-client';
import type { Tables } from '../db/tables.js';
import type { AppService } from '../apps/apps.service.js';
import { AppError } from '../errors/app-error.js';
import { enqueueEvent } from './outbox.js';
import type { AttemptRow, EventFilter, EventRow, EventsRepository } from './events.repository.js';
import type { Dispatcher, DispatchLogger } from './dispatcher.js';
import type { DeliveryMetrics } from './metrics.js';
import { testEventBody, type TestEventKind } from './sample-events.js';
import type { DeliveryAttempt, DeliveryEvent } from './delivery.schemas.js';

/**
 * The delivery engine as the rest of the service sees it: the dispatcher
 * (started with the service), the operator's reads and actions, test events.
 */
export class DeliveryService {
  readonly dispatcher: Dispatcher;
  readonly metrics: DeliveryMetrics;
  readonly events: EventsRepository;
  /** The event list's reads: Database.reads (the read replica), a moment stale at most; `get` reads the primary. */
  readonly #listed: EventsRepository;

  readonly #db: Kysely<Tables>;
  readonly #apps: Pick<AppService, 'get'>;
  readonly #now: () => number;

  /** Built by delivery.module.ts. */
  constructor(d: {
    /** The primary: a test event's enqueue transaction. */
    db: Kysely<Tables>;
    events: EventsRepository;
    listed: EventsRepository;
    apps: Pick<AppService, 'get'>;
    dispatcher: Dispatcher;
    metrics: DeliveryMetrics;
    now: () => number;
  }) {
    this.#db = d.db;
    this.events = d.events;
    this.#listed = d.listed;
    this.#apps = d.apps;
    this.dispatcher = d.dispatcher;
    this.metrics = d.metrics;
    this.#now = d.now;
  }

  start(log?: DispatchLogger): void {
    this.dispatcher.start(log);
  }

  stop(): Promise<void> {
    return this.dispatcher.stop();
  }

  attachMetrics(registry: client.Registry): void {
    this.metrics.attach(registry);
  }

  async list(filter: EventFilter): Promise<DeliveryEvent[]> {
    return (await this.#listed.list(filter)).map(toEvent);
  }

  async get(eventId: number): Promise<DeliveryEvent & { attemptLog: DeliveryAttempt[] }> {
    const row = await this.events.get(eventId);
    if (!row) throw new AppError('NOT_FOUND', `event ${eventId} does not exist`);
    return { ...toEvent(row), attemptLog: (await this.events.attempts(eventId)).map(toAttempt) };
  }

  async resend(eventId: number): Promise<DeliveryEvent> {
    if (!(await this.events.resend(eventId, this.#now())))
      throw new AppError('NOT_FOUND', `event ${eventId} does not exist`);
    this.dispatcher.wake();
    return toEvent((await this.events.get(eventId))!);
  }

  async recover(appId: number, since: number): Promise<number> {
    await this.#apps.get(appId); // 404 for an unknown app
    const count = await this.events.recoverDead(appId, since, this.#now());
    if (count > 0) this.dispatcher.wake();
    return count;
  }

  /** A test event through the same outbox, schedule and attempt log as a real one. */
  async sendTestEvent(appId: number, kind: TestEventKind, serverId: string | null): Promise<number> {
    await this.#apps.get(appId);
    const now = this.#now();
    // In a transaction like every enqueue: the row and its body commit together.
    const { eventId } = await this.#db.transaction().execute((trx) =>
      enqueueEvent(
        trx,
        {
          appId,
          type: 'test',
          target: kind === 'cancellation' ? 'cancellation' : 'callback',
          serverId,
          body: (notifyId) => testEventBody(kind, { notifyId, appId, serverId, now }),
        },
        now,
      ),
    );
    return eventId;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toEvent(r: EventRow): DeliveryEvent {
  return {
    eventId: r.event_id,
    appId: r.app_id,
    type: r.type,
    target: r.target,
    serverId: r.server_id,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.state === 'pending' ? iso(r.next_attempt_at) : null,
    createdAt: iso(r.created_at)!,
    deliveredAt: iso(r.delivered_at),
    deadAt: iso(r.dead_at),
    lastError: r.last_error,
    body: r.body,
  };
}

export function toAttempt(r: AttemptRow): DeliveryAttempt {
  return {
    attemptNo: r.attempt_no,
    startedAt: iso(r.started_at)!,
    url: r.url,
    httpStatus: r.http_status,
    latencyMs: r.latency_ms,
    outcome: r.outcome,
    responseBody: r.response_body,
    error: r.error,
  };
}
