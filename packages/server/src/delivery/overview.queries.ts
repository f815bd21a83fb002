import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { HOUR_MS, bucketOf, num, type TimeWindow } from '../db/time-buckets.js';

/** Events of one hour (by created_at) by their state now: delivered, pending (retrying) or dead. */
export interface HourlyOutcomes {
  hour: number;
  delivered: number;
  retrying: number;
  dead: number;
}

/**
 * Events created in the window, counted by hour and state: one grouped range scan of the covering index
 * outbox_created (created_at, app_id, state), migration 0019. The same rows as GET /admin/v1/events?state&from&to.
 */
export async function eventsByHour(db: Kysely<Tables>, w: TimeWindow): Promise<HourlyOutcomes[]> {
  let q = db
    .selectFrom('outbox')
    .select([bucketOf('created_at', HOUR_MS).as('bucket'), 'state', sql<number>`count(*)`.as('n')])
    .where('created_at', '>=', w.from)
    .where('created_at', '<', w.to);
  if (w.appId !== undefined) q = q.where('app_id', '=', w.appId);
  const rows = await q.groupBy([bucketOf('created_at', HOUR_MS), 'state']).execute();
  const hours = new Map<number, HourlyOutcomes>();
  for (const r of rows) {
    const hour = num(r.bucket) * HOUR_MS;
    const h = hours.get(hour) ?? { hour, delivered: 0, retrying: 0, dead: 0 };
    if (r.state === 'delivered') h.delivered += num(r.n);
    else if (r.state === 'dead') h.dead += num(r.n);
    else h.retrying += num(r.n);
    hours.set(hour, h);
  }
  return [...hours.values()].sort((a, b) => a.hour - b.hour);
}

/** Upper bounds (ms) of the latency histogram; a percentile is answered as the bound of its bucket. */
export const LATENCY_BOUNDS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000] as const;

export interface DestinationLatency {
  url: string | null;
  attempts: number;
  /** Upper bound of the bucket holding the 50th, 90th and 99th percentile; null when past the last bound. */
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

/**
 * Attempt latency percentiles per destination URL from a histogram counted in SQL (one grouped read over the
 * delivery_attempts_started index, 0012): exact percentiles would sort every latency of the window.
 */
export async function latencyByDestination(db: Kysely<Tables>, w: TimeWindow, top = 10): Promise<DestinationLatency[]> {
  const bucket = sql<number>`case ${sql.join(
    LATENCY_BOUNDS.map((b, i) => sql`when latency_ms <= ${sql.lit(b)} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(LATENCY_BOUNDS.length)} end`;
  let q = db
    .selectFrom('delivery_attempts')
    .select(['url', bucket.as('bucket'), sql<number>`count(*)`.as('n')])
    .where('started_at', '>=', w.from)
    .where('started_at', '<', w.to);
  if (w.appId !== undefined) q = q.where('app_id', '=', w.appId);
  const rows = await q.groupBy(['url', bucket]).execute();
  const byUrl = new Map<string | null, number[]>();
  for (const r of rows) {
    const counts = byUrl.get(r.url) ?? new Array<number>(LATENCY_BOUNDS.length + 1).fill(0);
    counts[num(r.bucket)]! += num(r.n);
    byUrl.set(r.url, counts);
  }
  const out = [...byUrl].map(([url, counts]) => {
    const attempts = counts.reduce((a, b) => a + b, 0);
    return {
      url,
      attempts,
      p50: percentile(counts, attempts, 0.5),
      p90: percentile(counts, attempts, 0.9),
      p99: percentile(counts, attempts, 0.99),
    };
  });
  return out.sort((a, b) => b.attempts - a.attempts).slice(0, top);
}

function percentile(counts: number[], total: number, p: number): number | null {
  const rank = Math.ceil(total * p);
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!;
    if (seen >= rank) return LATENCY_BOUNDS[i] ?? null;
  }
  return null;
}

export interface FailureReason {
  /** delivered never: http_status | timeout | network | refused | no_url */
  outcome: string;
  httpStatus: number | null;
  attempts: number;
}

/** The most frequent reasons of failed attempts in the window (outcome, and the HTTP status for http_status). */
export async function failureReasons(db: Kysely<Tables>, w: TimeWindow, top = 10): Promise<FailureReason[]> {
  let q = db
    .selectFrom('delivery_attempts')
    .select(['outcome', 'http_status', sql<number>`count(*)`.as('n')])
    .where('started_at', '>=', w.from)
    .where('started_at', '<', w.to)
    .where('outcome', '<>', 'delivered');
  if (w.appId !== undefined) q = q.where('app_id', '=', w.appId);
  const rows = await q
    .groupBy(['outcome', 'http_status'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('outcome')
    .limit(top)
    .execute();
  return rows.map((r) => ({ outcome: r.outcome, httpStatus: r.http_status, attempts: num(r.n) }));
}
