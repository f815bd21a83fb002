// What every ceiling (bench/ceilings/*.mjs) shares: a bare Fastify app, the
// MAC tokens and md5 app the load generator signs with, the durable one-time
// nonce (issue 2: in the database, insert-if-absent, answered after the
// write) with group commit, a signing pool like the service's, and a
// keep-alive HTTP client for calls to the game fixture.
//
// A ceiling is the least work any correct implementation of its route must
// do on this machine (docs/benchmarks.md, "Ceilings"): no logs, metrics,
// request ids, rate limit or schemas; keys in Maps instead of database
// lookups. What the spec and the docs' Decisions require is done, the same
// way our service does it where there is a choice (table shapes, pragmas,
// pool sizes, one statement per batch).
//
// BACKEND=sqlite|postgres|memory picks where the nonces (and a route's rows)
// go; `memory` is not durable nor shared between instances (not allowed),
// only an upper bound. PG_URL names the PostgreSQL database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import Database from 'better-sqlite3';
import pg from 'pg';
import { macVerify, parseMacAuthorization } from '../../packages/sdk/dist/index.js';

export const BACKEND = process.env.BACKEND ?? 'postgres';
export const WINDOW_MS = 300_000;

/** 50 MAC tokens (5.2) by key id, each with its player's user id. */
export const tokens = new Map();
for (let i = 0; i < 50; i++)
  tokens.set(crypto.randomBytes(16).toString('hex'), {
    macKey: crypto.randomBytes(16).toString('base64url'),
    userId: String(1_000_000_001 + i),
  });
/** The md5 app (5.1) of 4.1, 4.2 and 4.6. */
export const md5App = { appId: 10001, clientId: 'ceiling-app', secret: crypto.randomBytes(24).toString('base64url') };

/**
 * The ceiling's database: PostgreSQL (a fresh schema, dropped on close; a
 * `relaxed` pool with synchronous_commit=off for nonces and a `durable` pool
 * for business writes, four connections each, as the service's) or SQLite (a
 * temporary file, the service's pragmas). `nonces` is created in both.
 */
