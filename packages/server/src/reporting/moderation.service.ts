import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../db/tables.js';
import { groupBy } from '../db/group-by.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { PAGE_DEFAULT, decodeCursor, encodeCursor, parseLimit, parseTime } from '../http/admin-query.js';
import type { EvidenceService } from '../evidence/evidence.service.js';
import type {
  ActionRow,
  EvidenceRow,
  ModerationRepository,
  ReasonRow,
  ReportFilter,
  ReportRow,
} from './moderation.repository.js';
import type {
  AuditQuery,
  ModerationBody,
  ReportListQuery,
  ReporteeCountsQuery,
  ReportView,
} from './moderation.schemas.js';

const iso = (ms: number) => new Date(ms).toISOString();

const isId = (v: unknown): v is { id: number } =>
  typeof v === 'object' && v !== null && Number.isSafeInteger((v as { id?: unknown }).id);
const isCountCursor = (v: unknown): v is { n: number; a: number; k: string } => {
  const c = v as { n?: unknown; a?: unknown; k?: unknown } | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    Number.isSafeInteger(c.n) &&
    Number.isSafeInteger(c.a) &&
    typeof c.k === 'string'
  );
};

/** An optional time filter (ISO 8601 or Unix ms). */
const timeOf = (field: string, value: string | undefined) =>
  value === undefined ? undefined : parseTime(field, value);
const limitOf = (value: string | undefined) => parseLimit('limit', value, PAGE_DEFAULT, 200);

function filterOf(q: ReportListQuery | ReporteeCountsQuery): ReportFilter {
  const list = q as ReportListQuery;
  return {
    appId: q.appId === undefined ? undefined : Number(q.appId),
    status: q.status,
    from: timeOf('from', q.from),
    to: timeOf('to', q.to),
    reportee: list.reportee,
    reporter: list.reporter,
    reasonId: list.reasonId === undefined ? undefined : BigInt(list.reasonId).toString(),
  };
}

function player(r: ReportRow, who: 'reporter' | 'reportee') {
  return {
    svcid: r[`${who}_svcid`],
    role_id: r[`${who}_role_id`],
    server_code: r[`${who}_server_code`],
    role_name: r[`${who}_role_name`],
    extra: r[`${who}_extra`],
  };
}

function historyEntry(a: ActionRow) {
  return {
    fromStatus: a.from_status,
    status: a.to_status ?? '',
    note: a.note,
    moderator: a.moderator,
    at: iso(a.created_at),
  };
}

/**
 * What moderation needs of the accounts domain: bans of platform accounts, written in moderation's transaction.
 * Declared here, by what it uses, so that reporting imports nothing of accounts (services.ts hands accounts' BanService).
 */
export interface AccountBans {
  banUser(
    userId: number,
    ban: { reason: string; until: number | null; actor: string },
    trx?: Transaction<Tables>,
  ): Promise<{ banId: number; reason: string; until: string | null }>;
  /** Answers how many bans it lifted. */
  liftBan(userId: number, actor: string, trx?: Transaction<Tables>): Promise<number>;
}

/**
 * The moderation queue (operator side): list and filter reports, show one
 * with short-lived evidence links, change its status with a note (kept as
 * history), reports per reportee, and the audit log of moderator actions.
 */
