import client from 'prom-client';

/** A scrape waits at most this long for the replica: one that does not answer is reported down, /metrics still answers. */
const MEASURE_TIMEOUT_MS = 2000;

/**
 * The read replica's gauges (DATABASE_READ_URL, docs/operations.md "Read replica"), measured on the replica at each
 * scrape: `database_replica_lag_seconds` (how stale the lists and overviews may be) and `database_replica_up`. Nothing
 * is registered without a replica. A replica that cannot answer leaves the lag at its last measured value and sets
 * `database_replica_up` 0: alert on that, as the console's lists answer 503 meanwhile.
 */
export function attachReplicaMetrics(registry: client.Registry, lag: (() => Promise<number>) | null): void {
  if (!lag) return;
  // The two gauges of one scrape share one measurement: the registry collects them in order of registration, the lag
  // first (a fresh measurement), then `up` (the lag's, which it started an instant before).
  let last: Promise<number | null> | undefined;
  const measure = () => {
    let timer: NodeJS.Timeout | undefined;
    last = Promise.race([
      lag(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the replica did not answer in time')), MEASURE_TIMEOUT_MS);
      }),
    ])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    return last;
  };
  registry.registerMetric(
    new client.Gauge({
      name: 'database_replica_lag_seconds',
      help: 'How far the read replica (DATABASE_READ_URL) is behind the primary: now minus the last replayed commit while WAL received is not yet replayed, 0 when it has replayed all it received',
      registers: [],
      async collect() {
        const seconds = await measure();
        if (seconds !== null) this.set(seconds);
      },
    }),
  );
  registry.registerMetric(
    new client.Gauge({
      name: 'database_replica_up',
      help: 'Whether the read replica (DATABASE_READ_URL) answered the last scrape (1) or not (0: the console lists answer 503)',
      registers: [],
      async collect() {
        this.set((await (last ?? measure())) === null ? 0 : 1);
      },
    }),
  );
}
