import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Dialect } from '../db/dialect.js';
import type { Tables } from '../db/tables.js';
import type { EvidenceService } from '../evidence/evidence.service.js';
import { ModerationRepository } from './moderation.repository.js';
import { ModerationService, type AccountBans } from './moderation.service.js';
import { ReportService } from './report.service.js';
import { ReportsStore } from './reports.store.js';

export { reportingRoutes } from './reporting.routes.js';
export { moderationRoutes } from './moderation.routes.js';
export { ReportView } from './moderation.schemas.js';
export { registerReportCommands, type ReportCommandServices } from './reporting.cli.js';
export type { ReportService } from './report.service.js';
export type { ModerationService } from './moderation.service.js';

/** Builds player reports (4.1) and the moderation queue over them; evidence (4.2) and bans come from below. */
export function createReporting(d: {
  db: Kysely<Tables>;
  /** Database.reads: the queue's lists. */
  reads: Kysely<Tables>;
  dialect: Dialect;
  config: Pick<
    Config,
    | 'REPORT_MAX_REASONS'
    | 'REPORT_DESCRIPTION_MAX_CHARS'
    | 'REPORT_EXTRAS_MAX_CHARS'
    | 'REPORT_DUPLICATE_WINDOW_SECONDS'
    | 'REPORT_DAILY_CAP_PER_REPORTER'
    | 'REPORT_OPEN_CAP_PER_REPORTEE'
  >;
  evidence: EvidenceService;
  bans: AccountBans;
  now: () => number;
}): { reports: ReportService; moderation: ModerationService } {
  const { config, evidence, now } = d;
  const reportLimits = {
    maxReasons: config.REPORT_MAX_REASONS,
    descriptionMaxChars: config.REPORT_DESCRIPTION_MAX_CHARS,
    extrasMaxChars: config.REPORT_EXTRAS_MAX_CHARS,
    duplicateWindowSeconds: config.REPORT_DUPLICATE_WINDOW_SECONDS,
    dailyCapPerReporter: config.REPORT_DAILY_CAP_PER_REPORTER,
    openCapPerReportee: config.REPORT_OPEN_CAP_PER_REPORTEE,
  };
  const reportsStore = new ReportsStore(
    d.db,
    d.dialect,
    // The rules of a batch, at its time.
    () => ({
      now: now(),
      duplicateWindowMs: reportLimits.duplicateWindowSeconds * 1000,
      dailyCap: reportLimits.dailyCapPerReporter,
      openCap: reportLimits.openCapPerReportee,
    }),
    (trx, rows) => evidence.recordUploads(trx, rows),
  );
  return {
    reports: new ReportService(reportsStore, evidence, reportLimits),
    moderation: new ModerationService(
      d.db,
      new ModerationRepository(d.db),
      evidence,
      d.dialect.name === 'postgres',
      d.bans,
      now,
      new ModerationRepository(d.reads),
    ),
  };
}
