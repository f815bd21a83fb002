// Ceiling of 4.6 (POST /order/v1/game/pay/notify, 5.1 with a numeric
// timestamp): the JSON body, the required fields present, the ts window, md5
// over the body (the SDK's md5Verify), then one write per batch of concurrent
// notices (group commit, one in flight, committed before the answer;
// PostgreSQL: one statement; SQLite: one synchronous=FULL transaction) that records the requests' nonces, stores each admitted notice
// once under our dedupe key (app, user, role, server, product, timestamp:
// orders/consumption/consumption.ts; a notice stored before is answered 200 again) and
// puts its forward to the partner in the outbox.
//
// The forward is then sent as ours sends it while the bench runs (the
// delivery engine, target 'partner'): claimed from the outbox in batches of
// DELIVERY_BATCH (100) under a lease, signed with RSA-2048 (5.3) on a pool of
// SIGN_WORKERS threads (one per core), POSTed over keep-alive to PARTNER_URL
// (the game fixture) with DELIVERY_HOST_CONCURRENCY (8) at once, and the
// batch's outcomes (the events' states and an attempt row each, which
// retention and the console read) written in one statement (SQLite: one transaction). An idle outbox
// is polled every DELIVERY_POLL_MS (1000), the service's defaults.
import crypto from 'node:crypto';
import { callbackHeaders, callbackSignBaseText, md5Verify } from '../../packages/sdk/dist/index.js';
import {
  SignPool,
  WINDOW_MS,
  call,
  freshOf,
  groupCommit,
  md5App,
  openDatabase,
  platformKey,
  serve,
} from './shared.mjs';

const BATCH = Number(process.env.DELIVERY_BATCH ?? 100);
const HOST_CONCURRENCY = Number(process.env.DELIVERY_HOST_CONCURRENCY ?? 8);
const POLL_MS = Number(process.env.DELIVERY_POLL_MS ?? 1000);
const LEASE_MS = 60_000;
const partner = new URL(process.env.PARTNER_URL);

const PG_TABLES = `
  create table outbox (event_id bigserial primary key, app_id int8 not null, target text not null,
    body text not null, state text not null, attempts int not null, next_attempt_at int8 not null,
    created_at int8 not null, delivered_at int8);
  create index outbox_due on outbox (next_attempt_at, event_id) where state = 'pending';
  create table delivery_attempts (event_id int8 not null, attempt_no int not null, started_at int8 not null,
    http_status int, latency_ms int not null, outcome text not null, primary key (event_id, attempt_no));
  create table notices (notice_id bigserial primary key, app_id int8 not null, nonce text not null,
    user_id text not null, role_id text not null, server_id text not null, product_code text not null,
    timestamp int8 not null, sign text not null, event_id int8 not null, received_at int8 not null,
    unique (app_id, user_id, role_id, server_id, product_code, timestamp))`;

// $1-$9 the batch's columns, $10 the app, $11 now. Answers the fresh nonces.
const STATEMENT = `
with input as (
  select * from unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int8[], $9::text[])
    as t(scope, nonce, expires_at, user_id, role_id, server_id, product_code, timestamp, sign)
),
fresh as (
  insert into nonces (scope, nonce, expires_at) select scope, nonce, expires_at from input
  on conflict (scope, nonce) do nothing returning scope, nonce
),
stored as (
  insert into notices (app_id, nonce, user_id, role_id, server_id, product_code, timestamp, sign, event_id, received_at)
  select $10, i.nonce, user_id, role_id, server_id, product_code, timestamp, sign, nextval('outbox_event_id_seq'), $11
  from input i join fresh using (scope, nonce)
  on conflict (app_id, user_id, role_id, server_id, product_code, timestamp) do nothing
  returning *
),
forwards as (
  insert into outbox (event_id, app_id, target, body, state, attempts, next_attempt_at, created_at)
  select event_id, app_id, 'partner', json_build_object('noticeId', notice_id::text, 'notifyId', event_id::text,
    'notifyTime', $11::text, 'appId', app_id::text, 'userId', user_id, 'roleId', role_id, 'serverId', server_id,
    'productCode', product_code, 'timestamp', timestamp)::text, 'pending', 0, $11, $11
  from stored
)
select scope, nonce from fresh`;

const COLUMNS = ['scope', 'nonce', 'expiresAt', 'userId', 'roleId', 'serverId', 'productCode', 'timestamp', 'sign'];

