import { Command } from 'commander';
import os from 'node:os';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import { REPORT_STATUSES, type ReportStatus } from './report.service.js';
import type { ReportView } from './moderation.schemas.js';
import type { ModerationService } from './moderation.service.js';

/** What the `report` commands use. */
export interface ReportCommandServices {
  moderation: ModerationService;
}

function parseReportId(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw invalidParameter('reportId', 'must be a number');
  return Number(value);
}

function parseStatus(value: string): ReportStatus {
  if (!(REPORT_STATUSES as readonly string[]).includes(value))
    throw invalidParameter('status', `must be one of ${REPORT_STATUSES.join(', ')}`);
  return value as ReportStatus;
}

const who = (p: ReportView['reporter']) => p.svcid ?? `${p.server_code ?? ''}/${p.role_id ?? ''}`;

const summary = (r: ReportView) =>
  `#${r.reportId}  app ${r.appId}  ${r.status.padEnd(9)} ${r.createdAt}  ${who(r.reporter)} -> ${who(r.reportee)}  reasons ${r.reasons.map((x) => x.id).join(',')}` +
  (r.evidence.length ? `  evidence ${r.evidence.length}` : '');

const detail = (r: ReportView) =>
  [
    summary(r),
    `  reporter ${JSON.stringify(r.reporter)}`,
    `  reportee ${JSON.stringify(r.reportee)}`,
    ...r.reasons.map((x) => `  reason ${x.id} ${x.title ?? ''} ${x.extras ?? ''}`.trimEnd()),
    r.user_description ? `  description ${r.user_description}` : '',
    ...r.evidence.map(
      (e) => `  evidence ${e.name ?? ''} ${e.size_byte} bytes ${e.contentType ?? ''}\n    ${e.downloadUrl ?? e.uri}`,
    ),
    ...(r.history ?? []).map((h) => `  ${h.at} ${h.moderator ?? '?'}: ${h.fromStatus} -> ${h.status}  ${h.note ?? ''}`),
  ]
    .filter(Boolean)
    .join('\n');

/** The filters `report list` and `report reportees` share: status, time window, and the page. */
function windowAndPage(o: { status?: string; from?: string; to?: string; limit?: string; cursor?: string }) {
  return {
    status: o.status === undefined ? undefined : parseStatus(o.status),
    from: o.from,
    to: o.to,
    limit: o.limit,
    cursor: o.cursor,
  };
}

/** `--limit` and `--cursor`, the page options of `report list`, `reportees` and `audit`. */
const paged = (command: Command) =>
  command.option('--limit <n>', 'page size (1-200)', '50').option('--cursor <cursor>');

/** A list printed one line an item, or `none` when it is empty. */
const lines = <T>(items: T[], line: (item: T) => string, none: string) => items.map(line).join('\n') || none;

/** `report ...`: the moderation queue from the command line (same database as the service). */
export function registerReportCommands(program: Command, ctx: CliContext<ReportCommandServices>): void {
  const report = program.command('report').description('the moderation queue of player reports');

  const list = report
    .command('list')
    .option('--app <appId>')
    .option('--reportee <svcid|role_id>')
    .option('--reporter <svcid|role_id>')
    .option('--reason <id>')
    .option('--status <status>', REPORT_STATUSES.join(' | '))
    .option('--from <time>', 'ISO date/time or Unix ms')
    .option('--to <time>');
  paged(list).action((o) =>
    ctx.print(
      (s) =>
        s.moderation.list({
          appId: o.app,
          reportee: o.reportee,
          reporter: o.reporter,
          reasonId: o.reason,
          ...windowAndPage(o),
        }),
      (page) =>
        [...page.reports.map(summary), page.nextCursor ? `next page: --cursor ${page.nextCursor}` : '']
          .filter(Boolean)
          .join('\n') || 'no reports',
    ),
  );

  report
    .command('show')
    .argument('<reportId>')
    .option('--moderator <name>', 'recorded with the evidence links', os.userInfo().username)
    .option('--base-url <url>', 'where this service is reached (embedded evidence links)', 'http://localhost:8080')
    .action((id: string, o) =>
      ctx.print(
        (s) => s.moderation.show(parseReportId(id), { moderator: o.moderator, requestBaseUrl: o.baseUrl }),
        detail,
      ),
    );

  report
    .command('decide')
    .argument('<reportId>')
    .requiredOption('--status <status>', REPORT_STATUSES.join(' | '))
    .requiredOption('--note <text>', 'why (kept in the history)')
    .option('--moderator <name>', 'who decides', os.userInfo().username)
    .option('--expect <status>', 'refuse if the report is no longer in this status')
    .option('--ban <reason>', "also ban the reportee's platform account")
    .option('--ban-until <time>', 'end of the ban (ISO 8601); without it the ban lasts until lifted')
    .option('--lift-ban', "lift the bans on the reportee's platform account")
    .action((id: string, o) =>
      ctx.print(
        (s) =>
          s.moderation.decide(parseReportId(id), {
            moderator: o.moderator,
            status: parseStatus(o.status),
            note: o.note,
            ...(o.expect ? { expectedStatus: parseStatus(o.expect) } : {}),
            ...(o.ban ? { ban: { reason: o.ban, until: o.banUntil ?? null } } : {}),
            ...(o.liftBan ? { liftBan: true } : {}),
          }),
        detail,
      ),
    );

  const reportees = report
    .command('reportees')
    .description('reports per reportee, most reported first')
    .option('--app <appId>')
    .option('--status <status>')
    .option('--from <time>')
    .option('--to <time>');
  paged(reportees).action((o) =>
    ctx.print(
      (s) =>
        s.moderation.reporteeCounts({
          appId: o.app,
          ...windowAndPage(o),
        }),
      (page) =>
        lines(
          page.reportees,
          (r) =>
            `app ${r.appId}  ${r.reportee.key}  ${r.reports} reports (${r.openReports} open) by ${r.reporters} reporters, last ${r.lastReportedAt}`,
          'no reports',
        ),
    ),
  );

  const audit = report
    .command('audit')
    .description('moderator actions, newest first')
    .option('--report <reportId>')
    .option('--moderator <name>')
    .option('--action <action>');
  paged(audit).action((o) =>
    ctx.print(
      (s) =>
        s.moderation.audit({
          reportId: o.report,
          moderator: o.moderator,
          action: o.action,
          limit: o.limit,
          cursor: o.cursor,
        }),
      (page) =>
        lines(
          page.actions,
          (a) =>
            `${a.at}  ${a.moderator ?? '?'}  ${a.action}  report ${a.reportId ?? '-'}  ${a.fromStatus ?? ''}${a.toStatus ? ` -> ${a.toStatus}` : ''}  ${a.note ?? ''}`,
          'no actions',
        ),
    ),
  );
}
