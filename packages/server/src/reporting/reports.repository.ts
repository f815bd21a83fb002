import { sql, type Insertable, type Kysely } from 'kysely';
import type { Tables } from '../db/schema.js';
import type { ReportEvidenceTable, ReportReasonsTable, ReportsTable } from './reporting.tables.js';

/**
 * SQL of report creation (4.1). Every method takes the transaction it runs
 * in, so that a report, its reasons, its evidence and its duplicate-guard row
 * commit together or not at all.
 */
export class ReportsRepository {
  /** The report already filed with this duplicate key, if it is still within the window. */
  async liveDuplicate(trx: Kysely<Tables>, appId: number, dedupeKey: string, now: number): Promise<number | undefined> {
    const row = await trx.selectFrom('report_dedupe').select('report_id')
      .where('app_id', '=', appId).where('dedupe_key', '=', dedupeKey).where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.report_id;
  }

  /**
   * Takes the duplicate key for a new report, unless a live one holds it.
   * One statement (insert, or replace an expired row), so two identical
   * reports racing cannot both win.
   */
  async claimDedupe(trx: Kysely<Tables>, appId: number, dedupeKey: string, reportId: number, expiresAt: number, now: number): Promise<boolean> {
    const result = await trx.insertInto('report_dedupe')
      .values({ app_id: appId, dedupe_key: dedupeKey, report_id: reportId, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['app_id', 'dedupe_key'])
        .doUpdateSet({ report_id: reportId, expires_at: expiresAt })
        .where('report_dedupe.expires_at', '<=', now))
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** For the per-reporter caps: reports since `since`, and open reports against this reportee. */
  async reporterCounts(trx: Kysely<Tables>, appId: number, reporterKey: string, reporteeKey: string, since: number): Promise<{ recent: number; openAgainst: number }> {
    const row = await trx.selectFrom('reports')
      .select([
        sql<number>`coalesce(sum(case when created_at > ${since} then 1 else 0 end), 0)`.as('recent'),
        sql<number>`coalesce(sum(case when reportee_key = ${reporteeKey} and status = 'open' then 1 else 0 end), 0)`.as('open_against'),
      ])
      .where('app_id', '=', appId)
      .where('reporter_key', '=', reporterKey)
      .where((eb) => eb.or([eb('created_at', '>', since), eb.and([eb('reportee_key', '=', reporteeKey), eb('status', '=', 'open')])]))
      .executeTakeFirstOrThrow();
    return { recent: Number(row.recent), openAgainst: Number(row.open_against) };
  }

  async insertReport(trx: Kysely<Tables>, row: Insertable<ReportsTable>): Promise<number> {
    const { report_id } = await trx.insertInto('reports').values(row).returning('report_id').executeTakeFirstOrThrow();
    return Number(report_id);
  }

  async insertReasons(trx: Kysely<Tables>, rows: Insertable<ReportReasonsTable>[]): Promise<void> {
    if (rows.length > 0) await trx.insertInto('report_reasons').values(rows).execute();
  }

  async insertEvidence(trx: Kysely<Tables>, rows: Insertable<ReportEvidenceTable>[]): Promise<void> {
    if (rows.length > 0) await trx.insertInto('report_evidence').values(rows).execute();
  }
}