export async function openDatabase() {
  if (BACKEND === 'postgres') {
    const schema = `ceiling_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const pool = (extra) =>
      new pg.Pool({ connectionString: process.env.PG_URL, max: 4, options: `-c search_path=${schema}${extra}` });
    const relaxed = pool(' -c synchronous_commit=off');
    const durable = pool('');
    await durable.query(
      'create table nonces (scope text not null, nonce text not null, expires_at int8 not null, primary key (scope, nonce)); create index on nonces (expires_at)',
    );
    return {
      kind: 'postgres',
      relaxed,
      durable,
      async close() {
        await durable.query(`drop schema ${schema} cascade`);
        await relaxed.end();
        await durable.end();
      },
    };
  }
  if (BACKEND === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-ceiling-'));
    const db = new Database(path.join(dir, 'ceiling.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 10000');
    db.pragma('cache_size = -16384');
    db.exec(
      'create table nonces (scope text not null, nonce text not null, expires_at integer not null, primary key (scope, nonce)); create index nonces_expires_at on nonces (expires_at)',
    );
    return {
      kind: 'sqlite',
      db,
      async close() {
        db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  return { kind: 'memory', seen: new Map(), close: async () => {} };
}

/**
 * Group commit: the rows of one event-loop turn go to `write(rows)` as one
 * statement or transaction (it answers one result per row), up to
 * `maxInFlight` writes at once, as the service's batcher does (one on SQLite;
 * nonces four on PostgreSQL, business writes one).
 */
export function groupCommit(write, maxInFlight) {
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
          (results) => batch.forEach((r, i) => r.resolve(results[i])),
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

/** Of the rows of a batch, which came back from `returning scope, nonce` (fresh nonces). */
export function freshOf(rows, returned) {
  const fresh = new Set(returned.map((r) => `${r.scope}\u0000${r.nonce}`));
  return rows.map((r) => fresh.has(r.key));
}

/** recordNonce(scope, nonce, expiresAt) -> Promise<boolean> (true: fresh), one write per batch. */
export function nonceRecorder(database) {
  if (database.kind === 'memory') {
    return async (scope, nonce, expiresAt) => {
      const key = `${scope}\u0000${nonce}`;
      return !database.seen.has(key) && !!database.seen.set(key, expiresAt);
    };
  }
  if (database.kind === 'sqlite') {
    const insert = database.db.prepare('insert or ignore into nonces (scope, nonce, expires_at) values (?, ?, ?)');
    const tx = database.db.transaction((rows) =>
      rows.map((r) => insert.run(r.scope, r.nonce, r.expiresAt).changes === 1),
    );
    const submit = groupCommit(async (rows) => tx(rows), 1);
    return (scope, nonce, expiresAt) => submit({ scope, nonce, expiresAt });
  }
  const text =
    'insert into nonces (scope, nonce, expires_at) select * from unnest($1::text[], $2::text[], $3::int8[]) on conflict (scope, nonce) do nothing returning scope, nonce';
  const submit = groupCommit(async (rows) => {
    const res = await database.relaxed.query({
      name: 'ceiling_nonces',
      text,
      values: [rows.map((r) => r.scope), rows.map((r) => r.nonce), rows.map((r) => r.expiresAt)],
    });
    return freshOf(rows, res.rows);
  }, 4);
  return (scope, nonce, expiresAt) => submit({ scope, nonce, expiresAt });
}

/**
 * 5.2 for a request: the MAC header parsed, the token's key found, the ts
 * window, HMAC-SHA1 compared in constant time (the SDK's functions). Answers
 * `{ kid, token, nonce, expiresAt }` or null; the nonce is left to the caller
 * (some ceilings record it in the statement that reads or writes the route's rows).
 */
export function macCredentials(req, method) {
  let cred;
  try {
    cred = parseMacAuthorization(req.headers.authorization);
  } catch {
    return null;
  }
  const token = tokens.get(cred.id);
  const ts = Number(cred.ts) * 1000;
  if (
    !token ||
    !(Math.abs(Date.now() - ts) <= WINDOW_MS) ||
    !macVerify(
      { ts: cred.ts, nonce: cred.nonce, method, uri: req.url, host: '127.0.0.1', port: 443 },
      token.macKey,
      cred.mac,
    )
  )
    return null;
  return { kid: cred.id, token, nonce: cred.nonce, expiresAt: ts + WINDOW_MS };
}

/**
 * RSA-2048 signing (5.3) on worker threads, as the service's SignPool
 * (platform-keys/sign-pool.ts): SIGN_WORKERS threads (-1, the default: one per
 * core), the requests of one event-loop turn shared among them, the least
 * busy first, one message each way per thread.
 */
export class SignPool {
  #workers = [];
  #queued = [];
  #scheduled = false;
  #next = 0;
  constructor(key, size = Number(process.env.SIGN_WORKERS ?? -1)) {
    const n = size < 0 ? Math.max(1, os.availableParallelism()) : size;
    for (let i = 0; i < n; i++) {
      const worker = new Worker(new URL('./sign-worker.mjs', import.meta.url));
      worker.unref();
      const w = { worker, inFlight: new Map(), pending: 0 };
      worker.postMessage({ kind: 'key', key });
      worker.on('message', (m) => {
        const jobs = w.inFlight.get(m.batch);
        w.inFlight.delete(m.batch);
        w.pending -= jobs.length;
        jobs.forEach((j, i) => j.resolve(m.signatures[i]));
      });
      this.#workers.push(w);
    }
  }
  /** The base64 RSA-SHA256 signature of the UTF-8 bytes of `base`. */
  sign(base) {
    return new Promise((resolve) => {
      this.#queued.push({ base, resolve });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }
  #flush() {
    this.#scheduled = false;
    const jobs = this.#queued;
    this.#queued = [];
    const parts = new Map();
    for (const job of jobs) {
      const w = this.#workers.reduce((a, b) => (b.pending < a.pending ? b : a));
      w.pending++;
      if (parts.has(w)) parts.get(w).push(job);
      else parts.set(w, [job]);
    }
    for (const [w, part] of parts) {
      const batch = this.#next++;
      w.inFlight.set(batch, part);
      w.worker.postMessage({ kind: 'sign', batch, bases: part.map((j) => j.base) });
    }
  }
  close() {
    return Promise.all(this.#workers.map((w) => w.worker.terminate()));
  }
}

/** One platform key pair (5.3) for the ceiling's calls to the game. */
export function platformKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid: 'pk_ceiling', privateKey };
}

/** Calls over keep-alive connections (64 per host): resolves { status, body } (the body as text). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
export function call(url, { method, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The bare app: Fastify with its logger off (the hello world's), GET /tokens
 * for the load generator (the MAC tokens with their user ids, the md5 app),
 * then the ceiling's routes (`routes(app)`). Listens on PORT; SIGTERM closes
 * the app, then `close()`.
 */
export async function serve(routes, close = async () => {}) {
  const app = Fastify({ logger: false });
  app.get('/tokens', async () => ({
    players: [...tokens].map(([kid, t]) => ({ kid, macKey: t.macKey, userId: t.userId })),
    md5App,
  }));
  await routes(app);
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
  process.on('SIGTERM', () =>
    app
      .close()
      .then(close)
      .then(() => process.exit(0)),
  );
}

/** 401 of 5.2 (accounts and orders' error envelope). */
export const MAC_REFUSED = { code: 40300, msg: 'illegal access token', detail: 'mac' };
/** 401 of 5.1 (reporting's error envelope). */
export const MD5_REFUSED = { code: 16, message: 'UNAUTHENTICATED', details: [] };
