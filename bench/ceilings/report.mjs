// Ceiling of 4.1 (POST /svc/reporting/open/v1/player/report, 5.1): the JSON
// body, the required fields present, the ts window, md5 over the body (the
// SDK's md5Verify), then one write per batch of concurrent reports (group
// commit, one in flight, committed before the answer; PostgreSQL: one
// statement; SQLite: one synchronous=FULL transaction, as ours) that does all
// issue 4 and the docs' Decisions require of storing one:
//   - the request's nonce recorded (insert-if-absent); a used nonce goes no further;
//   - the duplicate guard: same app, reporter, reportee and set of reason ids
//     within 24 h is answered 200 and stored once, through a unique key row
//     claimed with one conditional upsert (racing duplicates store one);
//   - the caps, counted after the duplicate check: 50 reports per reporter per
//     24 h, 3 open reports by one reporter against one reportee;
//   - the report, one row with its body as JSON (no reasons or evidence rows).
// Indexes: the reporter's reports by time (the daily cap) and the open ones by
// reportee (the open cap, a partial index), the duplicate keys' primary key.
import { md5Verify } from '../../packages/sdk/dist/index.js';
import { WINDOW_MS, freshOf, groupCommit, md5App, openDatabase, serve } from './shared.mjs';

const DAY_MS = 86_400_000;
const DAILY_CAP = 50;
const OPEN_CAP = 3;

const PG_TABLES = `
  create table reports (report_id bigserial primary key, app_id int8 not null, reporter text not null,
    reportee text not null, status text not null, body jsonb not null, created_at int8 not null);
  create index on reports (app_id, reporter, created_at);
  create index on reports (app_id, reporter, reportee) where status = 'open';
  create table report_dedupe (app_id int8 not null, dedupe_key text not null, report_id int8 not null,
    expires_at int8 not null, primary key (app_id, dedupe_key))`;

// $1-$6 and $11 the batch's columns, $7 the app, $8 now, $9 now - 24 h, $10 the duplicate key's expiry.
// Answers each request whose nonce was fresh, `admitted` (stored now) or `dup` (answered 200, not stored).
const STATEMENT = `
with input as (
  select * from unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], $11::jsonb[])
    as t(scope, nonce, expires_at, reporter, reportee, dedupe_key, body)
),
fresh as (
  insert into nonces (scope, nonce, expires_at) select scope, nonce, expires_at from input
  on conflict (scope, nonce) do nothing returning scope, nonce
),
i as (select input.* from input join fresh using (scope, nonce)),
c as (
  select i.*,
    exists (select 1 from report_dedupe d
      where d.app_id = $7 and d.dedupe_key = i.dedupe_key and d.expires_at > $8) as dup,
    (select count(*) from reports r
      where r.app_id = $7 and r.reporter = i.reporter and r.created_at > $9)::int as recent,
    (select count(*) from reports r
      where r.app_id = $7 and r.reporter = i.reporter and r.reportee = i.reportee and r.status = 'open')::int as open_against
  from i
),
n as (
  select c.*, nextval('reports_report_id_seq') as report_id from c
  where not c.dup and c.recent < ${DAILY_CAP} and c.open_against < ${OPEN_CAP}
),
claim as (
  insert into report_dedupe (app_id, dedupe_key, report_id, expires_at)
  select $7, dedupe_key, report_id, $10 from n
  on conflict (app_id, dedupe_key) do update set report_id = excluded.report_id, expires_at = excluded.expires_at
    where report_dedupe.expires_at <= $8
  returning report_id
),
ins as (
  insert into reports (report_id, app_id, reporter, reportee, status, body, created_at)
  select report_id, $7, reporter, reportee, 'open', body, $8 from n where report_id in (select report_id from claim)
)
select scope, nonce, not dup and recent < ${DAILY_CAP} and open_against < ${OPEN_CAP} as admitted, dup from c`;

/** PostgreSQL: the batch in one statement. */
async function writePg(rows) {
  const now = Date.now();
  const res = await database.durable.query({
    name: 'ceiling_reports',
    text: STATEMENT,
    values: [
      rows.map((r) => r.scope),
      rows.map((r) => r.nonce),
      rows.map((r) => r.expiresAt),
      rows.map((r) => r.reporter),
      rows.map((r) => r.reportee),
      rows.map((r) => r.dedupeKey),
      md5App.appId,
      now,
      now - DAY_MS,
      now + DAY_MS,
      rows.map((r) => r.body),
    ],
  });
  const fresh = freshOf(rows, res.rows);
  const byKey = new Map(res.rows.map((r) => [`${r.scope}\u0000${r.nonce}`, r]));
  // 'replayed' (used nonce), 'capped', or 'ok' (stored now, or a duplicate answered 200).
  return rows.map((r, i) => {
    if (!fresh[i]) return 'replayed';
    const row = byKey.get(r.key);
    return row.admitted || row.dup ? 'ok' : 'capped';
  });
}

