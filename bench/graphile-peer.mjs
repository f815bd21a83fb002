// The peer of the delivery benchmark: graphile-worker on the same PostgreSQL,
// with a task doing the same work as our dispatcher (sign the same body with
// RSA-2048 per 5.3, POST it to the same fixture). Tuned as its docs suggest for
// throughput: local queue and batched completion. Prints `drained <n> in <ms>`.
import crypto from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { Logger, run } from 'graphile-worker';
import { buildCallbackHeaders } from '../packages/sdk/dist/index.js';

const { PG_URL, SCHEMA, TARGET, N, CONCURRENCY } = process.env;
const total = Number(N);
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const target = new URL(TARGET);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(CONCURRENCY) });

function post(body) {
  const headers = buildCallbackHeaders({ method: 'POST', path: target.pathname, body, privateKey, keyId: 'bench' });
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 || res.statusCode === 204 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// Schema and jobs first (not timed), then the runner drains them (timed).
const pool = new pg.Pool({ connectionString: PG_URL, max: 20 });
// graphile-worker 0.18 asks for it: an idle client's error must not end the peer.
pool.on('error', () => {});
let done = 0;
let started = 0;
const finished = new Promise((resolve) => {
  const runnerPromise = run({
    pgPool: pool,
    concurrency: Number(CONCURRENCY),
    noHandleSignals: true,
    logger: new Logger(() => () => {}),
    pollInterval: 1000,
    preset: { worker: { schema: SCHEMA, localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList: {
      deliver: async (payload) => {
        await post(payload.body);
        if (++done === total) resolve();
      },
    },
  });
  runnerPromise.then((runner) => {
    globalThis.runner = runner;
  });
});

// Wait for the runner to install its schema, then add the jobs in one statement.
await new Promise((r) => setTimeout(r, 1500));
await pool.query(
  `select ${SCHEMA}.add_jobs(array(select row('deliver', json_build_object('body', '{"notifyId":' || g || ',"trxNo":' || (1000000 + g) || ',"trxType":0,"products":[{"productCode":"gems.100","quantity":1,"channelSkuCode":""}],"totalAmount":0.99}'), null, null, null, null, null, null)::${SCHEMA}.job_spec from generate_series(1, ${total}) g))`,
);
started = Date.now();
await finished;
console.log(`drained ${total} in ${Date.now() - started}`);
await globalThis.runner?.stop();
await pool.end();
process.exit(0);
