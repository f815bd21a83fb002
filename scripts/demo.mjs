#!/usr/bin/env node
// The end-to-end demo (`npm run demo`, after the build): starts the service on its
// embedded default (fresh temporary DATA_DIR, sandbox features on) and the reference
// game server (examples/game-server), then plays the whole story through public
// HTTP APIs only (admin API, client APIs, the SDK's PlatformClient), narrating each
// step. Exits non-zero if any step fails; always stops both processes and removes
// the temporary folder.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildMacAuthorization, PlatformClient } from '@game-platform/sdk';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'game-platform-demo-'));
const adminToken = crypto.randomBytes(24).toString('base64url');
const opsToken = crypto.randomBytes(24).toString('base64url');
const started = Date.now();
const children = [];

// ---------- output ----------

const tty = process.stdout.isTTY;
const c = (code) => (s) => (tty ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = c('1'), green = c('32'), red = c('31'), dim = c('2'), cyan = c('36');
let stepNo = 0;
const say = (line) => console.log(`    ${line}`);
const ok = (line) => console.log(`    ${green('✔')} ${line}`);

async function step(title, fn) {
  stepNo += 1;
  console.log(`\n${bold(`[${stepNo}] ${title}`)}`);
  const t0 = Date.now();
  const result = await fn();
  console.log(dim(`    (${Date.now() - t0} ms)`));
  return result;
}

class DemoError extends Error {}
function check(condition, message) {
  if (!condition) throw new DemoError(message);
}

// ---------- processes ----------

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts a node process; its output goes to a log file (and, for `echo`, to the screen, prefixed). */
function startProcess(name, args, env, echo) {
  const logFile = path.join(tmp, `${name}.log`);
  const log = fs.createWriteStream(logFile);
  const child = spawn(process.execPath, ['--enable-source-maps', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = { name, child, logFile, exited: false, code: null };
  child.on('exit', (code, signal) => {
    proc.exited = true;
    proc.code = code ?? signal;
  });
  let pending = '';
  child.stdout.on('data', (chunk) => {
    log.write(chunk);
    if (!echo) return;
    pending += chunk.toString('utf8');
    let i;
    while ((i = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      console.log(`    ${cyan(`${name} │`)} ${line.replace(/^\[game-server\] /, '')}`);
    }
  });
  child.stderr.on('data', (chunk) => log.write(chunk));
  children.push(proc);
  return proc;
}

async function waitFor(what, probe, timeoutMs = 15_000, proc) {
  const until = Date.now() + timeoutMs;
  let last;
  for (;;) {
    if (proc?.exited) throw new DemoError(`${proc.name} exited (${proc.code}) while waiting for ${what}`);
    try {
      const v = await probe();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new DemoError(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopAll() {
  await Promise.all(children.map((p) => new Promise((resolve) => {
    if (p.exited) return resolve();
    const kill = setTimeout(() => p.child.kill('SIGKILL'), 5000);
    p.child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    p.child.kill('SIGTERM');
  })));
}

function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// ---------- HTTP helpers ----------

async function http(method, url, { headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

function expectStatus(r, status, what) {
  check(r.status === status, `${what}: expected HTTP ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

// ---------- the story ----------

async function main() {
  const servicePort = await freePort();
  const gamePort = await freePort();
  const base = `http://127.0.0.1:${servicePort}`;
  const game = `http://127.0.0.1:${gamePort}`;
  const admin = (method, p, body) => http(method, `${base}/admin/v1${p}`, { headers: { authorization: `Bearer ${adminToken}` }, body });
  const ops = (method, p, body) => http(method, `${game}${p}`, { headers: { authorization: `Bearer ${opsToken}` }, body });

  console.log(bold('Game platform end-to-end demo'));
  console.log(dim(`  temporary folder ${tmp}`));

  await step('Start the platform service (embedded SQLite, sandbox features on)', async () => {
    const proc = startProcess('service', ['packages/server/dist/cli.js', 'serve'], {
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(tmp, 'platform'),
      ADMIN_TOKEN: adminToken,
      NODE_ENV: 'development',
      SANDBOX_LOGIN: 'true',
      SANDBOX_PAYMENTS: 'true',
      CANCELLATION_COOLING_OFF_SECONDS: '0',
      // Quick retries, so a notification the game missed comes again within the demo.
      DELIVERY_SCHEDULE: '0,1s,2s,5s',
      LOG_LEVEL: 'warn',
    }, false);
    await waitFor('the service to be ready', async () => (await http('GET', `${base}/readyz`)).status === 200, 20_000, proc);
    ok(`service ready at ${base} (log: ${proc.logFile})`);
  });

  await step('Start the reference game server (examples/game-server)', async () => {
    const proc = startProcess('game', ['examples/game-server/dist/main.js'], {
      PORT: String(gamePort),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(tmp, 'game'),
      PLATFORM_ADMIN_URL: base,
      PLATFORM_ADMIN_TOKEN: adminToken,
      OPS_TOKEN: opsToken,
    }, true);
    await waitFor('the game server', async () => (await http('GET', `${game}/healthz`)).status === 200, 15_000, proc);
    ok(`game server ready at ${game}`);
  });

  const app = await step('Create the app (admin API) with the game server\'s URLs', async () => {
    const a = expectStatus(await admin('POST', '/apps', {
      name: 'Demo game',
      callbackUrls: { default: `${game}/pay/callback` },
      roleQueryUrl: `${game}/game/role`,
      roleListUrl: `${game}/game/roles`,
      preOrderCheckUrl: `${game}/game/pre-order`,
      cancellationCallbackUrl: `${game}/account/cancel`,
    }), 201, 'create app');
    ok(`appId ${a.appId}, clientId ${a.clientId} (md5 secret shown once, kept by the game)`);
    say(`payment callback → ${a.callbackUrls.default}`);
    return a;
  });

  await step('Give the game server the platform public key (5.3)', async () => {
    const { keys } = expectStatus(await admin('GET', '/platform-keys'), 200, 'list platform keys');
    const published = keys.filter((k) => k.status !== 'retired').map((k) => k.kid);
    const refreshed = expectStatus(await ops('POST', '/ops/platform-keys/refresh'), 200, 'game key refresh');
    check(published.every((k) => refreshed.keyIds.includes(k)), `game server has ${refreshed.keyIds}, platform publishes ${published}`);
    ok(`platform publishes ${published.join(', ')}; the game server verifies with ${refreshed.keyIds.join(', ')}`);
  });

  const client = new PlatformClient({ baseUrl: base, clientId: app.clientId, secret: app.secret, appId: app.appId, retries: 0 });
  const player = await step('Log in a player (sandbox Android-store login) and verify it on the game side (4.3)', async () => {
    const { assertion } = expectStatus(await admin('POST', '/sandbox/login-assertions', {
      loginType: 3, openId: `demo-player-${crypto.randomBytes(4).toString('hex')}`, nickname: 'Demo Player',
    }), 201, 'mint sandbox assertion');
    const login = expectStatus(await http('POST', `${base}/api/account/v1/client/login`, {
      body: { clientId: app.clientId, provider: 'sandbox', credential: assertion },
    }), 200, 'login');
    const { kid, macKey, userId } = login.data;
    ok(`logged in: userId ${userId}, MAC token ${kid.slice(0, 8)}…`);
    const profile = await client.getProfile({ kid, macKey });
    check(profile.userId === userId, `profile userId ${profile.userId} != ${userId}`);
    ok(`profile (4.3, MAC-signed by the SDK): userId ${profile.userId}, loginType ${profile.loginType}, region ${profile.userRegion}`);
    return { kid, macKey, userId };
  });

  const roleId = 'hero-1';
  const serverId = 's1';
  await step('The player creates a role in the game', async () => {
    expectStatus(await ops('POST', '/ops/roles', { userId: player.userId, roleId, serverId, name: 'Aria', avatar: 'https://game.example/aria.png', roleLv: 7, serverName: 'Server One' }), 201, 'create role');
    ok(`role ${roleId} on server ${serverId} belongs to user ${player.userId}`);
  });

  await step('Report a player with evidence (4.2 signed upload URL, PUT, then 4.1), via the SDK\'s PlatformClient', async () => {
    // The reportee: another player, logged in as a guest.
    const guest = expectStatus(await http('POST', `${base}/api/account/v1/client/login/guest`, {
      body: { clientId: app.clientId, deviceId: `demo-device-${crypto.randomBytes(6).toString('hex')}` },
    }), 200, 'guest login');
    const cheater = guest.data.userId;
    ok(`a second player logged in as a guest: userId ${cheater}`);
    const clip = Buffer.from('frame 1: player clips through the wall\nframe 2: player is outside the map\n', 'utf8');
    const evidence = await client.uploadEvidence({ fileName: 'wallhack.txt', data: clip, svcid: player.userId });
    ok(`evidence uploaded (${evidence.size_byte} bytes) to ${evidence.uri}`);
    await client.report({
      client_info: { client_id: app.clientId, ip: '203.0.113.7' },
      reporter: { svcid: player.userId, role_id: roleId, server_code: serverId, role_name: 'Aria' },
      reportee: { svcid: cheater, role_id: 'shadow-9', server_code: serverId, role_name: 'Shadow' },
      reasons: [{ id: 3, title: 'cheating' }],
      evidence: [evidence],
      user_description: 'walks through walls',
    });
    ok('report accepted (4.1 answered 200 {})');
    const { reports } = expectStatus(await admin('GET', `/reports?appId=${app.appId}`), 200, 'moderation queue');
    check(reports.length === 1, `expected 1 report in the queue, got ${reports.length}`);
    const shown = expectStatus(await admin('GET', `/reports/${reports[0].reportId}?moderator=demo`), 200, 'show report');
    check(shown.evidence.length === 1 && shown.evidence[0].uri === evidence.uri, 'the report does not cite the evidence');
    const download = await fetch(shown.evidence[0].downloadUrl);
    const bytes = Buffer.from(await download.arrayBuffer());
    check(download.status === 200 && bytes.equals(clip), `evidence download: HTTP ${download.status}, ${bytes.length} bytes`);
    ok(`moderation queue: report ${shown.reportId} (${shown.status}) against ${cheater}, reason "${shown.reasons[0].title}", evidence downloads intact`);
  });

  // STORY-CONTINUES: the orders steps are added when that domain lands.

  await step('The player cancels the account; the signed cancellation callback reaches the game (6)', async () => {
    const uri = `/api/account/v1/client/cancellation?clientId=${app.clientId}`;
    const authorization = buildMacAuthorization({ kid: player.kid, macKey: player.macKey, method: 'POST', uri, host: '127.0.0.1' });
    const asked = expectStatus(await http('POST', `${base}${uri}`, { headers: { authorization } }), 200, 'cancellation request');
    ok(`cancellation requested: ${asked.data.status} (cooling-off set to 0 s for the demo)`);
    expectStatus(await admin('POST', '/accounts/process-cancellations'), 200, 'process cancellations');
    await waitFor('the cancellation callback', async () => (await ops('GET', '/ops/status')).body.calls.cancellation >= 1);
    const state = expectStatus(await ops('GET', `/ops/players/${player.userId}`), 200, 'player state');
    check(state.roles.length === 0 && state.inventory.length === 0, `the game still has roles/items: ${JSON.stringify(state)}`);
    ok('the game deleted the player\'s roles and items; its payment ledger stays');
  });

  console.log(`\n${green(bold(`Demo passed: ${stepNo} steps in ${((Date.now() - started) / 1000).toFixed(1)} s`))}`);
}

let exitCode = 0;
const onSignal = async () => {
  await stopAll();
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(130);
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);

try {
  await main();
} catch (e) {
  exitCode = 1;
  console.error(`\n${red(bold(`✖ step ${stepNo} failed: ${e instanceof DemoError ? e.message : e?.stack ?? e}`))}`);
  for (const p of children) console.error(`\n${dim(`--- last lines of ${p.name} log ---`)}\n${tail(p.logFile)}`);
} finally {
  await stopAll();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
