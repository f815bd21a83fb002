import { invalidParameter } from '../errors/app-error.js';
import { DAY_MS, type TimeWindow } from '../db/time-buckets.js';
import { parseTime } from '../http/admin-query.js';
import type { HourlyOutcomes, DestinationLatency, FailureReason } from '../delivery/overview.queries.js';
import type { DailyCommerce } from '../orders/overview.queries.js';
import type { GameCallFailures } from '../game-calls/overview.queries.js';
import type { OpenReports } from '../reporting/overview.queries.js';
import type { Overview, OverviewQuery } from './overview.schemas.js';

/** The longest window one overview reads: every series is a range scan of at most this much traffic. */
export const MAX_WINDOW_MS = 31 * DAY_MS;
export const DEFAULT_WINDOW_MS = DAY_MS;

/**
 * Where each series comes from, each read owned by its domain's store. The console hands all of them; a page
 * scoped to some apps (the studio portal) hands its own set, e.g. without `openReports`, and always an appId.
 */
export interface OverviewSources {
  eventsByHour(w: TimeWindow): Promise<HourlyOutcomes[]>;
  latencyByDestination(w: TimeWindow): Promise<DestinationLatency[]>;
  failureReasons(w: TimeWindow): Promise<FailureReason[]>;
  commerceByDay(w: TimeWindow): Promise<DailyCommerce[]>;
  gameCallFailures(w: TimeWindow): Promise<GameCallFailures[]>;
  openReports?(appId?: number): Promise<OpenReports[]>;
}

/** The window of a query: `to` default now, `from` default a day before; from < to, at most 31 days. */
export function parseOverviewQuery(q: OverviewQuery, now: number): TimeWindow {
  const to = q.to === undefined ? now : parseTime('to', q.to);
  const from = q.from === undefined ? to - DEFAULT_WINDOW_MS : parseTime('from', q.from);
  if (from >= to) throw invalidParameter('from', 'must be before to');
  if (to - from > MAX_WINDOW_MS) throw invalidParameter('from', 'the window is at most 31 days');
  return { from, to, ...(q.appId === undefined ? {} : { appId: Number(q.appId) }) };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Reads every series of the window at once and answers them in the wire shape of GET /admin/v1/overview. */
export async function readOverview(sources: OverviewSources, w: TimeWindow): Promise<Overview> {
  const [hours, latency, failureReasons, commerce, gameCallFailures, openReports] = await Promise.all([
    sources.eventsByHour(w),
    sources.latencyByDestination(w),
    sources.failureReasons(w),
    sources.commerceByDay(w),
    sources.gameCallFailures(w),
    sources.openReports ? sources.openReports(w.appId) : Promise.resolve([]),
  ]);
  return {
    from: iso(w.from),
    to: iso(w.to),
    appId: w.appId ?? null,
    notifications: hours.map((h) => {
      const all = h.delivered + h.retrying + h.dead;
      return { ...h, hour: iso(h.hour), successRate: all === 0 ? null : h.delivered / all };
    }),
    latency,
    failureReasons,
    commerce: commerce.map((d) => ({ ...d, day: iso(d.day) })),
    gameCallFailures,
    openReports: openReports.map((r) => ({ ...r, oldestAt: iso(r.oldestAt) })),
  };
}
