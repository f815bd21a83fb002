import client from 'prom-client';
import { attachOnce, counter, gauge, histogram } from '../http/unattached-metrics.js';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';

/**
 * The delivery engine's Prometheus metrics. The engine lives in the services,
 * built before the HTTP server; attach() registers them into the instance's
 * registry (app.metrics) once it exists.
 */
export class DeliveryMetrics {
  readonly attempts = counter(
    'delivery_attempts_total',
    'Delivery attempts to games, by outcome (delivered, http_status, timeout, network, refused, no_url)',
    ['outcome'],
  );
  readonly attemptDuration = histogram(
    'delivery_attempt_duration_seconds',
    'Duration of one delivery attempt (the HTTP exchange), by app',
    ['app_id'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  readonly deliveryLatency = histogram(
    'delivery_latency_seconds',
    'From enqueue to accepted delivery, by app',
    ['app_id'],
    [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 7200, 43200, 86400, 345600],
  );
  /** Attempts by destination host and result, for a failure rate per host (docs/operations.md#alerts). */
  readonly hostAttempts = counter(
    'delivery_host_attempts_total',
    'Delivery attempts by destination host and result (delivered, failed)',
    ['host', 'result'],
  );
  /** The labelled series by host and result, made once each (prom-client hashes a label object on every inc). */
  readonly #hostSeries = new Map<string, client.Counter.Internal>();
  readonly #queue: client.Gauge<'state'>;
  readonly #oldestDue: client.Gauge;
  readonly #held: client.Gauge<'reason'>;
  readonly #deadByApp: client.Gauge<'app_id'>;

  constructor(db: Kysely<Tables>, now: () => number) {
    const scan = queueScan(db, now);
    this.#queue = queueGauge(
      scan,
      'delivery_queue_events',
      'Outbox events: pending (queue depth), due (pending and due now, whatever holds them back: waiting for a host or rate limit, in flight, or given back), dead',
      'state',
      (q) => ({ pending: q.pending, due: q.due, dead: q.dead }),
    );
    this.#oldestDue = queueGauge(
      scan,
      'delivery_oldest_due_age_seconds',
      'How long the oldest event that should have been sent by now has waited since it fell due (0 when none), whatever holds it back (host concurrency, app rate, a retry that is due): how far delivery is behind',
      null,
      (q) => (q.oldestDue === null ? 0 : Math.max(0, (q.at - q.oldestDue) / 1000)),
    );
    this.#held = queueGauge(
      scan,
      'delivery_held_events',
      'Due events last handed back without an attempt by a limit, by reason: host (DELIVERY_HOST_CONCURRENCY: the game host is saturated), app_rate (DELIVERY_APP_RATE)',
      'reason',
      (q) => ({ host: q.heldHost, app_rate: q.heldRate }),
    );
    this.#deadByApp = deadByAppGauge(db);
  }

  /** Counts one attempt to `host` (hosts are few: the games' callback hosts). */
  hostAttempt(host: string, delivered: boolean): void {
    const key = `${delivered ? 'd' : 'f'}${host}`;
    let series = this.#hostSeries.get(key);
    if (!series) {
      series = this.hostAttempts.labels({ host, result: delivered ? 'delivered' : 'failed' });
      this.#hostSeries.set(key, series);
    }
    series.inc();
  }

  attach(registry: client.Registry): void {
    attachOnce(registry, {
      delivery_attempts_total: this.attempts,
      delivery_attempt_duration_seconds: this.attemptDuration,
      delivery_latency_seconds: this.deliveryLatency,
      delivery_queue_events: this.#queue,
      delivery_oldest_due_age_seconds: this.#oldestDue,
      delivery_held_events: this.#held,
      delivery_dead_events: this.#deadByApp,
      delivery_host_attempts_total: this.hostAttempts,
    });
  }
}

interface QueueScan {
  at: number;
  pending: number;
  due: number;
  dead: number;
  oldestDue: number | null;
  heldHost: number;
  heldRate: number;
}

