import fs from 'node:fs';
// Delivery scenarios (issue 5), PostgreSQL: end-to-end signed delivery to a
// local game server against the RSA-2048 signing rate of one core (the
// physical limit: one signature per callback), a 100,000-event backlog drained
// with flat memory, and graphile-worker doing the same work as a peer.
import path from 'node:path';
import { PG_URL, ROOT, pgQuery, rsaSignRate, startProcess } from '../lib.mjs';

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
  const t0 = Date.now();
  await fillOutbox(svc.schema, app.appId, n);
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

export default [
  {
    name: `delivery: ${N} events end to end (sign + POST), vs RSA signing`,
    backends: ['postgres'],
    env,
    minRatio: 0.6,
    target: '>= 0.6x RSA-2048 signs/s of one core',
    async run(svc) {
      const fixture = await startProcess([path.join(ROOT, 'bench/game-fixture.mjs')]);
      try {
        const result = await drain(svc, N, fixture);
        return { ...result, reference: { name: 'RSA-2048 sign, 1 core', rps: rsaSignRate() } };
      } finally {
        await fixture.stop();
      }
    },
  },
  {
    name: `delivery: ${BACKLOG} event backlog drains, RSS < 300 MB`,
    backends: ['postgres'],
    env,
    maxRssMb: 300,
    target: 'RSS < 300 MB',
    async run(svc) {
      const fixture = await startProcess([path.join(ROOT, 'bench/game-fixture.mjs')]);
      try {
        return {
          ...(await drain(svc, BACKLOG, fixture)),
          reference: { name: 'RSA-2048 sign, 1 core', rps: rsaSignRate() },
        };
      } finally {
        await fixture.stop();
      }
    },
  },
  {
    name: `peer: graphile-worker ${GRAPHILE_VERSION}, ${N} jobs (sign + POST)`,
    backends: ['postgres'],
    target: 'informational (ours should beat it)',
    async run(svc) {
      const fixture = await startProcess([path.join(ROOT, 'bench/game-fixture.mjs')]);
      const schema = `gw_${svc.schema}`;
      try {
        const { spawnSync } = await import('node:child_process');
        const out = spawnSync(process.execPath, [path.join(ROOT, 'bench/graphile-peer.mjs')], {
          env: {
            ...process.env,
            PG_URL,
            SCHEMA: schema,
            TARGET: `${fixture.url}/pay/callback`,
            N: String(N),
            CONCURRENCY: '64',
          },
          encoding: 'utf8',
        });
        const m = /drained (\d+) in (\d+)/.exec(out.stdout);
        if (!m) throw new Error(`graphile-worker peer failed: ${out.stdout}${out.stderr}`);
        return {
          rps: Number(m[1]) / (Number(m[2]) / 1000),
          p50: null,
          p99: null,
          errors: 0,
          non2xx: 0,
          total: Number(m[1]),
          reference: { name: 'RSA-2048 sign, 1 core', rps: rsaSignRate() },
        };
      } finally {
        await pgQuery(`drop schema if exists ${schema} cascade`);
        await fixture.stop();
      }
    },
  },
];
