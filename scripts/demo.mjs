#!/usr/bin/env node
// The end-to-end demo (`npm run demo`, after the build): starts the service on its
// embedded default (fresh temporary DATA_DIR, sandbox features on) and the reference
// game server (examples/game-server), then plays the whole story through public
// HTTP APIs only (admin API, client APIs, the SDK's PlatformClient), narrating each
// step. Exits non-zero if any step fails; always stops both processes and removes
// the temporary folder.
//
// `--service <url> --admin-token <token>` plays it against a platform already running instead (the compose
// platform, docs/deploy.md): it must reach this machine's loopback (host network) and run with the demo's settings
// (deploy/compose/demo.env: sandbox features, the fakes' ports given by --stripe-port and --alipay-port, quick
// retries). `--after-step <n>:<command>` runs a shell command between two steps (the deploy test kills an instance).
import './check-node.mjs'; // stops at once on any Node.js but the pinned one
import { execSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildMacAuthorization, PlatformClient } from '@game-platform/sdk';
import { StripeFake } from '../packages/server/dist/testing/stripe-fake.js';
import { AlipayFake } from '../packages/server/dist/testing/alipay-fake.js';
import { freePort, jsonRequest as http, waitFor as waitUntil } from './lib/net.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { values: options } = parseArgs({
  options: {
    service: { type: 'string' },
    'admin-token': { type: 'string' },
    'stripe-port': { type: 'string', default: '0' },
    'alipay-port': { type: 'string', default: '0' },
    'after-step': { type: 'string' },
  },
});
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'game-platform-demo-'));
const external = options.service?.replace(/\/+$/, '');
const adminToken = external
  ? (options['admin-token'] ?? process.env.ADMIN_TOKEN ?? '')
  : crypto.randomBytes(24).toString('base64url');
if (external && !adminToken) {
  console.error('--service needs --admin-token (or ADMIN_TOKEN): the admin token of that platform');
  process.exit(2);
}
const afterStep = options['after-step']?.match(/^(\d+):(.+)$/s);
const opsToken = crypto.randomBytes(24).toString('base64url');
const started = Date.now();
const children = [];
let echoing = true; // off while shutting down, so the story ends with its verdict

// ---------- output ----------

const tty = process.stdout.isTTY;
const c = (code) => (s) => (tty ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = c('1'),
  green = c('32'),
  red = c('31'),
  dim = c('2'),
  cyan = c('36');
let stepNo = 0;
const say = (line) => console.log(`    ${line}`);
const ok = (line) => console.log(`    ${green('✔')} ${line}`);

async function step(title, fn) {
  stepNo += 1;
  console.log(`\n${bold(`[${stepNo}] ${title}`)}`);
  const t0 = Date.now();
  const result = await fn();
  console.log(dim(`    (${Date.now() - t0} ms)`));
  if (afterStep && Number(afterStep[1]) === stepNo) {
    say(dim(`after step ${stepNo}: ${afterStep[2]}`));
    execSync(afterStep[2], { stdio: 'inherit' });
  }
  return result;
}

class DemoError extends Error {}
function check(condition, message) {
  if (!condition) throw new DemoError(message);
}

// ---------- processes ----------

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
    if (!echo || !echoing) return;
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

/** Waits as scripts/lib/net.mjs does, giving up at once when `proc` has exited. */
function waitFor(what, probe, timeoutMs = 15_000, proc) {
  return waitUntil(what, probe, timeoutMs, {
    gone: () => (proc?.exited ? `${proc.name} exited (${proc.code})` : null),
    error: (message) => new DemoError(message),
  });
}

/** Headless Chromium (Debian's) with a tab at phone width, for the web payment page steps. */
async function phoneBrowser() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  check(fs.existsSync(chromium), `${chromium} is missing (apt-get install chromium, or set CHROMIUM_PATH)`);
  const { chromium: driver } = await import('playwright-core');
  const browser = await driver.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
  page.setDefaultTimeout(10_000);
  return { browser, page };
}

/** The fake Stripe on loopback the card payment step pays through (packages/server/src/testing/stripe-fake.ts). */
let stripe = null;
/** The fake Alipay on loopback the Alipay step pays through (packages/server/src/testing/alipay-fake.ts). */
let alipay = null;

