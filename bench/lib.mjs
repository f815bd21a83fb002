// Shared pieces of the bench harness: processes, load, measurements.
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from '../scripts/lib/net.mjs';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
/**
 * The read routes' bound (issue 33): CPU per request at most 1.3x their ceiling's on SQLite, 1.5x on PostgreSQL
 * (the framework's own floor, request ids, logs, metrics, rate limit and schemas, is ~1.37x a bare hello world).
 */
export const READS = { sqlite: 1.3, postgres: 1.5 };

export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const DURATION = Number(process.env.BENCH_DURATION ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** Seconds of unmeasured load before each measurement. */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
/** The service runs with the Node flags `npm start` gives it (package.json config.serviceNodeFlags). */
const SERVICE_NODE_FLAGS = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'),
).config.serviceNodeFlags.split(' ');

/** The pid of each server process started here, by its URL: load() measures its CPU. */
const pidByUrl = new Map();

/** CPU time (user + system, all threads) a process has used so far, in microseconds; null once it is gone. */
function cpuMicros(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * (1e6 / CLOCK_TICKS);
  } catch {
    return null;
  }
}
/**
 * CPU time so far of a process's V8 helper threads (`V8Worker`: concurrent marking, parallel scavenges, sweeping),
 * in microseconds: where a process that allocates more pays beyond its main thread. Null once it is gone.
 */
function gcThreadMicros(pid) {
  try {
    let ticks = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'V8Worker') continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    }
    return ticks * (1e6 / CLOCK_TICKS);
  } catch {
    return null;
  }
}
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Where each process started here writes its running allocation total (bench/alloc-probe.mjs), by pid. */
const allocFileByPid = new Map();
const ALLOC_PROBE = new URL('./alloc-probe.mjs', import.meta.url).href;

/**
 * Bytes the process's JS heap has allocated so far (bench/alloc-probe.mjs, asked by SIGWINCH); null once it is gone or
 * when it does not answer within a second.
 */
async function allocatedBytes(pid) {
  const file = allocFileByPid.get(pid);
  if (!file) return null;
  const read = () => {
    try {
      const [seq, bytes] = fs.readFileSync(file, 'utf8').split(' ').map(Number);
      return { seq, bytes };
    } catch {
      return { seq: 0, bytes: null };
    }
  };
  const before = read().seq;
  try {
    process.kill(pid, 'SIGWINCH');
  } catch {
    return null;
  }
  for (let i = 0; i < 200; i++) {
    const now = read();
    if (now.seq > before) return now.bytes;
    await new Promise((r) => setTimeout(r, 5));
  }
  return null;
}

