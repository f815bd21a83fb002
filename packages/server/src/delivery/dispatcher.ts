import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import type { AppRecord, AppService } from '../apps/apps.service.js';
import type { PlatformKeyService } from '../platform-keys/keys.service.js';
import { claimDueEvents, type ClaimedEvent } from './claim.js';
import { writeOutcomes, type Outcome } from './complete.js';
import { releaseClaims, type HeldReason } from './release.js';
import { RESPONSE_KEEP_BYTES, answerExcerpt, type AttemptOutcome } from './attempts.js';
import { AppRateLimiter, KeyedLimiter, LimiterClosedError } from './limits.js';
import type { OutboundHttp, OutboundResult } from './http-client.js';
import { nextAttemptAt, type RetrySchedule } from './schedule.js';
import { targetUrl } from './target.js';
import { outboxSignal } from './outbox.js';
import type { DeliveryMetrics } from './metrics.js';
import { openSpan, serverAddress, tracingOn, type OpenSpan } from '../tracing/tracing.js';

export interface DispatcherOptions {
  schedule: RetrySchedule;
  timeoutMs: number;
  /** Sends in flight per instance. */
  concurrency: number;
  /** Sends in flight per destination host. */
  hostConcurrency: number;
  /** Sends per second per app; 0: unlimited. */
  appRate: number;
  batch: number;
  pollMs: number;
  leaseMs: number;
}

/**
 * What an external sender answers for one attempt: the outbound result, the URL it reached (for the attempt log), and
 * `final` when no later attempt can succeed (the event is then dead at once).
 */
export interface ExternalSendResult {
  url: string;
  result: OutboundResult;
  outcome: AttemptOutcome;
  final?: boolean;
}

/**
 * Sends an event whose target is not a game's URL (a store's API: Apple's Send Consumption Information, issue 27),
 * through the same outbox, claims, retry schedule and attempt log as the games' events.
 */
export type ExternalSender = (event: ClaimedEvent) => Promise<ExternalSendResult>;

export interface DispatchLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How long an event waits when its host's queue is full or its app is over its rate. */
const DEFER_MS = 1000;
/** After a wake-up from an enqueue in an uncommitted transaction, look again this soon. */
const RECHECK_MS = 100;
/** Parsed target URLs kept (the cache is emptied when full). */
const URL_CACHE_SIZE = 1000;
/** Most attempt outcomes written in one transaction. */
const MAX_WRITE_BATCH = 500;
/** How long finished outcomes wait to be written with others. */
const WRITE_DELAY_MS = 20;
/**
 * While the database is away, claims and outcome writes are retried with a doubling pause (from DELIVERY_POLL_MS)
 * up to this: short enough that delivery resumes within seconds of the database's return, long enough not to
 * hammer a database that is coming back up.
 */
const OUTAGE_MAX_PAUSE_MS = 4000;

/**
 * Sends due outbox events to games (4.7, 5.3, 6). One loop claims batches of
 * due events (never more than it can hold); each event is signed and POSTed
 * concurrently within the per-host and global limits; the outcomes are
 * written back in batches (attempt log + new state in one transaction).
 * Delivery is at-least-once: a crash between send and write-back means the
 * claim lapses and the event is sent again.
 */

/** A signature made on admission is used if its slot comes within this time; later, the call is signed again. */
const RESIGN_AFTER_MS = 30_000;
const DELIVERY_HEADERS = { 'content-type': 'application/json', 'user-agent': 'game-platform-delivery/1' } as const;

/**
 * The span of one delivery attempt (tracing on only): a child of the span that created the event (its stored
 * traceparent), so the request that made a notification and every attempt to send it are one trace. The game is
 * sent its traceparent; the 5.3 signature does not cover it (docs/delivery.md).
 */
function attemptSpan(event: ClaimedEvent, url: URL): OpenSpan | null {
  return openSpan(`deliver ${event.type}`, {
    kind: 'client',
    parent: event.traceParent,
    attributes: {
      'delivery.event_id': event.eventId,
      'delivery.type': event.type,
      'delivery.attempt': event.attempts + 1,
      'game.app_id': event.appId,
      ...serverAddress(url.host, url.protocol),
    },
  });
}