/** PostgreSQL: the notices' statement, the claim and the outcomes, each one statement. */
async function pgOutbox({ durable }) {
  await durable.query(PG_TABLES);
  const CLAIM = `update outbox set next_attempt_at = $2 where event_id in (
      select event_id from outbox where state = 'pending' and next_attempt_at <= $1
      order by next_attempt_at, event_id limit ${BATCH} for update skip locked)
    returning event_id, body, attempts`;
  const OUTCOMES = `with o as (
      select * from unnest($1::int8[], $2::int[], $3::int8[], $4::int[], $5::int[]) as t(event_id, attempt_no, started_at, http_status, latency_ms)
    ),
    a as (
      insert into delivery_attempts (event_id, attempt_no, started_at, http_status, latency_ms, outcome)
      select event_id, attempt_no, started_at, http_status, latency_ms,
        case when http_status in (200, 204) then 'delivered' else 'http_status' end from o
    )
    update outbox set attempts = o.attempt_no,
      state = case when o.http_status in (200, 204) then 'delivered' else 'pending' end,
      delivered_at = case when o.http_status in (200, 204) then $6::int8 end,
      next_attempt_at = case when o.http_status in (200, 204) then outbox.next_attempt_at else $6::int8 + 15000 end
    from o where outbox.event_id = o.event_id`;
  return {
    async store(rows) {
      const res = await durable.query({
        name: 'ceiling_notices',
        text: STATEMENT,
        values: [...COLUMNS.map((c) => rows.map((r) => r[c])), md5App.appId, Date.now()],
      });
      return freshOf(rows, res.rows);
    },
    async claim(now) {
      return (await durable.query({ name: 'claim', text: CLAIM, values: [now, now + LEASE_MS] })).rows;
    },
    async outcomes(list, now) {
      await durable.query({
        name: 'outcomes',
        text: OUTCOMES,
        values: [
          list.map((o) => o.event.event_id),
          list.map((o) => o.event.attempts + 1),
          list.map((o) => o.started),
          list.map((o) => o.status),
          list.map((o) => o.latency),
          now,
        ],
      });
    },
  };
}

/**
 * SQLite: the same tables; the batch's nonces, notices and forwards in one
 * transaction. Event ids come from a counter: one process owns an SQLite
 * file, so the forward's body (its notifyId) is complete when it is written.
 */