async function stopAll() {
  echoing = false;
  await stripe?.close();
  stripe = null;
  await alipay?.close();
  alipay = null;
  await Promise.all(
    children.map(
      (p) =>
        new Promise((resolve) => {
          if (p.exited) return resolve();
          const kill = setTimeout(() => p.child.kill('SIGKILL'), 5000);
          p.child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          p.child.kill('SIGTERM');
        }),
    ),
  );
}

function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** `--service`: the fakes on the ports that platform was told, and its /readyz. */
async function useRunningPlatform(base) {
  stripe = await StripeFake.start(Number(options['stripe-port']));
  alipay = await AlipayFake.start(Number(options['alipay-port']));
  await waitFor('the platform to be ready', async () => (await http('GET', `${base}/readyz`)).status === 200);
  ok(`platform ready at ${base}; fake Stripe at ${stripe.url}, fake Alipay at ${alipay.gateway}`);
}

// ---------- HTTP helpers ----------

function expectStatus(r, status, what) {
  check(r.status === status, `${what}: expected HTTP ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

// ---------- the story ----------

async function main() {
  const servicePort = external ? 0 : await freePort();
  const gamePort = await freePort();
  const base = external ?? `http://127.0.0.1:${servicePort}`;
  const game = `http://127.0.0.1:${gamePort}`;
  const admin = (method, p, body) =>
    http(method, `${base}/admin/v1${p}`, { headers: { authorization: `Bearer ${adminToken}` }, body });
  const ops = (method, p, body) =>
    http(method, `${game}${p}`, { headers: { authorization: `Bearer ${opsToken}` }, body });

  console.log(bold('Game platform end-to-end demo'));
  console.log(dim(`  temporary folder ${tmp}`));

  await step(
    external
      ? `Use the platform running at ${external} (its settings: deploy/compose/demo.env)`
      : 'Start the platform service (embedded SQLite, sandbox features on)',
    async () => {
      if (external) return useRunningPlatform(base);
      // Stripe is a fake on loopback built from Stripe's API reference: no network, no account.
      stripe = await StripeFake.start();
      alipay = await AlipayFake.start();
      const proc = startProcess(
        'service',
        ['packages/server/dist/cli.js', 'serve'],
        {
          PORT: String(servicePort),
          HOST: '127.0.0.1',
          DATA_DIR: path.join(tmp, 'platform'),
          ADMIN_TOKEN: adminToken,
          NODE_ENV: 'development',
          SANDBOX_LOGIN: 'true',
          SANDBOX_PAYMENTS: 'true',
          STRIPE_API_BASE_URL: stripe.url,
          ALIPAY_GATEWAY_URL: alipay.gateway,
          CANCELLATION_COOLING_OFF_SECONDS: '0',
          // Quick retries, so a notification the game missed comes again within the demo.
          DELIVERY_SCHEDULE: '0,1s,2s,5s',
          LOG_LEVEL: 'warn',
        },
        false,
      );
      await waitFor(
        'the service to be ready',
        async () => (await http('GET', `${base}/readyz`)).status === 200,
        20_000,
        proc,
      );
      ok(`service ready at ${base} (log: ${proc.logFile})`);
    },
  );

  await step('Start the reference game server (examples/game-server)', async () => {
    const proc = startProcess(
      'game',
      ['examples/game-server/dist/main.js'],
      {
        PORT: String(gamePort),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(tmp, 'game'),
        // The keys from the platform's public GET /v1/platform-keys: a game server holds no admin credential.
        PLATFORM_URL: base,
        OPS_TOKEN: opsToken,
      },
      true,
    );
    await waitFor('the game server', async () => (await http('GET', `${game}/healthz`)).status === 200, 15_000, proc);
    ok(`game server ready at ${game}`);
  });

  const app = await step("Create the app (admin API) with the game server's URLs", async () => {
    const a = expectStatus(
      await admin('POST', '/apps', {
        name: 'Demo game',
        callbackUrls: { default: `${game}/pay/callback` },
        roleQueryUrl: `${game}/game/role`,
        roleListUrl: `${game}/game/roles`,
        preOrderCheckUrl: `${game}/game/pre-order`,
        cancellationCallbackUrl: `${game}/account/cancel`,
      }),
      201,
      'create app',
    );
    ok(`appId ${a.appId}, clientId ${a.clientId} (md5 secret shown once, kept by the game)`);
    say(`payment callback → ${a.callbackUrls.default}`);
    return a;
  });

  await step('Give the game server the platform public key (5.3)', async () => {
    const { keys } = expectStatus(await admin('GET', '/platform-keys'), 200, 'list platform keys');
    const published = keys.filter((k) => k.status !== 'retired').map((k) => k.kid);
    const refreshed = expectStatus(await ops('POST', '/ops/platform-keys/refresh'), 200, 'game key refresh');
    check(
      published.every((k) => refreshed.keyIds.includes(k)),
      `game server has ${refreshed.keyIds}, platform publishes ${published}`,
    );
    ok(`platform publishes ${published.join(', ')}; the game server verifies with ${refreshed.keyIds.join(', ')}`);
  });

  const client = new PlatformClient({
    baseUrl: base,
    clientId: app.clientId,
    secret: app.secret,
    appId: app.appId,
    retries: 0,
  });
  const player = await step(
    'Log in a player (sandbox Android-store login) and verify it on the game side (4.3)',
    async () => {
      const { assertion } = expectStatus(
        await admin('POST', '/sandbox/login-assertions', {
          loginType: 3,
          openId: `demo-player-${crypto.randomBytes(4).toString('hex')}`,
          nickname: 'Demo Player',
        }),
        201,
        'mint sandbox assertion',
      );
      const login = expectStatus(
        await http('POST', `${base}/api/account/v1/client/login`, {
          body: { clientId: app.clientId, provider: 'sandbox', credential: assertion },
        }),
        200,
        'login',
      );
      const { kid, macKey, userId } = login.data;
      ok(`logged in: userId ${userId}, MAC token ${kid.slice(0, 8)}…`);
      const profile = await client.getProfile({ kid, macKey });
      check(profile.userId === userId, `profile userId ${profile.userId} != ${userId}`);
      ok(
        `profile (4.3, MAC-signed by the SDK): userId ${profile.userId}, loginType ${profile.loginType}, region ${profile.userRegion}`,
      );
      return { kid, macKey, userId };
    },
  );

  const roleId = 'hero-1';
  const serverId = 's1';
  await step('The player creates a role in the game', async () => {
    expectStatus(
      await ops('POST', '/ops/roles', {
        userId: player.userId,
        roleId,
        serverId,
        name: 'Aria',
        avatar: 'https://game.example/aria.png',
        roleLv: 7,
        serverName: 'Server One',
      }),
      201,
      'create role',
    );
    ok(`role ${roleId} on server ${serverId} belongs to user ${player.userId}`);
  });

  await step(
    "Report a player with evidence (4.2 signed upload URL, PUT, then 4.1), via the SDK's PlatformClient",
    async () => {
      // The reportee: another player, logged in as a guest.
      const guest = expectStatus(
        await http('POST', `${base}/api/account/v1/client/login/guest`, {
          body: { clientId: app.clientId, deviceId: `demo-device-${crypto.randomBytes(6).toString('hex')}` },
        }),
        200,
        'guest login',
      );
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
      const shown = expectStatus(
        await admin('GET', `/reports/${reports[0].reportId}?moderator=demo`),
        200,
        'show report',
      );
      check(
        shown.evidence.length === 1 && shown.evidence[0].uri === evidence.uri,
        'the report does not cite the evidence',
      );
      const download = await fetch(shown.evidence[0].downloadUrl);
      const bytes = Buffer.from(await download.arrayBuffer());
      check(
        download.status === 200 && bytes.equals(clip),
        `evidence download: HTTP ${download.status}, ${bytes.length} bytes`,
      );
      ok(
        `moderation queue: report ${shown.reportId} (${shown.status}) against ${cheater}, reason "${shown.reasons[0].title}", evidence downloads intact`,
      );
    },
  );

  // The player's own calls to the platform carry the MAC token of their login (5.2).
  const asPlayer = (method, p, body) => {
    const authorization = buildMacAuthorization({
      kid: player.kid,
      macKey: player.macKey,
      method,
      uri: p,
      host: '127.0.0.1',
    });
    return http(method, `${base}${p}`, { headers: { authorization }, body });
  };
  const gameStatus = async () => expectStatus(await ops('GET', '/ops/status'), 200, 'game status').calls;
  const gamePlayer = async () =>
    expectStatus(await ops('GET', `/ops/players/${player.userId}`), 200, 'game player state');
  const fmt = (items) =>
    Object.entries(items)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ') || 'nothing';
  /** Waits for the game to grant order `trxNo` (its verified 2.4 notification), and returns the items granted. */
  const grantOf = async (what, trxNo) => {
    const state = await waitFor(what, async () => {
      const p = await gamePlayer();
      return p.payments.find((x) => x.trxNo === trxNo && x.state === 'granted') ? p : undefined;
    });
    return state.payments.find((x) => x.trxNo === trxNo).items;
  };
  /** A launch link of the player's role for the web payment page (4.8). */
  const launchLink = async (extra = {}) =>
    expectStatus(
      await asPlayer('POST', `/order/v1/client/pay-links?clientId=${app.clientId}`, {
        game_role_id: roleId,
        game_server_id: serverId,
        ...extra,
        lang: 'en',
      }),
      200,
      'launch link',
    ).data;
  /**
   * Buys one `code` on the web payment page with a provider's `method`: the page sends the browser to the provider
   * (a URL matching `away`), `pay(page)` pays there, and the provider sends it back (`back`) to the result view,
   * which waits for the verified notification. Returns the order's trxNo.
   */
  const payWithProvider = async ({ code, total, method, away, pay, back }) => {
    const link = await launchLink();
    const { browser, page } = await phoneBrowser();
    try {
      await page.goto(link.url);
      await page.locator('#role-name').waitFor();
      await page.fill(`.product[data-code="${code}"] input`, '1');
      await page.locator('#quote-total', { hasText: total }).waitFor();
      await page.check(`input[name="method"][value="${method}"]`);
      await page.click('#btn-pay');
      await page.waitForURL(away);
      await pay(page);
      await page.waitForURL(back);
      const trxNo = Number(new URL(page.url()).searchParams.get('trxNo'));
      await page.locator('#result-status[data-status="0"]').waitFor();
      return trxNo;
    } finally {
      await browser.close();
    }
  };

  await step('Set up the catalog (admin API): products with their Android store SKUs', async () => {
    for (const p of [
      {
        productCode: 'starter_pack',
        name: 'Starter pack',
        price: '4.99',
        currency: 'USD',
        channelSkus: { 2: 'com.demo.starter' },
      },
      {
        productCode: 'gems_100',
        name: '100 gems',
        price: '0.99',
        currency: 'USD',
        channelSkus: { 2: 'com.demo.gems100' },
      },
    ]) {
      const created = expectStatus(
        await admin('POST', `/apps/${app.appId}/products`, p),
        201,
        `create product ${p.productCode}`,
      );
      ok(`${created.productCode}: ${created.price} ${created.currency} (Android SKU ${created.channelSkus['2']})`);
    }
    say('the game grants starter_pack = 50 gems + 1 sword, at most 1 per role (its own catalog)');
  });

  const order = await step(
    'Place an order: the platform asks the game (role query 4.8, pre-order check 4.10)',
    async () => {
      const before = await gameStatus();
      const placed = expectStatus(
        await asPlayer('POST', `/order/v1/client/orders?clientId=${app.clientId}`, {
          orderId: `demo-order-${crypto.randomBytes(4).toString('hex')}`,
          products: [{ productCode: 'starter_pack', quantity: 1 }],
          game_server_id: serverId,
          game_role_id: roleId,
          game_ext: 'campaign=spring',
          platform: 2,
          channel: 2,
          paymentType: 0,
        }),
        200,
        'place order',
      ).data.order;
      const after = await gameStatus();
      check(after.roleQuery === before.roleQuery + 1, 'the game was not asked for the role (4.8)');
      check(after.preOrderAllowed === before.preOrderAllowed + 1, 'the game did not allow the order (4.10)');
      ok('the game confirmed role hero-1 belongs to the player (4.8) and allowed 1 x starter_pack (4.10)');
      ok(
        `order trxNo ${placed.trxNo}, outTrxNo ${placed.outTrxNo}: ${placed.totalAmount} ${placed.currency}, status ${placed.status} (${placed.statusName})`,
      );
      return placed;
    },
  );

  await step('Pay it in the sandbox store; the signed payment callback grants the items (4.7, 2.4)', async () => {
    const paid = expectStatus(
      await admin('POST', `/sandbox/orders/${order.trxNo}/pay`, {
        outcome: 'success',
        bankTrxNo: 'GPA.3301-0001-0001',
        clientAmount: '4.99',
        clientCurrency: 'USD',
        clientRegion: 'JP',
      }),
      200,
      'sandbox pay',
    );
    ok(`store reports the payment: status ${paid.status} (${paid.statusName}), notification ${paid.notifyId} queued`);
    const granted = await grantOf('the grant', order.trxNo);
    await waitFor('the platform to record the delivery', async () => {
      const d = expectStatus(await admin('GET', `/orders/${order.trxNo}`), 200, 'order details');
      return d.notifications.some((n) => n.state === 'delivered');
    });
    ok(`the game verified the signature and granted ${fmt(granted)} to ${roleId}; the platform marks it delivered`);
  });

  await step('A second starter pack: the pre-order check answers 105 (purchase limit)', async () => {
    const r = await asPlayer('POST', `/order/v1/client/orders?clientId=${app.clientId}`, {
      products: [{ productCode: 'starter_pack', quantity: 1 }],
      game_server_id: serverId,
      game_role_id: roleId,
      platform: 2,
      channel: 2,
      paymentType: 0,
    });
    check(
      r.status === 409 && r.body.code === 40920 && r.body.data?.code === 105,
      `expected 40920 with game code 105, got ${r.status} ${JSON.stringify(r.body)}`,
    );
    ok(
      `order refused: ${r.body.code} ${r.body.msg} (game code ${r.body.data.code}: ${r.body.data.meaning ?? ''}; ${r.body.detail})`,
    );
  });

  await step('The player spends 30 gems in the game', async () => {
    expectStatus(
      await ops('POST', `/ops/players/${player.userId}/spend`, { roleId, serverId, item: 'gems', quantity: 30 }),
      200,
      'spend',
    );
    ok(`inventory now: ${(await gamePlayer()).inventory.map((i) => `${i.quantity} ${i.item}`).join(', ')}`);
  });

  const refund = await step('A store refund; the signed refund callback takes the items back (2.5)', async () => {
    const r = expectStatus(
      await admin('POST', `/sandbox/orders/${order.trxNo}/refund`, { bankRefundNo: 'GPA.REFUND-0001' }),
      201,
      'sandbox refund',
    );
    ok(`refund order trxNo ${r.trxNo} (trxType ${r.trxType}) of payment ${r.originalTrxNo}`);
    const state = await waitFor('the refund callback', async () => {
      const p = await gamePlayer();
      return p.refunds.find((x) => x.trxNo === r.trxNo) ? p : undefined;
    });
    const handled = state.refunds.find((x) => x.trxNo === r.trxNo);
    check(handled.state === 'revoked', `refund state ${handled.state}`);
    check(!state.payments.some((x) => x.trxNo === r.trxNo), 'the refund was recorded as a payment');
    ok(`the game revoked ${fmt(handled.revoked)}; already spent, recorded as debt: ${fmt(handled.owed)}`);
    return r;
  });

  const arrear = await step(
    'The arrears (4.5): the pending supplement order, via PlatformClient.getArrears',
    async () => {
      const list = await client.getArrears({ kid: player.kid, macKey: player.macKey });
      check(
        list.length === 1 && list[0].tradeNo === refund.trxNo && list[0].supplyStatus === 1,
        `arrears: ${JSON.stringify(list)}`,
      );
      const a = list[0];
      ok(
        `tradeNo ${a.tradeNo}: ${a.refundAmount} ${a.currency} for ${a.productId}, supplyStatus ${a.supplyStatus} (pending), channel ${a.channelType}`,
      );
      return a;
    },
  );

  await step(
    'The player pays the supplement; the arrears are empty and no second payment notification is sent',
    async () => {
      const paymentsBefore = (await gameStatus()).payment;
      const opened = expectStatus(
        await asPlayer('POST', `/order/v1/user/arrears/${arrear.tradeNo}/pay?clientId=${app.clientId}`),
        200,
        'open supplement payment',
      ).data.order;
      ok(
        `supplement payment order trxNo ${opened.trxNo} (trxType ${opened.trxType}), ${opened.totalAmount} ${opened.currency}`,
      );
      const paid = expectStatus(
        await admin('POST', `/sandbox/orders/${opened.trxNo}/pay`, {
          outcome: 'success',
          bankTrxNo: 'GPA.3301-0001-0002',
        }),
        200,
        'sandbox pay supplement',
      );
      check(paid.status === 0, `supplement payment status ${paid.status}`);
      ok('the store reports the supplement paid');
      const list = await client.getArrears({ kid: player.kid, macKey: player.macKey });
      check(list.length === 0, `arrears still list ${list.length} order(s)`);
      ok('arrears (4.5) now empty');
      // Give a (wrongly) queued notification time to arrive: the dispatcher would send it at once.
      await new Promise((r) => setTimeout(r, 1500));
      const { events } = expectStatus(
        await admin('GET', `/events?appId=${app.appId}&type=payment`),
        200,
        'list events',
      );
      check(events.length === 1, `the platform queued ${events.length} payment notifications`);
      const paymentsAfter = (await gameStatus()).payment;
      check(
        paymentsAfter === paymentsBefore,
        `the game received ${paymentsAfter - paymentsBefore} more payment notification(s)`,
      );
      ok('one payment notification in all; the game received none for the supplement (2.5 rule 3)');
    },
  );

  await step(
    'The player buys in the web payment page, in a headless browser (launch link, 4.8, 4.10, 2.4)',
    async () => {
      const link = await launchLink({ game_ext: 'from=web-view' });
      ok(`launch link for the web view (single-use, until ${link.expiresAt})`);
      const { browser, page } = await phoneBrowser();
      let trxNo;
      try {
        await page.goto(link.url);
        const name = await page.locator('#role-name').innerText();
        ok(`the page shows the role the game confirmed (4.8): ${name}`);
        await page.fill('.product[data-code="gems_100"] input', '2');
        await page.locator('#quote-total', { hasText: /\d\.\d\d/ }).waitFor();
        say(`total from the service: ${(await page.locator('#quote-total').innerText()).trim()}`);
        await page.click('#btn-pay');
        await page.click('#sandbox-pay');
        await page.locator('#result-status[data-status="0"]').waitFor();
        trxNo = Number(await page.locator('#result-trx').innerText());
        ok(`pre-order check allowed it (4.10); paid in the sandbox step: order ${trxNo}`);
      } finally {
        await browser.close();
      }
      const granted = await grantOf('the grant of the web order', trxNo);
      ok(`the game verified the 2.4 notification and granted ${fmt(granted)} to ${roleId}`);
    },
  );

  await step(
    'The player pays by card through Stripe Checkout (a fake Stripe on loopback), the verified webhook grants (2.4, channel 6)',
    async () => {
      const webhookUrl = `${base}/notify/v1/providers/stripe/${app.appId}`;
      const keys = stripe.account(webhookUrl);
      const set = expectStatus(
        await admin('PUT', `/apps/${app.appId}/payment-providers/stripe`, {
          secrets: { secretKey: keys.secretKey, webhookSecret: keys.webhookSecret },
        }),
        200,
        'Stripe settings',
      );
      ok(
        `Stripe enabled for ${set.regions.join(', ')} players; secrets stored: ${set.secretsSet.join(', ')} (never shown)`,
      );
      say(`webhook URL pasted into Stripe: ${webhookUrl}`);
      const trxNo = await payWithProvider({
        code: 'gems_100',
        total: /\d\.\d\d/,
        method: 'stripe',
        away: /\/c\/pay\/cs_test_/,
        pay: async (page) => {
          ok(`the page sent the browser to Stripe's hosted checkout: ${new URL(page.url()).pathname}`);
          await page.fill('#cardNumber', '4242 4242 4242 4242');
          await page.click('#submit');
        },
        back: /\?trxNo=\d+$/,
      });
      ok(`back on the page: order ${trxNo} paid (the result view waited for the verified webhook)`);
      const delivered = stripe.deliveries.filter((d) => d.url === webhookUrl).map((d) => `${d.event.type} ${d.status}`);
      say(`Stripe's signed webhooks: ${delivered.join(', ')}`);
      const order = expectStatus(await admin('GET', `/orders/${trxNo}`), 200, 'the order').order;
      check(order.channel === 6 && /^pi_/.test(order.bankTrxNo ?? ''), `order ${JSON.stringify(order)}`);
      const granted = await grantOf('the grant of the card order', trxNo);
      ok(`the game verified one 2.4 (channel 6, bankTrxNo ${order.bankTrxNo}) and granted ${fmt(granted)}`);
    },
  );

  await step(
    'The player pays in yuan with Alipay (a fake Alipay on loopback): the cashier, the RSA2-signed notify grants (2.4, channel 4)',
    async () => {
      // Alipay's trades are CNY: a product priced in yuan that the game's catalog knows (gems_500).
      const product = expectStatus(
        await admin('POST', `/apps/${app.appId}/products`, {
          productCode: 'gems_500',
          name: '500 gems',
          price: '30.00',
          currency: 'CNY',
        }),
        201,
        'create product gems_500',
      );
      ok(`${product.productCode}: ${product.price} ${product.currency}`);
      const account = alipay.account();
      const set = expectStatus(
        await admin('PUT', `/apps/${app.appId}/payment-providers/alipay`, {
          regions: ['overseas', 'mainland'],
          config: { appId: account.appId, alipayPublicKey: account.alipayPublicKey },
          secrets: { privateKey: account.privateKey },
        }),
        200,
        'Alipay settings',
      );
      ok(`Alipay enabled for ${set.regions.join(', ')} players; secrets stored: ${set.secretsSet.join(', ')}`);
      say(`notify URL (sent with each payment): ${base}/notify/v1/providers/alipay/${app.appId}`);
      const trxNo = await payWithProvider({
        code: 'gems_500',
        total: /30\.00/,
        method: 'alipay',
        away: /\/gateway\.do\?/,
        pay: async (page) => {
          ok(`the page sent the browser to Alipay's cashier (${new URL(page.url()).searchParams.get('method')})`);
          await page.fill('#account', 'player@example.com');
          await page.click('#btn-alipay-pay');
        },
        back: /\?trxNo=\d+&/,
      });
      ok(`back on the page: order ${trxNo} paid (the result view waited for the verified notify)`);
      say(`Alipay's signed notifies answered: ${alipay.notifies.map((n) => `${n.status} ${n.body}`).join(', ')}`);
      const order = expectStatus(await admin('GET', `/orders/${trxNo}`), 200, 'the order').order;
      check(order.channel === 4 && /^\d{28}$/.test(order.bankTrxNo ?? ''), `order ${JSON.stringify(order)}`);
      const granted = await grantOf('the grant of the Alipay order', trxNo);
      ok(`the game verified one 2.4 (channel 4, bankTrxNo ${order.bankTrxNo}) and granted ${fmt(granted)}`);
    },
  );

  await step('The player cancels the account; the signed cancellation callback reaches the game (6)', async () => {
    const uri = `/api/account/v1/client/cancellation?clientId=${app.clientId}`;
    const authorization = buildMacAuthorization({
      kid: player.kid,
      macKey: player.macKey,
      method: 'POST',
      uri,
      host: '127.0.0.1',
    });
    const asked = expectStatus(
      await http('POST', `${base}${uri}`, { headers: { authorization } }),
      200,
      'cancellation request',
    );
    ok(`cancellation requested: ${asked.data.status} (cooling-off set to 0 s for the demo)`);
    expectStatus(await admin('POST', '/accounts/process-cancellations'), 200, 'process cancellations');
    await waitFor(
      'the cancellation callback',
      async () => (await ops('GET', '/ops/status')).body.calls.cancellation >= 1,
    );
    const state = expectStatus(await ops('GET', `/ops/players/${player.userId}`), 200, 'player state');
    check(
      state.roles.length === 0 && state.inventory.length === 0,
      `the game still has roles/items: ${JSON.stringify(state)}`,
    );
    ok("the game deleted the player's roles and items; its payment ledger stays");
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
  console.error(`\n${red(bold(`✖ step ${stepNo} failed: ${e instanceof DemoError ? e.message : (e?.stack ?? e)}`))}`);
  for (const p of children) console.error(`\n${dim(`--- last lines of ${p.name} log ---`)}\n${tail(p.logFile)}`);
} finally {
  await stopAll();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