/** SQLite: each report's statements in turn, the batch in one transaction (one fsync). */
function sqliteWriter(db) {
  db.pragma('synchronous = FULL');
  db.exec(`
    create table reports (report_id integer primary key, app_id integer not null, reporter text not null,
      reportee text not null, status text not null, body text not null, created_at integer not null);
    create index reports_recent on reports (app_id, reporter, created_at);
    create index reports_open on reports (app_id, reporter, reportee) where status = 'open';
    create table report_dedupe (app_id integer not null, dedupe_key text not null, report_id integer not null,
      expires_at integer not null, primary key (app_id, dedupe_key))`);
  const nonce = db.prepare('insert or ignore into nonces (scope, nonce, expires_at) values (?, ?, ?)');
  const dup = db.prepare('select 1 from report_dedupe where app_id = ? and dedupe_key = ? and expires_at > ?');
  const recent = db
    .prepare('select count(*) from reports where app_id = ? and reporter = ? and created_at > ?')
    .pluck();
  const open = db
    .prepare("select count(*) from reports where app_id = ? and reporter = ? and reportee = ? and status = 'open'")
    .pluck();
  const insert = db.prepare(
    "insert into reports (app_id, reporter, reportee, status, body, created_at) values (?, ?, ?, 'open', ?, ?)",
  );
  const claim = db.prepare(`insert into report_dedupe (app_id, dedupe_key, report_id, expires_at) values (?, ?, ?, ?)
    on conflict (app_id, dedupe_key) do update set report_id = excluded.report_id, expires_at = excluded.expires_at
      where report_dedupe.expires_at <= ?`);
  const app = md5App.appId;
  const tx = db.transaction((rows, now) =>
    rows.map((r) => {
      if (nonce.run(r.scope, r.nonce, r.expiresAt).changes !== 1) return 'replayed';
      if (dup.get(app, r.dedupeKey, now)) return 'ok';
      if (recent.get(app, r.reporter, now - DAY_MS) >= DAILY_CAP) return 'capped';
      if (open.get(app, r.reporter, r.reportee) >= OPEN_CAP) return 'capped';
      const id = insert.run(app, r.reporter, r.reportee, r.body, now).lastInsertRowid;
      claim.run(app, r.dedupeKey, id, now + DAY_MS, now);
      return 'ok';
    }),
  );
  return async (rows) => tx(rows, Date.now());
}

const database = await openDatabase();
let write = writePg;
if (database.kind === 'postgres') await database.durable.query(PG_TABLES);
else write = sqliteWriter(database.db);
const recordReports = groupCommit(write, 1);

await serve(async (app) => {
  app.post('/svc/reporting/open/v1/player/report', async (req, reply) => {
    const body = req.body;
    const ts = Number(body?.timestamp) * 1000;
    if (
      typeof body !== 'object' ||
      body.client_info?.client_id !== md5App.clientId ||
      typeof body.reporter?.svcid !== 'string' ||
      typeof body.reportee?.svcid !== 'string' ||
      !Array.isArray(body.reasons) ||
      body.reasons.length === 0 ||
      typeof body.nonce !== 'string' ||
      !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
      !md5Verify(body, md5App.secret, body.sign)
    )
      return reply.code(400).send({ code: 3, message: 'INVALID_ARGUMENT', details: [] });
    const { sign: _sign, ...report } = body;
    const reasonIds = [...new Set(body.reasons.map((r) => String(r.id)))].sort();
    const outcome = await recordReports({
      scope: `md5:${md5App.clientId}`,
      nonce: body.nonce,
      expiresAt: ts + WINDOW_MS,
      reporter: body.reporter.svcid,
      reportee: body.reportee.svcid,
      dedupeKey: JSON.stringify([body.reporter.svcid, body.reportee.svcid, reasonIds]),
      body: JSON.stringify(report),
    });
    if (outcome === 'replayed') return reply.code(401).send({ code: 16, message: 'UNAUTHENTICATED', details: [] });
    if (outcome === 'capped') return reply.code(429).send({ code: 8, message: 'RESOURCE_EXHAUSTED', details: [] });
    return {};
  });
}, database.close);