function sqliteOutbox({ db }) {
  db.pragma('synchronous = FULL');
  db.exec(`
    create table outbox (event_id integer primary key, app_id integer not null, target text not null,
      body text not null, state text not null, attempts integer not null, next_attempt_at integer not null,
      created_at integer not null, delivered_at integer);
    create index outbox_due on outbox (next_attempt_at, event_id) where state = 'pending';
    create table delivery_attempts (event_id integer not null, attempt_no integer not null, started_at integer not null,
      http_status integer, latency_ms integer not null, outcome text not null, primary key (event_id, attempt_no));
    create table notices (notice_id integer primary key, app_id integer not null, nonce text not null,
      user_id text not null, role_id text not null, server_id text not null, product_code text not null,
      timestamp integer not null, sign text not null, event_id integer not null, received_at integer not null,
      unique (app_id, user_id, role_id, server_id, product_code, timestamp))`);
  let nextEventId = 1;
  const nonce = db.prepare('insert or ignore into nonces (scope, nonce, expires_at) values (?, ?, ?)');
  const notice = db.prepare(`insert or ignore into notices (app_id, nonce, user_id, role_id, server_id, product_code,
    timestamp, sign, event_id, received_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const forward =
    db.prepare(`insert into outbox (event_id, app_id, target, body, state, attempts, next_attempt_at, created_at)
    values (?, ?, 'partner', ?, 'pending', 0, ?, ?)`);
  const app = md5App.appId;
  const store = db.transaction((rows, now) =>
    rows.map((r) => {
      if (nonce.run(r.scope, r.nonce, r.expiresAt).changes !== 1) return false;
      const eventId = nextEventId;
      const n = notice.run(
        app,
        r.nonce,
        r.userId,
        r.roleId,
        r.serverId,
        r.productCode,
        r.timestamp,
        r.sign,
        eventId,
        now,
      );
      if (n.changes === 1) {
        nextEventId++;
        const body = JSON.stringify({
          noticeId: String(n.lastInsertRowid),
          notifyId: String(eventId),
          notifyTime: String(now),
          appId: String(app),
          userId: r.userId,
          roleId: r.roleId,
          serverId: r.serverId,
          productCode: r.productCode,
          timestamp: r.timestamp,
        });
        forward.run(eventId, app, body, now, now);
      }
      return true;
    }),
  );
  const claim = db.prepare(`update outbox set next_attempt_at = ? where event_id in (
      select event_id from outbox where state = 'pending' and next_attempt_at <= ?
      order by next_attempt_at, event_id limit ${BATCH})
    returning event_id, body, attempts`);
  const attempt =
    db.prepare(`insert into delivery_attempts (event_id, attempt_no, started_at, http_status, latency_ms, outcome)
    values (?, ?, ?, ?, ?, ?)`);
  const delivered = db.prepare(
    "update outbox set attempts = ?, state = 'delivered', delivered_at = ? where event_id = ?",
  );
  const failed = db.prepare('update outbox set attempts = ?, next_attempt_at = ? where event_id = ?');
  const outcomes = db.transaction((list, now) => {
    for (const o of list) {
      const ok = o.status === 200 || o.status === 204;
      const no = o.event.attempts + 1;
      attempt.run(o.event.event_id, no, o.started, o.status, o.latency, ok ? 'delivered' : 'http_status');
      if (ok) delivered.run(no, now, o.event.event_id);
      else failed.run(no, now + 15_000, o.event.event_id);
    }
  });
  return {
    store: async (rows) => store(rows, Date.now()),
    claim: async (now) => claim.all(now + LEASE_MS, now),
    outcomes: async (list, now) => outcomes(list, now),
  };
}

const database = await openDatabase();
const outbox = database.kind === 'postgres' ? await pgOutbox(database) : sqliteOutbox(database);
const storeNotices = groupCommit((rows) => outbox.store(rows), 1);

// The delivery of the forwards.
const key = platformKey();
const signer = new SignPool(key.privateKey);

let running = true;
let slots = HOST_CONCURRENCY;
const waiting = [];
const acquire = () => (slots > 0 ? (slots--, Promise.resolve()) : new Promise((r) => waiting.push(r)));
const release = () => (waiting.length ? waiting.shift()() : slots++);

async function deliver(event) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = crypto.randomUUID();
  const signature = signer.sign(
    callbackSignBaseText({ method: 'POST', path: partner.pathname, timestamp, nonce, body: event.body }),
  );
  await acquire();
  const started = Date.now();
  try {
    const res = await call(partner, {
      method: 'POST',
      headers: {
        ...callbackHeaders({ timestamp, nonce, signature: await signature, keyId: key.kid }),
        'content-type': 'application/json',
      },
      body: event.body,
    }).catch(() => ({ status: null }));
    return { event, started, status: res.status, latency: Date.now() - started };
  } finally {
    release();
  }
}

async function dispatch() {
  while (running) {
    const now = Date.now();
    const rows = await outbox.claim(now);
    if (rows.length === 0) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    await outbox.outcomes(await Promise.all(rows.map(deliver)), Date.now());
  }
}
const dispatching = dispatch();

await serve(
  async (app) => {
    app.post('/order/v1/game/pay/notify', async (req, reply) => {
      const b = req.body;
      const ts = typeof b?.timestamp === 'number' ? b.timestamp * 1000 : NaN;
      if (
        typeof b !== 'object' ||
        typeof b.userId !== 'string' ||
        typeof b.roleId !== 'string' ||
        typeof b.serverId !== 'string' ||
        typeof b.productCode !== 'string' ||
        b.appId !== md5App.appId ||
        typeof b.nonce !== 'string' ||
        !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
        !md5Verify(b, md5App.secret, b.sign)
      )
        return reply.code(401).send({ code: 40300, msg: 'signature', detail: '' });
      const fresh = await storeNotices({
        scope: `md5:${md5App.appId}`,
        nonce: b.nonce,
        expiresAt: ts + WINDOW_MS,
        userId: b.userId,
        roleId: b.roleId,
        serverId: b.serverId,
        productCode: b.productCode,
        timestamp: b.timestamp,
        sign: b.sign,
      });
      if (!fresh) return reply.code(401).send({ code: 40300, msg: 'nonce used', detail: '' });
      return { code: 200, msg: 'success', detail: '', data: true };
    });
  },
  async () => {
    running = false;
    await Promise.race([dispatching, new Promise((r) => setTimeout(r, 2000))]);
    await signer.close();
    await database.close();
  },
);