/**
 * The queue's figures, read when scraped, in one aggregate over the pending and dead events (the three gauges that
 * use it share one read per scrape). An event is due from its due_at (migration 0023), which claims and limits do not
 * move: an event waiting for its host or its app's rate, in flight, or handed back a second ahead is still due and
 * ages, so a slow game or a throttled app shows here. No index is added for it: the aggregate reads the rows that the
 * pending count already read.
 */
function queueScan(db: Kysely<Tables>, now: () => number): () => Promise<QueueScan> {
  let last: Promise<QueueScan> | undefined;
  let lastAt = 0;
  return () => {
    const t = now();
    // One scrape collects the three gauges back to back: they share the read (and the instant it was made).
    if (last && t - lastAt < SCAN_REUSE_MS) return last;
    lastAt = t;
    last = (async () => {
      const pendingDue = (w: ExpressionBuilder<Tables, 'outbox'>) =>
        w.and([w('state', '=', 'pending'), w('due_at', '<=', t)]);
      const row = await db
        .selectFrom('outbox')
        .select((eb) => [
          eb.fn.countAll<number>().filterWhere('state', '=', 'pending').as('pending'),
          eb.fn.countAll<number>().filterWhere(pendingDue).as('due'),
          eb.fn.countAll<number>().filterWhere('state', '=', 'dead').as('dead'),
          eb.fn.min<number>('due_at').filterWhere(pendingDue).as('oldest'),
          eb.fn
            .countAll<number>()
            .filterWhere((w) => w.and([pendingDue(w), w('held_reason', '=', 'host')]))
            .as('host'),
          eb.fn
            .countAll<number>()
            .filterWhere((w) => w.and([pendingDue(w), w('held_reason', '=', 'app_rate')]))
            .as('rate'),
        ])
        .where('state', 'in', ['pending', 'dead'])
        .executeTakeFirstOrThrow();
      return {
        at: t,
        pending: Number(row.pending),
        due: Number(row.due),
        dead: Number(row.dead),
        oldestDue: row.oldest == null ? null : Number(row.oldest),
        heldHost: Number(row.host),
        heldRate: Number(row.rate),
      };
    })();
    last.catch(() => {
      last = undefined;
    });
    return last;
  };
}

/**
 * A gauge set from the queue read when scraped: one figure, or one a value of its label. When the database does not
 * answer, the gauge has no series this scrape (not a stale figure), and /metrics still answers, so the request
 * counters that make DatabaseUnavailable and ServerErrors fire are scraped during the outage they report.
 */
function queueGauge<L extends string>(
  scan: () => Promise<QueueScan>,
  name: string,
  help: string,
  label: L | null,
  figures: (q: QueueScan) => number | Record<string, number>,
): client.Gauge<L> {
  return gauge<L>(name, help, label === null ? [] : [label], async function () {
    let q: QueueScan;
    try {
      q = await scan();
    } catch {
      this.reset();
      return;
    }
    const value = figures(q);
    if (typeof value === 'number') this.set(value);
    else for (const [v, n] of Object.entries(value)) this.set({ [label!]: v } as Partial<Record<L, string>>, n);
  });
}

/** Reuse of one queue read by the gauges of the same scrape. */
const SCAN_REUSE_MS = 250;

/** Dead events by app, read when scraped from the partial index of dead events. */
function deadByAppGauge(db: Kysely<Tables>): client.Gauge<'app_id'> {
  return gauge(
    'delivery_dead_events',
    'Dead events (retries exhausted, not recovered) by app',
    ['app_id'],
    async function () {
      const rows = await db
        .selectFrom('outbox')
        .select((eb) => ['app_id', eb.fn.countAll<number>().as('n')])
        .where('state', '=', 'dead')
        .groupBy('app_id')
        .execute()
        .catch(() => null);
      if (!rows) {
        this.reset();
        return;
      }
      // An app whose dead events were recovered drops to 0, not to its last figure.
      this.reset();
      for (const r of rows) this.set({ app_id: String(r.app_id) }, Number(r.n));
    },
  );
}
