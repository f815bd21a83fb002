import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { eventsByHour, failureReasons, latencyByDestination } from '../delivery/overview.queries.js';
import { commerceByDay } from '../orders/overview.queries.js';
import { gameCallFailures } from '../game-calls/overview.queries.js';
import { openReportsByApp } from '../reporting/overview.queries.js';
import type { OverviewSources } from './overview.service.js';

export { overviewRoutes } from './overview.routes.js';
export type { OverviewSources } from './overview.service.js';

/**
 * The overview reads every domain's own series and writes nothing: it sits above the domains whose queries it
 * joins (delivery, orders, game calls, reporting), and nothing below imports it. The portal reads the studio's set.
 */
export interface OverviewDomain {
  /** Every series of the platform (the operator console's set). */
  platform: OverviewSources;
  /** A studio's overview (the portal): every series but the open report queue, which is the moderators' business. */
  studio: OverviewSources;
}

/** Builds the overview's sources over `reads` (Database.reads: the replica when there is one). */
export function createOverview(reads: Kysely<Tables>): OverviewDomain {
  const platform: OverviewSources = {
    eventsByHour: (w) => eventsByHour(reads, w),
    latencyByDestination: (w) => latencyByDestination(reads, w),
    failureReasons: (w) => failureReasons(reads, w),
    commerceByDay: (w) => commerceByDay(reads, w),
    gameCallFailures: (w) => gameCallFailures(reads, w),
    openReports: (appId) => openReportsByApp(reads, appId),
  };
  const { openReports: _operatorsOnly, ...studio } = platform;
  return { platform, studio };
}