export class ModerationService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly repo: ModerationRepository,
    private readonly evidence: EvidenceService,
    private readonly postgres: boolean,
    private readonly bans: AccountBans,
    private readonly now: () => number = Date.now,
    /**
     * The queue's lists (reports, reportee counts, moderation audit) on Database.reads, the read replica: a moment
     * stale at most. A report shown alone and every change read the primary.
     */
    private readonly listed: Pick<ModerationRepository, 'list' | 'reporteeCounts' | 'latestAgainst' | 'audit'> = repo,
  ) {}

  private async views(rows: ReportRow[]): Promise<ReportView[]> {
    const ids = rows.map((r) => r.report_id);
    const [reasons, evidence] = await Promise.all([this.repo.reasonsOf(ids), this.repo.evidenceOf(ids)]);
    const uploads = new Map(
      (await this.evidence.uploads([...new Set(evidence.map((e) => e.upload_id))])).map((u) => [u.upload_id, u]),
    );
    const byReport = <T extends { report_id: number }>(list: T[]) => groupBy(list, (x) => Number(x.report_id));
    const reasonMap = byReport<ReasonRow>(reasons);
    const evidenceMap = byReport<EvidenceRow>(evidence);
    return rows.map((r) => ({
      reportId: r.report_id,
      appId: r.app_id,
      status: r.status as ReportView['status'],
      createdAt: iso(r.created_at),
      statusChangedAt: iso(r.status_changed_at),
      client_info: { client_id: r.client_id, ip: r.client_ip, DeviceID: r.device_id },
      reporter: player(r, 'reporter'),
      reportee: player(r, 'reportee'),
      reasons: (reasonMap.get(r.report_id) ?? []).map((x) => ({ id: x.reason_id, title: x.title, extras: x.extras })),
      evidence: (evidenceMap.get(r.report_id) ?? []).map((e) => ({
        name: e.name,
        size_byte: String(e.size_byte),
        uri: e.uri,
        contentType: uploads.get(e.upload_id)?.content_type ?? null,
      })),
      user_description: r.user_description,
      extras: r.extras,
    }));
  }

  async list(q: ReportListQuery): Promise<{ reports: ReportView[]; nextCursor: string | null }> {
    const limit = limitOf(q.limit);
    const after = decodeCursor(q.cursor, isId);
    const rows = await this.listed.list(filterOf(q), after?.id, limit);
    const last = rows.at(-1);
    return {
      reports: await this.views(rows),
      nextCursor: rows.length === limit && last ? encodeCursor({ id: last.report_id }) : null,
    };
  }

  private async row(reportId: number): Promise<ReportRow> {
    const row = await this.repo.byId(reportId);
    if (!row) throw new AppError('NOT_FOUND', `report ${reportId} does not exist`);
    return row;
  }

  /** One report with its history and short-lived evidence download links (issuing links is audited). */
  async show(reportId: number, opts: { moderator?: string | undefined; requestBaseUrl: string }): Promise<ReportView> {
    const row = await this.row(reportId);
    const [view] = await this.views([row]);
    const evidenceRows = await this.repo.evidenceOf([reportId]);
    if (evidenceRows.length > 0) {
      const uploads = await this.evidence.uploads(evidenceRows.map((e) => e.upload_id));
      const links = await this.evidence.downloadLinks(uploads, opts.requestBaseUrl);
      view!.evidence.forEach((e, i) => {
        const link = links.get(evidenceRows[i]!.upload_id);
        if (link) Object.assign(e, { downloadUrl: link.url, downloadExpiresAt: iso(link.expiresAt) });
      });
      await this.repo.insertAction(this.db, {
        report_id: reportId,
        app_id: row.app_id,
        action: 'view_evidence',
        moderator: opts.moderator ?? null,
        from_status: null,
        to_status: null,
        note: null,
        details: JSON.stringify({ files: links.size }),
        created_at: this.now(),
      });
    }
    view!.history = (await this.repo.history(reportId)).map(historyEntry);
    return view!;
  }

  /**
   * A moderator decision: the new status and the note, recorded as history
   * and in the audit log in one transaction. `expectedStatus` guards against
   * two moderators deciding at once (CONFLICT if the report moved meanwhile).
   */
  async decide(reportId: number, body: ModerationBody): Promise<ReportView> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.repo.lockForUpdate(trx, reportId, this.postgres);
      if (!row) throw new AppError('NOT_FOUND', `report ${reportId} does not exist`);
      if (body.expectedStatus !== undefined && row.status !== body.expectedStatus) {
        throw new AppError(
          'CONFLICT',
          `report ${reportId} is ${row.status}, not ${body.expectedStatus}; reload it and decide again`,
        );
      }
      const now = this.now();
      await this.repo.setStatus(trx, reportId, body.status, now);
      await this.repo.insertAction(trx, {
        report_id: reportId,
        app_id: row.app_id,
        action: 'set_status',
        moderator: body.moderator,
        from_status: row.status,
        to_status: body.status,
        note: body.note,
        details: null,
        created_at: now,
      });
      if (body.ban || body.liftBan) {
        // The ban and its audit entry commit with the decision, or none of them does.
        const userId = platformUserId(row.reportee_svcid);
        const action = body.ban
          ? { action: 'ban_account', details: { userId, ...(await this.banOf(trx, userId, body)) } }
          : { action: 'lift_ban', details: { userId, lifted: await this.bans.liftBan(userId, body.moderator, trx) } };
        await this.repo.insertAction(trx, {
          report_id: reportId,
          app_id: row.app_id,
          action: action.action,
          moderator: body.moderator,
          from_status: null,
          to_status: null,
          note: body.note,
          details: JSON.stringify(action.details),
          created_at: now,
        });
      }
    });
    const view = (await this.views([await this.row(reportId)]))[0]!;
    view.history = (await this.repo.history(reportId)).map(historyEntry);
    return view;
  }

  private async banOf(trx: Transaction<Tables>, userId: number, body: ModerationBody) {
    const until = body.ban!.until === null ? null : Date.parse(body.ban!.until);
    if (Number.isNaN(until)) throw invalidParameter('ban.until', 'must be an ISO 8601 time, or null');
    const ban = await this.bans.banUser(userId, { reason: body.ban!.reason, until, actor: body.moderator }, trx);
    return { banId: ban.banId, reason: ban.reason, until: ban.until };
  }

  async reporteeCounts(q: ReporteeCountsQuery) {
    const limit = limitOf(q.limit);
    const after = decodeCursor(q.cursor, isCountCursor);
    const rows = await this.listed.reporteeCounts(
      filterOf(q),
      after && { reports: after.n, appId: after.a, key: after.k },
      limit,
    );
    const latest = await this.listed.latestAgainst(rows.map((r) => ({ appId: r.app_id, key: r.reportee_key })));
    const last = rows.at(-1);
    return {
      reportees: rows.map((r, i) => {
        const l = latest[i]!;
        return {
          appId: r.app_id,
          reportee: {
            key: r.reportee_key,
            svcid: l.reportee_svcid,
            role_id: l.reportee_role_id,
            server_code: l.reportee_server_code,
            role_name: l.reportee_role_name,
          },
          reports: r.reports,
          openReports: r.open_reports,
          reporters: r.reporters,
          lastReportedAt: iso(r.last_reported_at),
        };
      }),
      nextCursor:
        rows.length === limit && last ? encodeCursor({ n: last.reports, a: last.app_id, k: last.reportee_key }) : null,
    };
  }

  async audit(q: AuditQuery) {
    const limit = limitOf(q.limit);
    const after = decodeCursor(q.cursor, isId);
    const rows = await this.listed.audit(
      { reportId: q.reportId === undefined ? undefined : Number(q.reportId), moderator: q.moderator, action: q.action },
      after?.id,
      limit,
    );
    const last = rows.at(-1);
    return {
      actions: rows.map((a) => ({
        actionId: a.action_id,
        action: a.action,
        reportId: a.report_id,
        appId: a.app_id,
        moderator: a.moderator,
        fromStatus: a.from_status,
        toStatus: a.to_status,
        note: a.note,
        details: a.details === null ? null : (JSON.parse(a.details) as Record<string, unknown>),
        at: iso(a.created_at),
      })),
      nextCursor: rows.length === limit && last ? encodeCursor({ id: last.action_id }) : null,
    };
  }
}

/** The reportee's platform account: its svcid, which is the platform user id (2.1). */
function platformUserId(svcid: string | null): number {
  if (!svcid || !/^[0-9]{1,15}$/.test(svcid)) {
    throw invalidParameter('ban', `the reportee has no platform account to ban (svcid ${JSON.stringify(svcid ?? '')})`);
  }
  return Number(svcid);
}
