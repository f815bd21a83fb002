// The image's checks of the deploy test (deploy/test/run.sh runs it with DOCKER_HOST set to its own dockerd):
// one container of IMAGE on the host's network, against this machine's PostgreSQL (a schema of its own) and Redis.
// /readyz ready and the HEALTHCHECK healthy; non-root, no dev dependencies, tests, sources or .git in it; /metrics
// only on METRICS_PORT; a signed game call (4.6, md5 of 5.1) accepted; a test event delivered signed (5.3) to a
// game fixture on loopback; then SIGTERM with events and notices in flight: the container is gone within 20 s,
// and after a restart every accepted notice is there and every event was delivered, each exactly once.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { PlatformClient, acceptNotification, nodeCallbackHandler } from '@game-platform/sdk';
import { freePort, jsonRequest, waitFor } from '../../scripts/lib/net.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const docker = process.env.DOCKER ?? 'docker';
const image = process.env.IMAGE ?? 'gp-test/game-platform:test';
const pgUrl = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const name = `gp-image-test-${process.pid}`;
const schema = `deploy_test_${crypto.randomBytes(4).toString('hex')}`;
const adminToken = crypto.randomBytes(24).toString('base64url');
const masterKey = crypto.randomBytes(32).toString('base64');

const t0 = Date.now();
const log = (line) => console.log(`  [image +${((Date.now() - t0) / 1000).toFixed(1)}s] ${line}`);
function check(condition, message) {
  if (!condition) throw new Error(message);
}
const run = (...args) => execFileSync(docker, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const request = (method, url, body, headers = {}) => jsonRequest(method, url, { headers, body });

// ---------- the game fixture: verifies every call (5.3) and records its notifyId ----------

const received = new Map(); // notifyId -> times
let answerDelayMs = 0;
let handler = (_req, res) => res.writeHead(503).end();
const game = http.createServer((req, res) => handler(req, res));
/** The SDK's ready-made handler with the platform's current keys: only calls that verify are counted. */
function verifyWith(publicKeys) {
  handler = nodeCallbackHandler({ publicKeys }, async (call) => {
    const { notifyId } = call.json;
    received.set(notifyId, (received.get(notifyId) ?? 0) + 1);
    if (answerDelayMs) await sleep(answerDelayMs);
    return acceptNotification();
  });
}

// ---------- the container ----------

function startContainer(env) {
  const args = ['run', '-d', '--name', name, '--network', 'host'];
  for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
  return run(...args, image);
}

async function main() {
  const pool = new pg.Pool({ connectionString: pgUrl, max: 2 });
  await pool.query(`CREATE SCHEMA ${schema}`);
  const port = await freePort();
  const metricsPort = await freePort();
  await new Promise((r) => game.listen(0, '127.0.0.1', r));
  const gameUrl = `http://127.0.0.1:${game.address().port}`;
  const base = `http://127.0.0.1:${port}`;
  const admin = (method, p, body) =>
    request(method, `${base}/admin/v1${p}`, body, { authorization: `Bearer ${adminToken}` });
  const env = {
    DATABASE_URL: `${pgUrl}?options=-c%20search_path%3D${schema}`,
    REDIS_URL: redisUrl,
    MASTER_KEY: masterKey,
    ADMIN_TOKEN: adminToken,
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    // The game fixture is on loopback, which production mode refuses unless allowed (docs/delivery.md).
    CALLBACK_PRIVATE_ALLOWLIST: '127.0.0.1/32',
    LOG_LEVEL: 'warn',
  };
  try {
    startContainer(env);
    log(`container ${name} started (${image}) on ${base}, schema ${schema}`);
    await waitFor('/readyz', async () => (await request('GET', `${base}/readyz`)).status === 200, 60_000);
    log('/readyz: ready');

    // --- what is in the image ---
    const inspect = JSON.parse(run('inspect', name))[0];
    check(inspect.Config.User === '10001:10001', `image user ${inspect.Config.User}`);
    const uid = run('exec', name, 'node', '-p', 'process.getuid() + ":" + process.getgid()');
    check(uid === '10001:10001', `the service runs as ${uid}`);
    const psUser = run('exec', name, 'node', '-p', "require('fs').statSync('/proc/1').uid");
    check(psUser === '10001', `PID 1 belongs to uid ${psUser}`);
    log(`runs as non-root (uid:gid ${uid}, PID 1 is node)`);
    const labels = inspect.Config.Labels ?? {};
    for (const l of ['title', 'version', 'revision', 'created', 'description'])
      check(labels[`org.opencontainers.image.${l}`], `label org.opencontainers.image.${l} is missing`);
    const flags = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).config.serviceNodeFlags;
    check(inspect.Config.Env.includes(`NODE_OPTIONS=${flags}`), `NODE_OPTIONS is not npm start's flags (${flags})`);
    // The lockfile marks what only development needs ("dev": true); a dev dependency that a production one also
    // needs (yaml, @types/node) is not marked and belongs in the image.
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages;
    const devOnly = Object.keys(lock).filter(
      (p) => lock[p].dev && p.includes('node_modules/') && !p.startsWith('examples/'),
    );
    check(devOnly.includes('node_modules/typescript'), 'the lockfile marks no dev-only package');
    const present = JSON.parse(
      run(
        'exec',
        name,
        'node',
        '-e',
        `const fs=require('fs');const paths=${JSON.stringify(devOnly)};
         const out=paths.filter(p=>fs.existsSync('/app/'+p));
         for (const p of ['/app/node_modules/.bin/tsc','/app/.git','/app/packages/server/src','/app/packages/sdk/src',
           '/app/examples','/app/kits','/app/.npmrc','/root/.npmrc','/usr/local/etc/npmrc','/run/secrets/npm_ca'])
           if (fs.existsSync(p)) out.push(p);
         const walk=(d)=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const f=d+'/'+e.name;
           if(e.isDirectory()){ if(!f.startsWith('/app/node_modules')) walk(f); }
           else if(/\\.(test|testlib)\\.(js|ts)$/.test(e.name)||/\\/testing\\//.test(f)) out.push(f);}};
         walk('/app');console.log(JSON.stringify(out))`,
      ),
    );
    check(present.length === 0, `the image holds what it must not: ${present.join(', ')}`);
    log(
      `none of the ${devOnly.length} dev-only packages of the lockfile, no tests, sources, .git or npm CA in the image`,
    );
    const size = Number(run('image', 'inspect', '-f', '{{.Size}}', image));
    log(`image size ${(size / 1e6).toFixed(0)} MB with its base`);

    // --- /metrics only on its own port ---
    check((await fetch(`${base}/metrics`)).status === 404, '/metrics answers on the service port');
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    check(metrics.status === 200 && (await metrics.text()).includes('process_cpu'), '/metrics on METRICS_PORT');
    log('/metrics on METRICS_PORT only');

    // --- an app, a signed game call, a test event ---
    const keys = await admin('GET', '/platform-keys');
    check(keys.status === 200, `platform keys: ${keys.status}`);
    verifyWith(
      Object.fromEntries(keys.body.keys.filter((k) => k.status !== 'retired').map((k) => [k.kid, k.publicKeyPem])),
    );
    const created = await admin('POST', '/apps', {
      name: 'Deploy test game',
      callbackUrls: { default: `${gameUrl}/pay/callback` },
    });
    check(created.status === 201, `create app: ${created.status} ${JSON.stringify(created.body)}`);
    const app = created.body;
    const client = new PlatformClient({
      baseUrl: base,
      clientId: app.clientId,
      secret: app.secret,
      appId: app.appId,
      retries: 0,
    });
    const notice = (i) => ({ userId: `u-${i}`, roleId: `r-${i}`, serverId: 's1', productCode: `p-${i}` });
    await client.notifyConsumption(notice(0));
    const forged = new PlatformClient({
      baseUrl: base,
      clientId: app.clientId,
      secret: 'x'.repeat(32),
      appId: app.appId,
      retries: 0,
    });
    const refused = await forged.notifyConsumption(notice(99)).then(
      () => false,
      () => true,
    );
    check(refused, 'a 4.6 call signed with the wrong secret was accepted');
    log('4.6 consumption notice signed with the app secret (md5, 5.1) accepted; a forged one refused');
    const first = await admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    check(first.status === 201, `test event: ${first.status}`);
    await waitFor('the test event at the game', async () => received.get(first.body.eventId) === 1, 30_000);
    log(`test event ${first.body.eventId} delivered and verified (5.3) by the game fixture`);
    const health = await waitFor(
      'the HEALTHCHECK',
      async () => run('inspect', '-f', '{{.State.Health.Status}}', name) === 'healthy',
      60_000,
    );
    check(health, 'HEALTHCHECK');
    log('HEALTHCHECK: healthy');

    // --- SIGTERM with work in flight ---
    answerDelayMs = 1500; // the game answers slowly: sends are in flight at the stop
    const queued = [];
    for (let i = 0; i < 6; i++)
      queued.push((await admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' })).body.eventId);
    const notices = await Promise.all([1, 2, 3, 4].map((i) => client.notifyConsumption(notice(i)).then(() => i)));
    await waitFor('a send in flight', async () => queued.some((id) => received.has(id)), 10_000);
    const stopAt = Date.now();
    run('kill', '--signal', 'TERM', name);
    await waitFor(
      'the container to exit',
      async () => run('inspect', '-f', '{{.State.Running}}', name) === 'false',
      20_000,
    );
    const stopMs = Date.now() - stopAt;
    const exit = run('inspect', '-f', '{{.State.ExitCode}}', name);
    check(exit === '0', `exit code after SIGTERM: ${exit}\n${run('logs', '--tail', '20', name)}`);
    log(
      `SIGTERM: drained and exited 0 in ${stopMs} ms (${queued.filter((id) => received.has(id)).length} of ${queued.length} events sent before the stop)`,
    );
    check(stopMs <= 20_000, `stopped in ${stopMs} ms`);
    answerDelayMs = 0;
    run('start', name);
    await waitFor(
      '/readyz after the restart',
      async () => (await request('GET', `${base}/readyz`)).status === 200,
      60_000,
    );
    await waitFor('every queued event at the game', async () => queued.every((id) => received.has(id)), 30_000);
    const listed = await admin('GET', `/consumption-notices?appId=${app.appId}`);
    check(listed.status === 200, `consumption notices: ${listed.status}`);
    for (const i of [0, ...notices])
      check(
        listed.body.notices.some((n) => n.userId === `u-${i}`),
        `consumption notice u-${i} lost`,
      );
    await sleep(1000); // a doubled send would show now
    const doubled = [...received].filter(([, n]) => n !== 1);
    check(doubled.length === 0, `events delivered more than once: ${JSON.stringify(doubled)}`);
    const events = await admin('GET', `/events?appId=${app.appId}&type=test`);
    // (The 4.6 notices queue events for the store partner, a URL this app has none of: not the subject here.)
    check(
      events.body.events.length === queued.length + 1 && events.body.events.every((e) => e.state === 'delivered'),
      `events not delivered: ${JSON.stringify(events.body.events.filter((e) => e.state !== 'delivered'))}`,
    );
    log(
      `after the restart: all ${notices.length + 1} notices there, all ${queued.length + 1} events delivered once each`,
    );
  } catch (e) {
    try {
      console.error(run('logs', '--tail', '40', name));
    } catch {
      // no container
    }
    throw e;
  } finally {
    try {
      run('rm', '-f', name);
    } catch {
      // already gone
    }
    game.close();
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  }
}

await main();
console.log(`  image checks passed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
