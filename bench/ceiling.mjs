// The ceiling of a 5.2-signed GET on this machine: a bare Fastify app (the
// baseline's, logger off) whose one route does only what any correct 4.3
// must do, and nothing our service adds (no logs, request ids, metrics, rate
// limits, schemas, database lookups of tokens or users):
//   parse the MAC header, look the token's key up in a Map, check the ts
//   window, HMAC-SHA1 and compare in constant time (the SDK's own functions),
//   record the one-time nonce, answer an object the size of 2.2's.
// NONCES=sqlite|postgres records the nonce as issue 2 asks (in the database,
// insert-if-absent, the request answered after the commit), group-committed
// once per event-loop turn, on the same table shape, pragmas and pool settings
// our service uses. NONCES=memory keeps it in a Map only: not durable and not
// shared between instances, so not allowed, and shown only as an upper bound.
// The same for 4.2 (md5 of 5.1 over the query, then an upload address signed
// with HMAC-SHA256, as ours are): GET /svc/reporting/open/v1/upload/oss_sign_url.
// The same for 4.1 (PostgreSQL only, as its target): JSON body, the required
// fields present, md5 of 5.1 over the body, the ts window, then the nonce and
// the report stored in one statement per batch (the report only when its
// nonce was fresh), committed before the answer. It keeps the report as one
// row with its body as jsonb and no secondary index, and skips what issue 4
// adds (duplicate guard, per-reporter caps, evidence checks, reasons as rows):
// an upper bound for any 4.1 that stores reports durably.
// GET /tokens answers the MAC tokens and the md5 app's client id and secret for the load generator.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import Database from 'better-sqlite3';
import pg from 'pg';
import { macVerify, md5Verify, parseMacAuthorization } from '../packages/sdk/dist/index.js';

const NONCES = process.env.NONCES ?? 'memory';
const WINDOW_MS = 300_000;

const tokens = new Map();
for (let i = 0; i < 50; i++)
  tokens.set(crypto.randomBytes(16).toString('hex'), crypto.randomBytes(16).toString('base64url'));

// The fields of 2.2, with values as long as a guest's.
const md5App = { clientId: 'ceiling-app', secret: crypto.randomBytes(24).toString('base64url') };
const urlKey = crypto.randomBytes(32);

const profile = {
  code: 200,
  msg: 'success',
  detail: '',
  data: {
    appId: '10001',
    userId: '1000000001',
    userCode: 'Z8Y7X6W5V4T',
    username: 'guest_8f3a1c9d',
    nickName: null,
    avatar: null,
    loginType: 0,
    registTime: '2026-11-22T10:00:00+00:00',
    registIp: '127.0.0.1',
    source: 0,
    loginList: [0],
    isGuest: true,
    provider: ['guest'],
    openId: 'bench-device-1-8f3a1c9d',
    userRegion: 'DF',
    unionId: null,
  },
};