/** Bytes a second the process allocates with no load, over `ms` (a second) just before a measurement. */
async function idleAllocationPerSecond(pid, ms = 1000) {
  const before = await allocatedBytes(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const after = await allocatedBytes(pid);
  return before === null || after === null ? null : ((after - before) * 1000) / (performance.now() - t0);
}

/** Starts a server process on a free port and waits until `readyPath` answers; resolves { url, pid, stop }. */
export async function startProcess(args, env = {}, readyPath = '/') {
  const port = await freePort();
  const allocFile = path.join(os.tmpdir(), `gp-bench-alloc-${process.pid}-${port}`);
  const child = spawn(process.execPath, ['--import', ALLOC_PROBE, ...args], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      BENCH_ALLOC_FILE: allocFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exited = false;
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  child.on('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`exited before answering: ${out}`);
    if (i > 300) throw new Error(`did not start: ${out}`);
    try {
      if ((await fetch(url + readyPath)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  pidByUrl.set(url, child.pid);
  allocFileByPid.set(child.pid, allocFile);
  return {
    url,
    pid: child.pid,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', () => {
          fs.rmSync(allocFile, { force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** BENCH_NODE_ARGS: extra Node flags for the service and the ceilings (e.g. --cpu-prof). */
const extraNodeArgs = () => (process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []);

/** A service on a fresh embedded database or a fresh PostgreSQL schema. */
export async function startService(backend, extraEnv = {}, nodeArgs = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-bench-'));
  const adminToken = crypto.randomBytes(24).toString('base64url');
  const env = {
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    ...extraEnv,
  };
  let schema;
  if (backend === 'postgres') {
    schema = `bench_${crypto.randomBytes(5).toString('hex')}`;
    await pgQuery(`create schema ${schema}`);
    env.DATABASE_URL = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}${process.env.BENCH_PG_LOG ? ' -c log_statement=all' : ''}`)}`;
    env.DATABASE_POOL_SIZE = env.DATABASE_POOL_SIZE ?? '20';
  }
  const proc = await startProcess(
    [...SERVICE_NODE_FLAGS, ...extraNodeArgs(), ...nodeArgs, path.join(ROOT, 'packages/server/dist/cli.js'), 'serve'],
    env,
    '/readyz',
  );
  const admin = async (method, p, body) => {
    const res = await fetch(proc.url + '/admin/v1' + p, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    ...proc,
    backend,
    adminToken,
    admin,
    schema,
    dataDir,
    env,
    async stop() {
      await proc.stop();
      if (schema) await pgQuery(`drop schema ${schema} cascade`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function pgQuery(text) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

/** Peak RSS (MB) of a pid, sampled every 100 ms while `fn` runs. */
export async function withRss(pid, fn) {
  let peak = 0;
  const sample = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      /* exited */
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await fn();
    sample();
    return { result, rssMb: peak };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Drives a URL with autocannon. `request` is an autocannon request object;
 * `setupRequest` (optional) rewrites each request (fresh nonce and signature).
 * Non-2xx answers are counted and reported: a scenario must not "win" by failing fast.
 */
// autocannon builds a request's bytes anew for every request that has a
// setupRequest, which costs the load generator more CPU than the baseline's
// static request. Signed requests are therefore built to bytes before the
// clock starts, and the iterator hands them out in turn (`feed`): the service
// is measured against the same per-request load-generator cost as the baseline.
const require = createRequire(import.meta.url);
const RequestIterator = require('autocannon/lib/requestIterator.js');
const buildRequestBytes = require('autocannon/lib/httpRequestBuilder.js');
let feed = null;
const nextRequest = RequestIterator.prototype.nextRequest;
RequestIterator.prototype.nextRequest = function () {
  if (feed && feed.i < feed.buffers.length && this.requests.length === 1) {
    this.resetted = false;
    this.currentRequest = this.requests[0];
    this.currentRequest.requestBuffer = feed.buffers[feed.i++];
    return this.currentRequest;
  }
  return nextRequest.call(this);
};

/**
 * Drives a URL with autocannon. `request` is an autocannon request object;
 * `setupRequest` (optional) rewrites each request (fresh nonce and signature).
 * Non-2xx answers are counted and reported: a scenario must not "win" by failing fast.
 */
export async function load(
  url,
  {
    method = 'GET',
    path: p = '/',
    headers = {},
    body,
    setupRequest,
    connections = CONNECTIONS,
    duration = DURATION,
  } = {},
) {
  if (setupRequest) {
    // Signed requests are made before the clock starts, so the load generator's
    // own signing does not take CPU from the service during the measurement.
    const { hostname, port } = new URL(url);
    const build = buildRequestBytes({ hostname, port });
    const base = { method, path: p, headers, body };
    const buffers = Array.from({ length: Math.min(660_000, (duration + WARMUP) * 60_000) }, () =>
      build({ ...setupRequest(base) }),
    );
    feed = { buffers, i: 0 };
  }
  try {
    const requests = [{ method, path: p, headers, body, ...(setupRequest ? { setupRequest } : {}) }];
    // A warm-up at the same concurrency first (JIT, pools, caches), for the baseline and every scenario alike.
    if (WARMUP > 0) await autocannon({ url, connections, duration: WARMUP, requests });
    // The server's CPU over the measurement, per answered request: less noisy than req/s on this shared VM.
    const pid = pidByUrl.get(url);
    const cpuBefore = pid === undefined ? null : cpuMicros(pid);
    const gcBefore = pid === undefined ? null : gcThreadMicros(pid);
    // What the process allocates on its own (timers, the delivery and retention loops, metrics), measured idle just
    // before the load and taken off, so the figure is per request whatever the request rate.
    const idle = pid === undefined ? null : await idleAllocationPerSecond(pid);
    const allocBefore = pid === undefined ? null : await allocatedBytes(pid);
    const startedAt = performance.now();
    const result = await autocannon({ url, connections, duration, requests });
    const cpuAfter = pid === undefined ? null : cpuMicros(pid);
    const gcAfter = pid === undefined ? null : gcThreadMicros(pid);
    const allocAfter = pid === undefined ? null : await allocatedBytes(pid);
    const background = idle === null ? null : (idle * (performance.now() - startedAt)) / 1000;
    const perRequest = (before, after) =>
      before === null || after === null || result.requests.total === 0
        ? null
        : (after - before) / result.requests.total;
    return {
      cpuUsPerRequest: perRequest(cpuBefore, cpuAfter),
      /** Of cpuUsPerRequest, what V8's helper threads (garbage collection) took. */
      gcThreadUsPerRequest: perRequest(gcBefore, gcAfter),
      /** Bytes the main thread's JS heap allocated per answered request (bench/alloc-probe.mjs): steadier than CPU. */
      allocBytesPerRequest:
        allocBefore === null || allocAfter === null || background === null
          ? null
          : perRequest(allocBefore, Math.max(allocBefore, allocAfter - background)),
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      total: result.requests.total,
    };
  } finally {
    feed = null;
  }
}

/**
 * RSA-2048 PKCS#1 v1.5 SHA-256 signatures per second of `threads` worker
 * threads all signing at once (default: one per core, as the service's
 * SIGN_WORKERS=-1 signing pool): what the machine's cores can sign, the
 * delivery engine's bound (one signature per callback). As a result row.
 */
export async function rsaSignRateAllCores(threads = os.availableParallelism(), seconds = 3) {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const body =
    'POST\n/pay/callback\n1795238620\nnonce\n' +
    JSON.stringify({ notifyId: 1, trxNo: 123, products: [{ productCode: 'gem' }] }) +
    '\n';
  const code = `const { parentPort, workerData } = require('node:worker_threads');
    const crypto = require('node:crypto');
    const data = Buffer.from(workerData.body);
    // A short warm-up, then count until the shared deadline.
    for (let i = 0; i < 20; i++) crypto.sign('sha256', data, workerData.key);
    parentPort.once('message', (until) => {
      let n = 0;
      while (Date.now() < until) { crypto.sign('sha256', data, workerData.key); n++; }
      parentPort.postMessage(n);
    });
    parentPort.postMessage('ready');`;
  const workers = Array.from(
    { length: threads },
    () => new Worker(code, { eval: true, workerData: { body, key: privateKey } }),
  );
  try {
    await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))));
    const until = Date.now() + seconds * 1000;
    const counts = await Promise.all(
      workers.map((w) => new Promise((r) => (w.once('message', r), w.postMessage(until)))),
    );
    const total = counts.reduce((a, b) => a + b, 0);
    return { rps: total / seconds, p50: null, p99: null, errors: 0, non2xx: 0, total, cpuUsPerRequest: null };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Starts a ceiling (bench/ceilings/<file>) for `backend` with the Node flags
 * the service runs with, reads its tokens (GET /tokens), runs `fn(proc, tokens)`
 * and stops it.
 */
export async function withCeiling(file, backend, env, fn) {
  const proc = await startProcess(
    // BENCH_NODE_ARGS reaches the ceilings too, so a profile of ours has the ceiling's beside it.
    [...SERVICE_NODE_FLAGS, ...extraNodeArgs(), path.join(ROOT, 'bench/ceilings', file)],
    { BACKEND: backend, PG_URL, ...env },
    '/tokens',
  );
  try {
    return await fn(proc, await (await fetch(`${proc.url}/tokens`)).json());
  } finally {
    await proc.stop();
  }
}

/** The bare Fastify hello world (bench/baseline.mjs, one per backend, started by the runner) as a reference. */
export const helloWorld = { name: 'hello world', run: ({ helloUrl }) => load(helloUrl, { path: '/' }) };

/** Runs `fn(fixture)` with a game fixture (bench/game-fixture.mjs) running. */
export async function withFixture(fn) {
  const fixture = await startProcess([path.join(ROOT, 'bench/game-fixture.mjs')]);
  try {
    return await fn(fixture);
  } finally {
    await fixture.stop();
  }
}
