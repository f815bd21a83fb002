import client from 'prom-client';
import { attachOnce, counter, gauge, histogram } from '../http/unattached-metrics.js';
import { OneRunAtATime } from '../jobs/periodic.js';

const DAY_MS = 86_400_000;

/** One kind of record retention deletes: its period, and the owning store's batch delete. */
export interface Purger {
  /** The metric label, e.g. `game_calls`. */
  kind: string;
  /** Kept this many days; 0: forever (never purged). */
  days: number;
  /**
   * Deletes up to `limit` records older than `cutoff` (ms) in one short transaction; answers how many, and the rows
   * of other kinds deleted with them (an outbox event's attempts), each counted under its own kind.
   */
  purgeBatch(cutoff: number, limit: number): Promise<number | PurgeResult>;
  /**
   * PostgreSQL's partitioned history (db/partitions.ts): drops the whole partitions older than `cutoff` before any
   * batch, answering the rows they held; the batches then delete what is left older than it.
   */
  dropBefore?(cutoff: number): Promise<number>;
}

/** A batch that deleted rows of other kinds with its own: `also` by kind. */
export interface PurgeResult {
  rows: number;
  also: Record<string, number>;
}

export interface RetentionOptions {
  /** Rows per batch (each batch its own short transaction). */
  batch: number;
  /** A sweep stops starting batches after this long; the rest waits for the next sweep. */
  budgetMs: number;
  /** How often the periodic job sweeps. */
  intervalMs: number;
  /** Run at the start of every sweep (PostgreSQL: create the coming days' partitions). */
  prepare?: () => Promise<void>;
}

/** What one batch did, for tests and the duration histogram. */
export interface BatchReport {
  kind: string;
  rows: number;
  ms: number;
  /** Whole partitions dropped (PostgreSQL), not a batch of deletes. */
  partitions?: boolean;
}

/**
 * Retention (docs/operations.md, "Retention"): every sweep deletes, for each kind with a period, the records older
 * than it, in batches of `batch` rows picked by a range on an indexed time column and deleted by key, each batch one
 * short transaction, until a batch finds nothing or the sweep's time budget is used. Deletes by key are
 * idempotent, so several instances sweeping at once only repeat a little work (no lock is taken). Handed the stores'
 * purge functions and plain values, not the Services container.
 */
export class Retention {
  readonly purged = counter(
    'retention_purged_rows_total',
    'Rows deleted by retention, by kind (delivery_events, delivery_attempts, game_calls, pay_links, admin_actions)',
    ['kind'],
  );
  readonly batchDuration = histogram(
    'retention_batch_duration_seconds',
    'Duration of one retention batch (one delete transaction), by kind',
    ['kind'],
    [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  );
  readonly lastSweep = gauge(
    'retention_last_sweep_timestamp_seconds',
    'When this instance last finished a retention sweep without error (Unix seconds)',
  );
  readonly backlog = gauge(
    'retention_backlog',
    'Kinds whose last sweep stopped at the time budget with purgeable rows left (1), by kind',
    ['kind'],
  );
  readonly #runs = new OneRunAtATime<Record<string, number>>();

  constructor(
    private readonly purgers: Purger[],
    private readonly options: RetentionOptions,
    private readonly now: () => number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /**
   * One sweep now; answers the rows deleted by kind (as the metric counts them). A sweep already running (the timer's) is joined, not doubled.
   * `onBatch` sees every batch (tests count and time them).
   */
  sweep(onBatch?: (b: BatchReport) => void): Promise<Record<string, number>> {
    return this.#runs.run(() => this.#sweep(onBatch));
  }

  async #sweep(onBatch?: (b: BatchReport) => void): Promise<Record<string, number>> {
    const started = this.clock();
    const now = this.now();
    const out: Record<string, number> = {};
    await this.options.prepare?.();
    for (const p of this.purgers) {
      if (p.days <= 0) continue;
      const cutoff = now - p.days * DAY_MS;
      let total = 0;
      let more = true;
      if (p.dropBefore) {
        const t0 = this.clock();
        const rows = await p.dropBefore(cutoff);
        this.batchDuration.observe({ kind: p.kind }, (this.clock() - t0) / 1000);
        if (rows > 0) this.purged.inc({ kind: p.kind }, rows);
        onBatch?.({ kind: p.kind, rows, ms: this.clock() - t0, partitions: true });
        total += rows;
      }
      while (more && this.clock() - started < this.options.budgetMs) {
        const t0 = this.clock();
        const result = await p.purgeBatch(cutoff, this.options.batch);
        const ms = this.clock() - t0;
        const rows = typeof result === 'number' ? result : result.rows;
        this.batchDuration.observe({ kind: p.kind }, ms / 1000);
        if (rows > 0) this.purged.inc({ kind: p.kind }, rows);
        // Every row deleted is counted under its own kind, also those deleted with another's (answered apart).
        if (typeof result !== 'number')
          for (const [kind, n] of Object.entries(result.also)) {
            if (n > 0) this.purged.inc({ kind }, n);
            out[kind] = (out[kind] ?? 0) + n;
          }
        onBatch?.({ kind: p.kind, rows, ms });
        total += rows;
        // Until a batch finds nothing: a short one may only mean another instance took part of it.
        more = rows > 0;
      }
      this.backlog.set({ kind: p.kind }, more ? 1 : 0);
      out[p.kind] = (out[p.kind] ?? 0) + total;
    }
    this.lastSweep.set(Date.now() / 1000);
    return out;
  }

  /** The periodic job (boot.ts): a sweep every intervalMs, unref'd, never overlapping itself; errors to onError. */
  start(onError: (err: unknown) => void): NodeJS.Timeout | null {
    return this.#runs.every(this.options.intervalMs, () => this.#sweep(), onError);
  }

  /** Registers the metrics into the instance's registry (app.metrics). */
  attach(registry: client.Registry): void {
    attachOnce(registry, {
      retention_purged_rows_total: this.purged,
      retention_batch_duration_seconds: this.batchDuration,
      retention_last_sweep_timestamp_seconds: this.lastSweep,
      retention_backlog: this.backlog,
    });
  }
}
