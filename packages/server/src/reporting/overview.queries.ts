import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { num } from '../db/time-buckets.js';

/** The open report queue of one app now: how many wait for a moderator, and since when the oldest. */
export interface OpenReports {
  appId: number;
  open: number;
  oldestAt: number;
}

/**
 * Open reports per app (the moderation queue as it is now, whatever the window): read through reports_status
 * (status, report_id), so only open reports are visited. The rows of GET /admin/v1/reports?status=open&appId.
 */
export async function openReportsByApp(db: Kysely<Tables>, appId?: number): Promise<OpenReports[]> {
  let q = db
    .selectFrom('reports')
    .select(['app_id', sql<number>`count(*)`.as('n'), sql<number>`min(created_at)`.as('oldest')])
    .where('status', '=', 'open');
  if (appId !== undefined) q = q.where('app_id', '=', appId);
  const rows = await q
    .groupBy('app_id')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('app_id')
    .execute();
  return rows.map((r) => ({ appId: num(r.app_id), open: num(r.n), oldestAt: num(r.oldest) }));
}
