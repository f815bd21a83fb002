import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { rowsIn } from '../db/by-key.js';
import { whereGiven, withinWindow } from '../db/list-filter.js';
import type {
  ModerationActionsTable,
  ReportEvidenceTable,
  ReportReasonsTable,
  ReportsTable,
} from './reporting.tables.js';

export type ReportRow = Selectable<ReportsTable>;
export type ReasonRow = Selectable<ReportReasonsTable>;
export type EvidenceRow = Selectable<ReportEvidenceTable>;
export type ActionRow = Selectable<ModerationActionsTable>;

export interface ReportFilter {
  appId?: number | undefined;
  reportee?: string | undefined;
  reporter?: string | undefined;
  reasonId?: string | undefined;
  status?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export interface ReporteeCountRow {
  app_id: number;
  reportee_key: string;
  reports: number;
  open_reports: number;
  reporters: number;
  last_reported_at: number;
}

/** SQL of the moderation queue. */
export class ModerationRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Newest first, `limit` rows with report_id below `beforeId`. */
  async list(f: ReportFilter, beforeId: number | undefined, limit: number): Promise<ReportRow[]> {
    let q = whereGiven(this.db.selectFrom('reports').selectAll(), { app_id: f.appId, status: f.status });
    q = withinWindow(q, 'created_at', f);
    if (f.reportee !== undefined) {
      const v = f.reportee;
      q = q.where((eb) => eb.or([eb('reportee_svcid', '=', v), eb('reportee_role_id', '=', v)]));
    }
    if (f.reporter !== undefined) {
      const v = f.reporter;
      q = q.where((eb) => eb.or([eb('reporter_svcid', '=', v), eb('reporter_role_id', '=', v)]));
    }
    if (f.reasonId !== undefined) {
      const v = f.reasonId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('report_reasons')
            .select('report_reasons.report_id')
            .whereRef('report_reasons.report_id', '=', 'reports.report_id')
            .where('report_reasons.reason_id', '=', v),
        ),
      );
    }
    if (beforeId !== undefined) q = q.where('report_id', '<', beforeId);
    return q.orderBy('report_id', 'desc').limit(limit).execute();
  }

  async byId(reportId: number, db: Kysely<Tables> = this.db): Promise<ReportRow | undefined> {
    return db.selectFrom('reports').selectAll().where('report_id', '=', reportId).executeTakeFirst();
  }

  reasonsOf(ids: number[]): Promise<ReasonRow[]> {
    return rowsIn(this.db, 'report_reasons', 'report_id', ids, ['report_id', 'position']);
  }

  evidenceOf(ids: number[]): Promise<EvidenceRow[]> {
    return rowsIn(this.db, 'report_evidence', 'report_id', ids, ['report_id', 'position']);
  }

  async history(reportId: number): Promise<ActionRow[]> {
    return this.db
      .selectFrom('moderation_actions')
      .selectAll()
      .where('report_id', '=', reportId)
      .where('action', '=', 'set_status')
      .orderBy('action_id')
      .execute();
  }

  async setStatus(trx: Kysely<Tables>, reportId: number, status: string, at: number): Promise<void> {
    await trx.updateTable('reports').set({ status, status_changed_at: at }).where('report_id', '=', reportId).execute();
  }

  /** Locks the report row for a status change (PostgreSQL; SQLite transactions are serial already). */
  async lockForUpdate(trx: Kysely<Tables>, reportId: number, postgres: boolean): Promise<ReportRow | undefined> {
    let q = trx.selectFrom('reports').selectAll().where('report_id', '=', reportId);
    if (postgres) q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async insertAction(db: Kysely<Tables>, row: Insertable<ModerationActionsTable>): Promise<void> {
    await db.insertInto('moderation_actions').values(row).execute();
  }

  async audit(
    f: { reportId?: number | undefined; moderator?: string | undefined; action?: string | undefined },
    beforeId: number | undefined,
    limit: number,
  ): Promise<ActionRow[]> {
    let q = this.db.selectFrom('moderation_actions').selectAll();
    if (f.reportId !== undefined) q = q.where('report_id', '=', f.reportId);
    if (f.moderator !== undefined) q = q.where('moderator', '=', f.moderator);
    if (f.action !== undefined) q = q.where('action', '=', f.action);
    if (beforeId !== undefined) q = q.where('action_id', '<', beforeId);
    return q.orderBy('action_id', 'desc').limit(limit).execute();
  }

  /**
   * Reports per reportee, most reported first (ties: app, then key). The
   * cursor is the last row's (count, app, key): keyset pagination on the
   * aggregate, so a page never repeats or skips a reportee.
   */
  async reporteeCounts(
    f: ReportFilter,
    after: { reports: number; appId: number; key: string } | undefined,
    limit: number,
  ): Promise<ReporteeCountRow[]> {
    const count = sql<number>`count(*)`;
    let q = this.db
      .selectFrom('reports')
      .select([
        'app_id',
        'reportee_key',
        count.as('reports'),
        sql<number>`sum(case when status = 'open' then 1 else 0 end)`.as('open_reports'),
        sql<number>`count(distinct reporter_key)`.as('reporters'),
        sql<number>`max(created_at)`.as('last_reported_at'),
      ]);
    q = withinWindow(whereGiven(q, { app_id: f.appId, status: f.status }), 'created_at', f);
    let g = q.groupBy(['app_id', 'reportee_key']);
    if (after) {
      g = g.having((eb) =>
        eb.or([
          eb(count, '<', after.reports),
          eb.and([
            eb(count, '=', after.reports),
            eb.or([
              eb('app_id', '>', after.appId),
              eb.and([eb('app_id', '=', after.appId), eb('reportee_key', '>', after.key)]),
            ]),
          ]),
        ]),
      );
    }
    const rows = await g.orderBy(count, 'desc').orderBy('app_id').orderBy('reportee_key').limit(limit).execute();
    return rows.map((r) => ({
      app_id: Number(r.app_id),
      reportee_key: r.reportee_key,
      reports: Number(r.reports),
      open_reports: Number(r.open_reports),
      reporters: Number(r.reporters),
      last_reported_at: Number(r.last_reported_at),
    }));
  }

  /** The latest report against each of these reportees (for their display fields). */
  async latestAgainst(pairs: Array<{ appId: number; key: string }>): Promise<ReportRow[]> {
    return Promise.all(
      pairs.map((p) =>
        this.db
          .selectFrom('reports')
          .selectAll()
          .where('app_id', '=', p.appId)
          .where('reportee_key', '=', p.key)
          .orderBy('report_id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow(),
      ),
    );
  }
}