function endAttemptSpan(span: OpenSpan, result: OutboundResult, outcome: AttemptOutcome): void {
  if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
  span.setAttribute('delivery.outcome', outcome);
  if (outcome !== 'delivered') span.fail(outcome);
  span.end();
}
export class Dispatcher {
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  /** A wake-up that came while not asleep: the next sleep returns at once. */
  #woken = false;
  #recheck: NodeJS.Timeout | undefined;
  #held = 0;
  readonly #maxHeld: number;
  /**
   * Least room worth a claim. Under load, claiming whenever one event has
   * finished costs a statement per event or two; waiting for half a batch of
   * room keeps claims big while a half batch still waits to be sent.
   */
  readonly #claimMin: number;
  readonly #tasks = new Set<Promise<void>>();
  readonly #hosts: KeyedLimiter;
  readonly #global: KeyedLimiter;
  readonly #rate: AppRateLimiter;
  readonly #urls = new Map<string, URL>();
  #finished: Outcome[] = [];
  #flushScheduled = false;
  /** Events being given back, by delay and reason, until the next tick writes them. */
  readonly #deferred = new Map<string, { events: ClaimedEvent[]; done: Promise<void> }>();
  /** A write is queued that has not taken its batch yet. */
  #flushQueued = false;
  #flushChain: Promise<void> = Promise.resolve();
  #log: DispatchLogger = { warn() {}, error() {} };
  /** Claims that failed in a row because the database is away (0: it answers). */
  #claimFailures = 0;
  /** Outcome writes that failed in a row because the database is away. */
  #writeFailures = 0;
  readonly #onEnqueued = () => this.wake(true);
  readonly #senders = new Map<string, ExternalSender>();

