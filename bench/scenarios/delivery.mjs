// Delivery scenarios (issue 5), PostgreSQL: end-to-end signed delivery to a
// local game server against the RSA-2048 signing rate of all the cores the
// service signs on (one signature per callback: the physical limit) and
// against graphile-worker doing the same work, both measured next to it; and
// a 100,000-event backlog drained with flat memory.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PG_URL, ROOT, pgQuery, rsaSignRateAllCores, withFixture } from '../lib.mjs';

/** The peer's version as installed (package.json devDependencies), for the scenario's name. */
const GRAPHILE_VERSION = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'node_modules/graphile-worker/package.json'), 'utf8'),
).version;

const N = Number(process.env.BENCH_DELIVERY_EVENTS ?? 20000);
const BACKLOG = Number(process.env.BENCH_BACKLOG_EVENTS ?? 100000);

/** Inserts `n` due payment events for `appId` straight into the service's outbox. */
async function fillOutbox(schema, appId, n) {
  const now = Date.now();
  await pgQuery(`insert into ${schema}.outbox (app_id, type, target, server_id, body, state, attempts, next_attempt_at, created_at)
    select ${appId}, 'payment', 'callback', null,
      '{"notifyId":' || g || ',"trxNo":' || (1000000 + g) || ',"trxType":0,"products":[{"productCode":"gems.100","quantity":1,"channelSkuCode":""}],"totalAmount":0.99}',
      'pending', 0, ${now}, ${now}
    from generate_series(1, ${n}) g`);
}

async function drain(svc, n, fixture) {
  const app = await svc.admin('POST', '/apps', {
    name: 'bench delivery',
    callbackUrls: { default: `${fixture.url}/pay/callback` },
  });
  await fillOutbox(svc.schema, app.appId, n);
  // The clock starts once the events are in, as the graphile-worker peer's starts once its jobs are added.
  const t0 = Date.now();
  // The fixture counts what it received (a cheap GET); only once it has seen
  // every event is the outbox asked (a count over the table costs PostgreSQL,
  // which shares the cores with the work measured). The clock stops when every
  // outcome is recorded.
  const deadline = t0 + 600_000;
  while ((await (await fetch(`${fixture.url}/count`)).json()).count < n) {
    if (Date.now() > deadline) throw new Error('events still undelivered after 10 minutes');
    await new Promise((r) => setTimeout(r, 50));
  }
  for (;;) {
    const { rows } = await pgQuery(`select count(*)::int as left from ${svc.schema}.outbox where state <> 'delivered'`);
    if (rows[0].left === 0) break;
    if (Date.now() > deadline) throw new Error(`${rows[0].left} events still undelivered after 10 minutes`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (Date.now() - t0) / 1000;
  const { rows } = await pgQuery(`select percentile_cont(0.5) within group (order by delivered_at - created_at) as p50,
    percentile_cont(0.99) within group (order by delivered_at - created_at) as p99 from ${svc.schema}.outbox`);
  const delivered = (await (await fetch(`${fixture.url}/count`)).json()).count;
  if (delivered < n) throw new Error(`fixture saw ${delivered} of ${n}`);
  return {
    rps: n / seconds,
    p50: Math.round(rows[0].p50),
    p99: Math.round(rows[0].p99),
    errors: 0,
    non2xx: 0,
    total: n,
  };
}

const env = {
  DELIVERY_HOST_CONCURRENCY: '64',
  DELIVERY_CONCURRENCY: '64',
  DELIVERY_POLL_MS: '100',
  DELIVERY_BATCH: '128',
};

/** graphile-worker (bench/graphile-peer.mjs) signing and POSTing N jobs to a fresh fixture, at our concurrency. */
const graphilePeer = {
  name: `graphile-worker ${GRAPHILE_VERSION}`,
  run: () =>
    withFixture(async (fixture) => {
      const schema = `gw_${crypto.randomBytes(5).toString('hex')}`;
      try {
        const out = spawnSync(process.execPath, [path.join(ROOT, 'bench/graphile-peer.mjs')], {
          env: {
            ...process.env,
            PG_URL,
            SCHEMA: schema,
            TARGET: `${fixture.url}/pay/callback`,
            N: String(N),
            CONCURRENCY: env.DELIVERY_CONCURRENCY,
          },
          encoding: 'utf8',
        });
        const m = /drained (\d+) in (\d+)/.exec(out.stdout);
        if (!m) throw new Error(`graphile-worker peer failed: ${out.stdout}${out.stderr}`);
        const total = Number(m[1]);
        return { rps: total / (Number(m[2]) / 1000), p50: null, p99: null, errors: 0, non2xx: 0, total };
      } finally {
        await pgQuery(`drop schema if exists ${schema} cascade`);
      }
    }),
};

/** RSA-2048 signing on as many threads as the service's signing pool (SIGN_WORKERS=-1: one per core), all at once. */
const rsaAllCores = { name: 'RSA-2048 sign, all cores', run: () => rsaSignRateAllCores() };

/** Ours: `n` events drained through a fresh fixture. */
const drainThrough = (n) => (svc) => withFixture((fixture) => drain(svc, n, fixture));

export default [
  {
    name: `delivery: ${N} events end to end (sign + POST)`,
    backends: ['postgres'],
    env,
    references: [rsaAllCores, graphilePeer],
    targets: [
      { kind: 'rate', against: rsaAllCores.name, min: 0.55 },
      { kind: 'rate', against: graphilePeer.name, min: 1.5 },
    ],
    run: drainThrough(N),
  },
  {
    name: `delivery: ${BACKLOG} event backlog drains`,
    backends: ['postgres'],
    env,
    targets: [{ kind: 'rss', max: 200 }],
    run: drainThrough(BACKLOG),
  },
];
