import type { Kysely } from 'kysely';
import type client from 'prom-client';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import type { AppService } from '../apps/apps.service.js';
import type { PlatformKeyService } from '../platform-keys/keys.service.js';
import { AppError } from '../errors/app-error.js';
import { enqueueEvent } from './outbox.js';
import { resendEvent } from './resend.js';
import { recoverDeadEvents } from './recover.js';
import { EventsRepository, type AttemptRow, type EventFilter, type EventRow } from './events.repository.js';
import { Dispatcher, type DispatchLogger, type DispatcherOptions } from './dispatcher.js';
import type { OutboundHttp } from './http-client.js';
import { DeliveryMetrics } from './metrics.js';
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

  constructor(
    private readonly db: Kysely<Tables>,
    dialect: Dialect,
    private readonly apps: AppService,
    keys: PlatformKeyService,
    http: OutboundHttp,
    opts: DispatcherOptions,
    private readonly now: () => number,
    reads: Kysely<Tables> = db,
  ) {
    this.metrics = new DeliveryMetrics(db, now);
    this.events = new EventsRepository(db);
    this.#listed = new EventsRepository(reads);
    this.dispatcher = new Dispatcher(db, dialect, apps, keys, http, this.metrics, opts, now);
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
    if (!(await resendEvent(this.db, eventId, this.now())))
      throw new AppError('NOT_FOUND', `event ${eventId} does not exist`);
    this.dispatcher.wake();
    return toEvent((await this.events.get(eventId))!);
  }

  async recover(appId: number, since: number): Promise<number> {
    await this.apps.get(appId); // 404 for an unknown app
    const count = await recoverDeadEvents(this.db, appId, since, this.now());
    if (count > 0) this.dispatcher.wake();
    return count;
  }

  /** A test event through the same outbox, schedule and attempt log as a real one. */
  async sendTestEvent(appId: number, kind: TestEventKind, serverId: string | null): Promise<number> {
    await this.apps.get(appId);
    const now = this.now();
    // In a transaction like every enqueue: the row and its body commit together.
    const { eventId } = await this.db.transaction().execute((trx) =>
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
