import client from 'prom-client';
import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';

/**
 * The delivery engine's Prometheus metrics. The engine lives in the services,
 * built before the HTTP server; attach() registers them into the instance's
 * registry (app.metrics) once it exists.
 */
export class DeliveryMetrics {
  readonly attempts = new client.Counter({
    name: 'delivery_attempts_total',
    help: 'Delivery attempts to games, by outcome (delivered, http_status, timeout, network, refused, no_url)',
    labelNames: ['outcome'] as const,
    registers: [],
  });
  readonly attemptDuration = new client.Histogram({
    name: 'delivery_attempt_duration_seconds',
    help: 'Duration of one delivery attempt (the HTTP exchange), by app',
    labelNames: ['app_id'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  });
  readonly deliveryLatency = new client.Histogram({
    name: 'delivery_latency_seconds',
    help: 'From enqueue to accepted delivery, by app',
    labelNames: ['app_id'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 7200, 43200, 86400, 345600],
    registers: [],
  });
  /** Attempts by destination host and result, for a failure rate per host (docs/operations.md#alerts). */
  readonly hostAttempts = new client.Counter({
    name: 'delivery_host_attempts_total',
    help: 'Delivery attempts by destination host and result (delivered, failed)',
    labelNames: ['host', 'result'] as const,
    registers: [],
  });
  /** The labelled series by host and result, made once each (prom-client hashes a label object on every inc). */
  readonly #hostSeries = new Map<string, client.Counter.Internal>();
  readonly #queue: client.Gauge<'state'>;
  readonly #oldestDue: client.Gauge;
  readonly #deadByApp: client.Gauge<'app_id'>;

  constructor(db: Kysely<Tables>, now: () => number) {
    this.#queue = new client.Gauge({
      name: 'delivery_queue_events',
      help: 'Outbox events: pending (queue depth), due (pending and due now), dead',
      labelNames: ['state'] as const,
      registers: [],
      async collect() {
        const counts = await db
          .selectFrom('outbox')
          .select((eb) => [
            eb.fn.countAll<number>().filterWhere('state', '=', 'pending').as('pending'),
            eb.fn
              .countAll<number>()
              .filterWhere((w) => w.and([w('state', '=', 'pending'), w('next_attempt_at', '<=', now())]))
              .as('due'),
            eb.fn.countAll<number>().filterWhere('state', '=', 'dead').as('dead'),
          ])
          .where('state', 'in', ['pending', 'dead'])
          .executeTakeFirstOrThrow();
        this.set({ state: 'pending' }, Number(counts.pending));
        this.set({ state: 'due' }, Number(counts.due));
        this.set({ state: 'dead' }, Number(counts.dead));
      },
    });
    [this.#oldestDue, this.#deadByApp] = this.#alertGauges(db, now);
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

  /** Read when scraped: an index range on (state, next_attempt_at) and the dead rows, not the whole outbox. */
  #alertGauges(db: Kysely<Tables>, now: () => number): [client.Gauge, client.Gauge<'app_id'>] {
    const oldestDue = new client.Gauge({
      name: 'delivery_oldest_due_age_seconds',
      help: 'Age of the oldest pending event that is due (0 when none): how far delivery is behind',
      registers: [],
      async collect() {
        const t = now();
        const row = await db
          .selectFrom('outbox')
          .select((eb) => eb.fn.min<number>('next_attempt_at').as('oldest'))
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', t)
          .executeTakeFirst();
        this.set(row?.oldest == null ? 0 : Math.max(0, (t - Number(row.oldest)) / 1000));
      },
    });
    const deadByApp = new client.Gauge({
      name: 'delivery_dead_events',
      help: 'Dead events (retries exhausted, not recovered) by app',
      labelNames: ['app_id'] as const,
      registers: [],
      async collect() {
        const rows = await db
          .selectFrom('outbox')
          .select((eb) => ['app_id', eb.fn.countAll<number>().as('n')])
          .where('state', '=', 'dead')
          .groupBy('app_id')
          .execute();
        // An app whose dead events were recovered drops to 0, not to its last figure.
        this.reset();
        for (const r of rows) this.set({ app_id: String(r.app_id) }, Number(r.n));
      },
    });
    return [oldestDue, deadByApp];
  }

  attach(registry: client.Registry): void {
    const metrics: Array<[string, client.Metric]> = [
      ['delivery_attempts_total', this.attempts],
      ['delivery_attempt_duration_seconds', this.attemptDuration],
      ['delivery_latency_seconds', this.deliveryLatency],
      ['delivery_queue_events', this.#queue],
      ['delivery_oldest_due_age_seconds', this.#oldestDue],
      ['delivery_dead_events', this.#deadByApp],
      ['delivery_host_attempts_total', this.hostAttempts],
    ];
    for (const [name, m] of metrics) if (!registry.getSingleMetric(name)) registry.registerMetric(m);
  }
}