  /** Events of this target go to `sender` instead of a game's URL. */
  registerSender(target: string, sender: ExternalSender): void {
    this.#senders.set(target, sender);
  }

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: Dialect,
    private readonly apps: AppService,
    private readonly keys: PlatformKeyService,
    private readonly http: OutboundHttp,
    private readonly metrics: DeliveryMetrics,
    private readonly opts: DispatcherOptions,
    private readonly now: () => number,
  ) {
    this.#maxHeld = opts.concurrency + opts.batch;
    this.#claimMin = Math.max(1, Math.ceil(opts.batch / 2));
    // A host may hold its sends plus a short queue; more of its events are deferred.
    this.#hosts = new KeyedLimiter(opts.hostConcurrency, opts.hostConcurrency * 2);
    this.#global = new KeyedLimiter(opts.concurrency, Infinity);
    this.#rate = new AppRateLimiter(opts.appRate, now);
  }

  get running(): boolean {
    return this.#running;
  }

  start(log?: DispatchLogger): void {
    if (this.#running) return;
    if (log) this.#log = log;
    this.#running = true;
    outboxSignal.on('enqueued', this.#onEnqueued);
    this.keys.warmSigning();
    this.#loop = this.#run();
  }

  /** Stops claiming, lets sends in flight finish, writes their outcomes, gives back what was not sent. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    outboxSignal.off('enqueued', this.#onEnqueued);
    clearTimeout(this.#recheck);
    this.#hosts.close();
    this.#global.close();
    this.wake(false);
    await this.#loop;
    await Promise.allSettled([...this.#tasks]);
    await this.#flush();
  }

  /** Looks for due events now (and once more shortly, when asked: the enqueue may not be committed yet). */
  wake(recheck = false): void {
    if (this.#wakeUp) this.#wakeUp();
    else this.#woken = true;
    if (recheck && this.#running && !this.#recheck) {
      this.#recheck = setTimeout(() => {
        this.#recheck = undefined;
        this.wake();
      }, RECHECK_MS);
      this.#recheck.unref();
    }
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const room = this.#maxHeld - this.#held;
      let full = false;
      if (room >= this.#claimMin) {
        const limit = Math.min(this.opts.batch, room);
        let claimed: ClaimedEvent[] = [];
        this.#woken = false; // this claim sees everything committed so far
        try {
          claimed = await claimDueEvents(this.db, this.dialect, {
            now: this.now(),
            limit,
            leaseMs: this.opts.leaseMs,
            token: crypto.randomUUID(),
          });
          if (this.#claimFailures > 0)
            this.#log.warn({ failedClaims: this.#claimFailures }, 'delivery: the database answers again; resumed');
          this.#claimFailures = 0;
        } catch (err) {
          if (!this.dialect.isDatabaseUnavailable(err))
            this.#log.error({ err }, 'delivery: claiming due events failed');
          else if (this.#claimFailures === 0)
            this.#log.warn({ err }, 'delivery: the database is unavailable; paused, retrying with backoff');
          if (this.dialect.isDatabaseUnavailable(err)) this.#claimFailures++;
        }
        // Each app of the batch is looked up once, not once per event (a cold cache would query it per event).
        const apps = new Map<number, Promise<AppRecord | null>>();
        for (const event of claimed) {
          let app = apps.get(event.appId);
          if (!app) {
            app = this.apps.resolveByAppId(event.appId);
            app.catch(() => {}); // each delivery awaits it and handles the failure
            apps.set(event.appId, app);
          }
          this.#track(this.#deliver(event, app));
        }
        full = claimed.length === limit;
      }
      if (!this.#running) break;
      // A full batch means more is probably due: go again as soon as there is room.
      if (full && this.#maxHeld - this.#held >= this.#claimMin) continue;
      await this.#sleep(this.#claimFailures > 0 ? this.#outagePause(this.#claimFailures) : this.opts.pollMs);
    }
  }

  /** The pause before the n-th retry while the database is away: DELIVERY_POLL_MS doubled, at most OUTAGE_MAX_PAUSE_MS. */
  #outagePause(failures: number): number {
    return Math.min(OUTAGE_MAX_PAUSE_MS, this.opts.pollMs * 2 ** Math.min(failures - 1, 16));
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = () => {
        this.#wakeUp = undefined;
        done();
      };
    });
  }

  #track(task: Promise<void>): void {
    this.#held++;
    this.#tasks.add(task);
    void task.finally(() => {
      this.#tasks.delete(task);
      this.#held--;
      if (this.#maxHeld - this.#held === this.#claimMin) this.wake();
    });
  }

  async #deliver(event: ClaimedEvent, appLookup: Promise<AppRecord | null>): Promise<void> {
    const external = this.#senders.get(event.target);
    if (external) return this.#sendExternal(event, external);
    try {
      const app = await appLookup;
      const url = app ? targetUrl(app, event.target, event.serverId) : null;
      if (!url) {
        const why = app
          ? `app ${event.appId} has no ${event.target === 'callback' ? `callback URL for serverId ${JSON.stringify(event.serverId ?? 'default')} nor a default` : `${event.target} URL`}`
          : `app ${event.appId} does not exist`;
        return this.#finish(
          event,
          { url: null, started: this.now(), result: { status: null, latencyMs: 0, body: '', error: why } },
          'no_url',
        );
      }
      const parsed = this.#parseUrl(url);
      const wait = this.#rate.take(event.appId);
      if (wait > 0) return await this.#defer(event, wait, 'app_rate');
      if (!this.#hosts.canQueue(parsed.host)) return await this.#defer(event, DEFER_MS, 'host');
      // Signed as soon as it is admitted, not when a slot frees: the events of
      // a claim then reach the signing threads together (one message each way
      // per thread instead of one per event). The wait for a slot is bounded
      // by the host's short queue, so the Timestamp is at most seconds old.
      // 5.3: the exact body bytes are signed and sent; the path is the URL's (no query string, 4.7).
      const call = { method: 'POST', path: parsed.pathname, body: event.body };
      const signedAt = this.now();
      const signed = this.keys.signCall(call);
      signed.catch(() => {}); // awaited below; not unhandled meanwhile
      await this.#hosts.acquire(parsed.host);
      try {
        await this.#global.acquire('');
        try {
          // Slow games ahead in the queues: a signature older than RESIGN_AFTER_MS is made
          // afresh, so the Timestamp a game sees stays far inside its window (300 s in the SDK).
          const headers = this.now() - signedAt > RESIGN_AFTER_MS ? await this.keys.signCall(call) : await signed;
          const started = this.now();
          const span = tracingOn ? attemptSpan(event, parsed) : null;
          const result = await this.http.request({
            method: 'POST',
            url: parsed,
            body: event.body,
            timeoutMs: this.opts.timeoutMs,
            maxBodyBytes: RESPONSE_KEEP_BYTES,
            headers: span
              ? { ...headers, ...DELIVERY_HEADERS, traceparent: span.traceparent }
              : { ...headers, 'content-type': 'application/json', 'user-agent': DELIVERY_HEADERS['user-agent'] },
          });
          const outcome: AttemptOutcome =
            result.failure ?? (result.status === 200 || result.status === 204 ? 'delivered' : 'http_status');
          if (span) endAttemptSpan(span, result, outcome);
          this.#finish(event, { url, started, result }, outcome);
        } finally {
          this.#global.release('');
        }
      } finally {
        this.#hosts.release(parsed.host);
      }
    } catch (err) {
      if (err instanceof LimiterClosedError) return await this.#defer(event, 0, null);
      // Our own fault (no key, database): the claim lapses and the event is retried then.
      this.#log.error({ err, eventId: event.eventId }, 'delivery: sending an event failed');
    }
  }

  async #sendExternal(event: ClaimedEvent, sender: ExternalSender): Promise<void> {
    const started = this.now();
    let sent: ExternalSendResult;
    try {
      sent = await sender(event);
    } catch (err) {
      // The sender's own fault (a database read): retried on the schedule like a network failure.
      sent = {
        url: `external:${event.target}`,
        outcome: 'network',
        result: { status: null, latencyMs: this.now() - started, body: '', error: String(err).slice(0, 500) },
      };
    }
    this.#finish(event, { url: sent.url, started, result: sent.result }, sent.outcome, sent.final === true);
  }

  /** Parsed target URLs: a few per app, used for every event. */
  #parseUrl(url: string): URL {
    let parsed = this.#urls.get(url);
    if (!parsed) {
      if (this.#urls.size >= URL_CACHE_SIZE) this.#urls.clear();
      parsed = new URL(url);
      this.#urls.set(url, parsed);
    }
    return parsed;
  }

  /** Gives an event back to the outbox, tried again in `ms`; the events given back in one tick go in one write. */
  #defer(event: ClaimedEvent, ms: number, reason: HeldReason): Promise<void> {
    const key = `${ms} ${reason}`;
    let group = this.#deferred.get(key);
    if (!group) {
      const events: ClaimedEvent[] = [];
      const done = new Promise<void>((resolve) =>
        setImmediate(() => {
          this.#deferred.delete(key);
          releaseClaims(this.db, events, this.now() + ms, reason)
            .catch((err) =>
              this.#log.warn({ err, events: events.length }, 'delivery: giving back claims failed; they lapse instead'),
            )
            .finally(resolve);
        }),
      );
      group = { events, done };
      this.#deferred.set(key, group);
    }
    group.events.push(event);
    return group.done;
  }

  #finish(
    event: ClaimedEvent,
    a: { url: string | null; started: number; result: OutboundResult },
    outcome: AttemptOutcome,
    final = false,
  ): void {
    const r = a.result;
    const error =
      outcome === 'delivered'
        ? null
        : outcome === 'http_status'
          ? `HTTP ${r.status} is not accepted (only 200 or 204)`
          : (r.error ?? outcome);
    const next =
      outcome === 'delivered' || final ? null : nextAttemptAt(this.opts.schedule, event.attempts + 1, this.now());
    this.#finished.push({
      eventId: event.eventId,
      claimToken: event.claimToken,
      state: outcome === 'delivered' ? 'delivered' : next === null ? 'dead' : 'pending',
      at: next ?? this.now(),
      lastError: error === null ? null : error.slice(0, 1000),
      attempt: {
        event_id: event.eventId,
        app_id: event.appId,
        attempt_no: event.attempts + 1,
        started_at: a.started,
        url: a.url,
        http_status: r.status,
        latency_ms: r.latencyMs,
        outcome,
        response_body: r.status === null ? null : answerExcerpt(r.body),
        error,
      },
    });
    this.metrics.attempts.inc({ outcome });
    if (a.url && !a.url.startsWith('external:') && URL.canParse(a.url)) {
      this.metrics.hostAttempt(this.#parseUrl(a.url).host, outcome === 'delivered');
      this.metrics.attemptDuration.observe({ app_id: String(event.appId) }, r.latencyMs / 1000);
    }
    if (outcome === 'delivered')
      this.metrics.deliveryLatency.observe(
        { app_id: String(event.appId) },
        Math.max(0, this.now() - event.createdAt) / 1000,
      );
    if (this.#finished.length >= MAX_WRITE_BATCH) {
      void this.#flush();
    } else if (!this.#flushScheduled) {
      // Outcomes are written a few ms later, together: one transaction for many
      // events instead of one each. A crash in between only means those events
      // are sent again (at-least-once).
      this.#flushScheduled = true;
      setTimeout(() => void this.#flush(), WRITE_DELAY_MS).unref();
    }
  }

  /**
   * Writes finished attempts back, one transaction per batch, one batch at a
   * time. A batch is taken when its turn comes, so outcomes that finish while
   * a write is under way join the next write instead of queueing up behind it
   * one small transaction each.
   */
  #flush(): Promise<void> {
    this.#flushScheduled = false;
    if (this.#flushQueued) return this.#flushChain;
    this.#flushQueued = true;
    this.#flushChain = this.#flushChain.then(async () => {
      this.#flushQueued = false;
      // Bounded, to stay far below the databases' limits on statement parameters.
      const batch = this.#finished.splice(0, MAX_WRITE_BATCH);
      if (this.#finished.length > 0) void this.#flush();
      if (batch.length === 0) return;
      try {
        await writeOutcomes(this.db, this.dialect, batch);
        this.#writeFailures = 0;
      } catch (err) {
        if (this.dialect.isDatabaseUnavailable(err) && this.#running) {
          // Kept and written when the database is back, while the claims still hold: the game is not sent these
          // events again. (A write that comes after its lease has lapsed changes nothing: complete.ts.)
          this.#writeFailures++;
          this.#finished.unshift(...batch);
          setTimeout(() => void this.#flush(), this.#outagePause(this.#writeFailures)).unref();
          return;
        }
        // The claims lapse and the events are sent again: at-least-once holds.
        this.#log.error({ err, events: batch.length }, 'delivery: writing attempt outcomes failed');
      }
    });
    return this.#flushChain;
  }
}
