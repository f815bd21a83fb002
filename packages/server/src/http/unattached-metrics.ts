import client from 'prom-client';

/**
 * Metrics of the services, which are built before the HTTP server: each is made registered nowhere, and its owner's
 * attach() registers it into the instance's registry (app.metrics) once that exists.
 */

export function counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) {
  return new client.Counter<L>({ name, help, labelNames, registers: [] });
}

export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) {
  return new client.Histogram<L>({ name, help, labelNames, buckets, registers: [] });
}

/** A gauge, set by `collect` when scraped if given. */
export function gauge<L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  collect?: (this: client.Gauge<L>) => void | Promise<void>,
) {
  return new client.Gauge<L>({ name, help, labelNames, registers: [], ...(collect ? { collect } : {}) });
}

/** Registers each metric under its name unless the registry has one of that name (attach may run twice). */
export function attachOnce(registry: client.Registry, metrics: Record<string, client.Metric>): void {
  for (const [name, metric] of Object.entries(metrics))
    if (!registry.getSingleMetric(name)) registry.registerMetric(metric);
}
