import { freshNoncesCte } from '../auth/nonce-ledger.js';

/**
 * PostgreSQL: a whole batch of reports (from distinct reporters) in one
 * statement, hence one round trip and one atomic commit. The batch comes as
 * one JSON parameter; every report is checked and stored as the per-report
 * SQLite path does (reports.store.ts):
 *
 * - `fresh`: the requests' nonces (5.1) are recorded (the nonce ledger's CTE); `i`: the reports whose
 *   nonce was fresh go on, the others are left out of the answer (replayed);
 * - `c`: the live duplicate (if any) and the reporter's counts for the caps;
 * - `n`: reports that are neither duplicates nor capped get an id;
 * - `claim`: each takes its duplicate key, or replaces an expired one. The
 *   unique key decides against concurrent statements: a report whose claim
 *   is not returned lost to an identical report and is not stored;
 * - `w`: the winners, stored with their reasons, evidence and upload records.
 *
 * Data-modifying CTEs see the same snapshot, so nothing reads what another
 * writes; foreign keys are checked at the end of the statement.
 *
 * $1 now, $2 now - 24 h, $3 duplicate-key expiry, $4 deduplication on,
 * $5 daily cap, $6 open cap, $7 the reports (JSON array).
 */
const PLAYER = (who: string) =>
  ['key', 'svcid', 'role_id', 'server_code', 'role_name', 'extra'].map((c) => `${who}_${c}`);
export const REPORT_COLUMNS = [
  'app_id',
  'client_id',
  'client_ip',
  'device_id',
  ...PLAYER('reporter'),
  ...PLAYER('reportee'),
  'user_description',
  'extras',
];
const UPLOAD_COLUMNS =
  'upload_id text, app_id bigint, backend text, object_key text, uri text, file_name text, content_type text, declared_size bigint, svcid text, client_ip text, device_id text, created_at bigint, expires_at bigint, uploaded_at bigint, uploaded_size bigint';

const withEvidence = (evidence: boolean) => `
with input as (
  select * from json_to_recordset($7::json) as t(
    idx int, nonce_scope text, nonce_value text, nonce_expires_at bigint, dedupe_key text, ${REPORT_COLUMNS.map((c) => `${c} ${c === 'app_id' ? 'bigint' : 'text'}`).join(', ')},
    reasons json, evidence json, uploads json)
),
${freshNoncesCte('input', { scope: 'nonce_scope', nonce: 'nonce_value', expiresAt: 'nonce_expires_at' })},
i as (select input.* from input join fresh on fresh.scope = input.nonce_scope and fresh.nonce = input.nonce_value),
c as (
  select i.*,
    (select d.report_id from report_dedupe d
      where $4::boolean and d.app_id = i.app_id and d.dedupe_key = i.dedupe_key and d.expires_at > $1::bigint) as dup,
    k.recent, k.open_against
  from i cross join lateral (
    select count(*) filter (where r.created_at > $2::bigint)::int as recent,
      count(*) filter (where r.reportee_key = i.reportee_key and r.status = 'open')::int as open_against
    from reports r
    where r.app_id = i.app_id and r.reporter_key = i.reporter_key
      and (r.created_at > $2::bigint or (r.reportee_key = i.reportee_key and r.status = 'open'))
  ) k
),
seq as (select pg_get_serial_sequence('reports', 'report_id')::regclass as s),
n as (
  select c.*, nextval((select s from seq)) as report_id
  from c where c.dup is null and c.recent < $5::int and c.open_against < $6::int
),
claim as (
  insert into report_dedupe (app_id, dedupe_key, report_id, expires_at)
  select app_id, dedupe_key, report_id, $3::bigint from n where $4::boolean
  on conflict (app_id, dedupe_key) do update set report_id = excluded.report_id, expires_at = excluded.expires_at
    where report_dedupe.expires_at <= $1::bigint
  returning report_id
),
w as (select n.* from n where not $4::boolean or n.report_id in (select report_id from claim)),
ins_reports as (
  insert into reports (report_id, ${REPORT_COLUMNS.join(', ')}, status, status_changed_at, created_at)
  select report_id, ${REPORT_COLUMNS.join(', ')}, 'open', $1::bigint, $1::bigint from w
),
ins_reasons as (
  insert into report_reasons (report_id, position, reason_id, title, extras)
  select w.report_id, x.position, x.reason_id, x.title, x.extras
  from w cross join lateral json_to_recordset(w.reasons) as x(position int, reason_id text, title text, extras text)
)${
  evidence
    ? `,
ins_uploads as (
  insert into evidence_uploads (${UPLOAD_COLUMNS.split(', ')
    .map((c) => c.split(' ')[0])
    .join(', ')})
  select distinct on (u.upload_id) u.*
  from w cross join lateral json_to_recordset(w.uploads) as u(${UPLOAD_COLUMNS})
  order by u.upload_id
  on conflict (upload_id) do update set uploaded_at = excluded.uploaded_at, uploaded_size = excluded.uploaded_size
    where evidence_uploads.uploaded_at is null
),
ins_evidence as (
  insert into report_evidence (report_id, position, upload_id, name, size_byte, uri)
  select w.report_id, e.position, e.upload_id, e.name, e.size_byte, e.uri
  from w cross join lateral json_to_recordset(w.evidence) as e(position int, upload_id text, name text, size_byte bigint, uri text)
)`
    : ''
}
select c.idx, c.dup, c.recent, c.open_against, w.report_id from c left join w on w.idx = c.idx`;

/**
 * The statement for a batch whose reports cite evidence, and the one (cheaper to plan and run) for batches that cite none.
 * Not a named statement (Database.named): its generic plan, made while `reports` is small and never analyzed, counts
 * the caps through reports_reportee by app alone (all indexes cost alike then) and stays so: a batch of 32 grew to
 * 140-860 ms (against ~2 ms planned per run). Neither two counts through a partial index of open reports nor an
 * `order by` only reports_reporter gives pinned the index in every plan (docs/benchmarks.md, 4.1); planned per run, it follows the table.
 */
export const BATCH_INSERT_REPORTS = withEvidence(true);
export const BATCH_INSERT_REPORTS_NO_EVIDENCE = withEvidence(false);