/** recordNonces(rows) -> Promise<boolean[]> (true: fresh), one statement or transaction for all rows. */
async function openNonceStore() {
  if (NONCES === 'memory') {
    const seen = new Map();
    return {
      record: async (rows) => rows.map((r) => !seen.has(r.key) && !!seen.set(r.key, r.expiresAt)),
      close: async () => {},
    };
  }
  if (NONCES === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'gp-ceiling-'));
    const db = new Database(path.join(dir, 'nonces.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('cache_size = -16384');
    db.exec(
      'create table nonces (scope text not null, nonce text not null, expires_at integer not null, primary key (scope, nonce)); create index nonces_expires_at on nonces (expires_at)',
    );
    const insert = db.prepare('insert or ignore into nonces (scope, nonce, expires_at) values (?, ?, ?)');
    const tx = db.transaction((rows) => rows.map((r) => insert.run(r.scope, r.nonce, r.expiresAt).changes === 1));
    return {
      record: async (rows) => tx(rows),
      close: async () => {
        db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const table = `ceiling_nonces_${crypto.randomBytes(4).toString('hex')}`;
  const pool = new pg.Pool({ connectionString: process.env.PG_URL, max: 4, options: '-c synchronous_commit=off' });
  // Reports are business writes: committed with synchronous_commit on, like the service's.
  const durable = new pg.Pool({ connectionString: process.env.PG_URL, max: 4 });
  await pool.query(
    `create table ${table} (scope text not null, nonce text not null, expires_at int8 not null, primary key (scope, nonce)); create index on ${table} (expires_at)`,
  );
  await pool.query(
    `create table ${table}_reports (report_id bigserial primary key, app text not null, reporter text not null, reportee text not null, body jsonb not null, created_at int8 not null)`,
  );
  const reportText = `with input as (select * from unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::jsonb[]) as t(scope, nonce, expires_at, reporter, reportee, body)),
    fresh as (insert into ${table} (scope, nonce, expires_at) select scope, nonce, expires_at from input on conflict (scope, nonce) do nothing returning scope, nonce),
    ins as (insert into ${table}_reports (app, reporter, reportee, body, created_at)
      select input.scope, input.reporter, input.reportee, input.body, $7::int8 from input join fresh using (scope, nonce) returning 1)
    select scope, nonce from fresh`;
  const text = `insert into ${table} (scope, nonce, expires_at) select * from unnest($1::text[], $2::text[], $3::int8[]) on conflict (scope, nonce) do nothing returning scope, nonce`;
  return {
    async record(rows) {
      const res = await pool.query({
        name: 'ceiling_nonces',
        text,
        values: [rows.map((r) => r.scope), rows.map((r) => r.nonce), rows.map((r) => r.expiresAt)],
      });
      const fresh = new Set(res.rows.map((r) => `${r.scope}\u0000${r.nonce}`));
      return rows.map((r) => fresh.has(r.key));
    },
    async recordReports(rows) {
      const res = await durable.query({
        name: 'ceiling_reports',
        text: reportText,
        values: [
          rows.map((r) => r.scope),
          rows.map((r) => r.nonce),
          rows.map((r) => r.expiresAt),
          rows.map((r) => r.report.reporter),
          rows.map((r) => r.report.reportee),
          rows.map((r) => r.report.body),
          Date.now(),
        ],
      });
      const fresh = new Set(res.rows.map((r) => `${r.scope}\u0000${r.nonce}`));
      return rows.map((r) => fresh.has(r.key));
    },
    async close() {
      await pool.query(`drop table ${table}; drop table ${table}_reports`);
      await pool.end();
      await durable.end();
    },
  };
}

const store = await openNonceStore();
/**
 * Group commit: the rows of one event-loop turn in one write (`write(rows)`
 * answers per row whether its nonce was fresh), up to `maxInFlight` writes at
 * once, as our service does (one on SQLite; nonces four on PostgreSQL, reports one).
 */
function groupCommit(write, maxInFlight) {
  let pending = [];
  let scheduled = false;
  let inFlight = 0;
  function schedule() {
    if (scheduled || inFlight >= maxInFlight || pending.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = pending;
      pending = [];
      inFlight++;
      write(batch)
        .then(
          (fresh) => batch.forEach((r, i) => r.resolve(fresh[i])),
          (err) => batch.forEach((r) => r.reject(err)),
        )
        .finally(() => {
          inFlight--;
          schedule();
        });
      schedule();
    });
  }
  return (row) =>
    new Promise((resolve, reject) => {
      pending.push({ ...row, key: `${row.scope}\u0000${row.nonce}`, resolve, reject });
      schedule();
    });
}
const submitNonce = groupCommit((rows) => store.record(rows), NONCES === 'postgres' ? 4 : 1);
const recordNonce = (scope, nonce, expiresAt) => submitNonce({ scope, nonce, expiresAt });
const recordReport = store.recordReports
  ? groupCommit((rows) => store.recordReports(rows), Number(process.env.REPORTS_IN_FLIGHT ?? 1))
  : null;

const app = Fastify({ logger: false });
app.get('/tokens', async () => ({ players: [...tokens].map(([kid, macKey]) => ({ kid, macKey })), md5App }));
app.get('/api/account/v1/user/profile', async (req, reply) => {
  let cred;
  try {
    cred = parseMacAuthorization(req.headers.authorization);
  } catch {
    return reply.code(401).send({ code: 40300, msg: 'illegal access token', detail: 'header' });
  }
  const macKey = tokens.get(cred.id);
  const ts = Number(cred.ts) * 1000;
  if (
    !macKey ||
    !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
    !macVerify(
      { ts: cred.ts, nonce: cred.nonce, method: 'GET', uri: req.url, host: '127.0.0.1', port: 443 },
      macKey,
      cred.mac,
    ) ||
    !(await recordNonce(`mac:${cred.id}`, cred.nonce, ts + WINDOW_MS))
  ) {
    return reply.code(401).send({ code: 40300, msg: 'illegal access token', detail: 'mac' });
  }
  return profile;
});
app.get('/svc/reporting/open/v1/upload/oss_sign_url', async (req, reply) => {
  const { sign, ...params } = req.query;
  const ts = Number(params.timestamp) * 1000;
  if (
    params['client_info.client_id'] !== md5App.clientId ||
    !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
    !md5Verify(params, md5App.secret, sign) ||
    !(await recordNonce(`md5:${md5App.clientId}`, params.nonce, ts + WINDOW_MS))
  ) {
    return reply.code(401).send({ code: 16, message: 'UNAUTHENTICATED', details: [] });
  }
  const key = `evidence/${crypto.randomUUID()}.mp4`;
  const expires = Math.floor(Date.now() / 1000) + 900;
  const mac = crypto.createHmac('sha256', urlKey).update(`${key}\n${params.file_size}\n${expires}`).digest('base64url');
  return {
    signed_url: `http://127.0.0.1/svc/reporting/open/v1/${key}?size=${params.file_size}&expires=${expires}&sig=${mac}`,
    ttl: '900',
  };
});
app.post('/svc/reporting/open/v1/player/report', async (req, reply) => {
  const body = req.body;
  const ts = Number(body?.timestamp) * 1000;
  if (
    !recordReport ||
    typeof body !== 'object' ||
    body.client_info?.client_id !== md5App.clientId ||
    typeof body.reporter?.svcid !== 'string' ||
    typeof body.reportee?.svcid !== 'string' ||
    !Array.isArray(body.reasons) ||
    typeof body.nonce !== 'string' ||
    !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
    !md5Verify(body, md5App.secret, body.sign)
  ) {
    return reply.code(400).send({ code: 3, message: 'INVALID_ARGUMENT', details: [] });
  }
  const { sign: _sign, ...report } = body;
  const fresh = await recordReport({
    scope: `md5:${md5App.clientId}`,
    nonce: body.nonce,
    expiresAt: ts + WINDOW_MS,
    report: { reporter: body.reporter.svcid, reportee: body.reportee.svcid, body: JSON.stringify(report) },
  });
  if (!fresh) return reply.code(401).send({ code: 16, message: 'UNAUTHENTICATED', details: [] });
  return {};
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => store.close())
    .then(() => process.exit(0)),
);
