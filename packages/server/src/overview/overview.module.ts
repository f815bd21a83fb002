import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { eventsByHour, failureReasons, latencyByDestination } from '../delivery/overview.queries.js';
import { commerceByDay } from '../orders/overview.queries.js';
import { gameCallFailures } from '../game-calls/overview.queries.js';
import { openReportsByApp } from '../reporting/overview.queries.js';
import type { OverviewSources } from './overview.service.js';

/** Every overview series of the platform, read from the domains' own stores (the operator console's set). */
export function overviewSourcesOf(db: Kysely<Tables>): OverviewSources {
  return {
    eventsByHour: (w) => eventsByHour(db, w),
    latencyByDestination: (w) => latencyByDestination(db, w),
    failureReasons: (w) => failureReasons(db, w),
    commerceByDay: (w) => commerceByDay(db, w),
    gameCallFailures: (w) => gameCallFailures(db, w),
    openReports: (appId) => openReportsByApp(db, appId),
  };
}

/** A studio's overview (the portal): every series but the open report queue, which is the moderators' business. */
export function studioOverviewSourcesOf(db: Kysely<Tables>): OverviewSources {
  const { openReports: _operatorsOnly, ...sources } = overviewSourcesOf(db);
  return sources;
}
