import { REPORT_COLUMNS } from './reports.pg-batch.js';

/**
 * SQLite: the statements of one report in its batch's transaction (reports.store.ts), as constant SQL texts with
 * positional parameters, each prepared once (the statement cache, db/database.ts) and run without the query
 * builder. Building them with Kysely cost more than running them: 4.1 on SQLite went from 0.34-0.36x to 0.52-0.64x of
 * its ceiling's rate in an A/B (issue 33, docs/benchmarks.md).
 * The rules are those of the PostgreSQL batch statement (reports.pg-batch.ts).
 */

/**
 * The live duplicate (when deduplication is on: a null key matches nothing) and the reporter's counts for the caps,
 * read in one statement through the reporter's index.
 * Parameters: app, dedupe key or null, now, since (now - 24 h), reportee, app, reporter, since, reportee.
 */
export const REPORT_RULES = `select
  (select report_id from report_dedupe where app_id = ? and dedupe_key = ? and expires_at > ?) as dup,
  coalesce(sum(case when created_at > ? then 1 else 0 end), 0) as recent,
  coalesce(sum(case when reportee_key = ? and status = 'open' then 1 else 0 end), 0) as open_against
from reports
where app_id = ? and reporter_key = ? and (created_at > ? or (reportee_key = ? and status = 'open'))`;

/** The report row, open; parameters: REPORT_COLUMNS in order, then now twice. */
export const INSERT_REPORT = `insert into reports (${REPORT_COLUMNS.join(', ')}, status, status_changed_at, created_at)
values (${REPORT_COLUMNS.map(() => '?').join(', ')}, 'open', ?, ?) returning report_id`;

/**
 * Takes the duplicate key for the new report, unless a live one holds it: one statement (insert, or replace an
 * expired row), so two identical reports racing cannot both win. Parameters: app, key, report, expiry, now.
 */
export const CLAIM_DEDUPE = `insert into report_dedupe (app_id, dedupe_key, report_id, expires_at) values (?, ?, ?, ?)
on conflict (app_id, dedupe_key) do update set report_id = excluded.report_id, expires_at = excluded.expires_at
where report_dedupe.expires_at <= ?`;

/** `insert into <table> (<columns>) values (...), (...)` for `rows` rows, made once per table and row count. */
export function insertRows(
  table: 'report_reasons' | 'report_evidence',
  columns: readonly string[],
  rows: number,
): string {
  const key = `${table}:${rows}`;
  let text = multiRow.get(key);
  if (text === undefined) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into ${table} (${columns.join(', ')}) values ${Array.from({ length: rows }, () => tuple).join(', ')}`;
    multiRow.set(key, text);
  }
  return text;
}
const multiRow = new Map<string, string>();

export const REASON_COLUMNS = ['report_id', 'position', 'reason_id', 'title', 'extras'] as const;
export const EVIDENCE_COLUMNS = ['report_id', 'position', 'upload_id', 'name', 'size_byte', 'uri'] as const;
