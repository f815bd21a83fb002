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
  readonly #queue: client.Gauge<'state'>;

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
  }

  attach(registry: client.Registry): void {
    const metrics: Array<[string, client.Metric]> = [
      ['delivery_attempts_total', this.attempts],
      ['delivery_attempt_duration_seconds', this.attemptDuration],
      ['delivery_latency_seconds', this.deliveryLatency],
      ['delivery_queue_events', this.#queue],
    ];
    for (const [name, m] of metrics) if (!registry.getSingleMetric(name)) registry.registerMetric(m);
  }
}
