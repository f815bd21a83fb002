// The console overview (issue 22, "Look, don't read"): GET /admin/v1/overview with a million outbox events and their
// million attempts (plus 100k orders and 100k game-call tries) over 30 days in the database, bulk-loaded by one
// INSERT ... SELECT per table. Target: p99 under 300 ms for the console's default window (the last 24 hours).
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { load, PG_URL } from '../lib.mjs';

const require = createRequire(import.meta.url);
const EVENTS = Number(process.env.BENCH_OVERVIEW_EVENTS ?? 1_000_000);
const SIDE = Math.floor(EVENTS / 10);
const SPAN_MS = 30 * 86_400_000;
const APPS = 10;

/**
 * The bulk load: one statement per table over a number sequence (generate_series, or a recursive CTE on SQLite).
 * Pending events are due in a year, so the service's dispatcher leaves them alone during the measurement.
 */
function statements(backend, now, appIds) {
  const seq = (n) =>
    backend === 'postgres'
      ? { with: '', from: `generate_series(0, ${n - 1}) as s(i)` }
      : { with: `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${n - 1}) `, from: 's' };
  const app = (i) => `(case (${i}) % ${APPS} ${appIds.map((id, k) => `when ${k} then ${id}`).join(' ')} end)`;
  const at = (n) => `(${now} - (cast(i as bigint) * ${Math.floor(SPAN_MS / n)}))`;
  const e = seq(EVENTS);
  const o = seq(SIDE);
  return [
    `${e.with}insert into outbox (app_id, type, target, server_id, body, state, attempts, next_attempt_at, created_at, delivered_at, last_error)
     select ${app('i')}, 'payment', 'callback', null, '{}',
       case when i % 20 = 0 then 'dead' when i % 20 = 1 then 'pending' else 'delivered' end, 1, ${now + 365 * 86_400_000},
       ${at(EVENTS)}, null, null from ${e.from}`,
    `insert into delivery_attempts (event_id, app_id, attempt_no, started_at, url, http_status, latency_ms, outcome, response_body, error)
     select event_id, app_id, 1, created_at + 500, 'https://game.example/app/' || app_id,
       case when state = 'delivered' then 200 else 500 end, (event_id * 7) % 900,
       case when state = 'delivered' then 'delivered' when event_id % 3 = 0 then 'timeout' else 'http_status' end,
       null, null from outbox`,
    `${o.with}insert into orders (app_id, user_id, trx_type, status, platform, channel, payment_type, currency, total_minor, origin, merged_receipts, created_at, updated_at)
     select ${app('i')}, 'u' || (i % 1000), case when i % 10 = 0 then 2 else 0 end, i % 3, 1, 1, 0, 'USD', 100, 'client', 0,
       ${at(SIDE)}, ${now} from ${o.from}`,
    `${o.with}insert into game_calls (app_id, kind, started_at, url, try_no, http_status, latency_ms, outcome, error)
     select ${app('i')}, case when i % 3 = 0 then 'role_query' when i % 3 = 1 then 'role_list' else 'pre_order_check' end,
       ${at(SIDE)}, 'https://game.example/role', 1, null, 20, case when i % 25 = 0 then 'timeout' else 'ok' end, null
       from ${o.from}`,
  ];
}

async function bulkLoad(svc, appIds) {
  const sqls = statements(svc.backend, Date.now(), appIds);
  const started = Date.now();
  if (svc.backend === 'postgres') {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(`set search_path to ${svc.schema}`);
      for (const s of sqls) await c.query(s);
      await c.query('analyze');
    } finally {
      await c.end();
    }
  } else {
    const Database = require('better-sqlite3');
    const db = new Database(path.join(svc.dataDir, 'platform.db'));
    try {
      db.pragma('busy_timeout = 10000');
      for (const s of sqls) db.exec(s);
      db.exec('analyze');
    } finally {
      db.close();
    }
  }
  console.log(
    `[${svc.backend}] overview: loaded ${EVENTS} events and attempts in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** One request's time (ms) for a window, for the figures beside the measured one. */
async function once(svc, p) {
  const t = performance.now();
  const res = await fetch(svc.url + p, { headers: { authorization: `Bearer ${svc.adminToken}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
  return performance.now() - t;
}

export default [
  {
    name: 'overview GET /admin/v1/overview, last 24 h (1M events)',
    // Slow (a million rows loaded first): measured once even with BENCH_REPEAT.
    once: true,
    targets: [{ kind: 'p99', max: 300 }],
    async run(svc) {
      const appIds = [];
      for (let k = 0; k < APPS; k++)
        appIds.push((await svc.admin('POST', '/apps', { name: `bench overview ${k}` })).appId);
      await bulkLoad(svc, appIds);
      const to = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
      const path = (days, app = '') => `/admin/v1/overview?from=${to - days * 86_400_000}&to=${to}${app}`;
      // The wider windows, once each after a warm-up read: figures for docs/benchmarks.md, not targets.
      await once(svc, path(1));
      for (const [days, app] of [
        [7, ''],
        [31, ''],
        [31, `&appId=${appIds[0]}`],
      ])
        console.log(
          `[${svc.backend}] overview: ${days} days${app ? ' one app' : ''}: ${(await once(svc, path(days, app))).toFixed(0)} ms`,
        );
      return load(svc.url, { path: path(1), headers: { authorization: `Bearer ${svc.adminToken}` }, connections: 1 });
    },
  },
];
