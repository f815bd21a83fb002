// Orders scenarios (issue 6), each against its ceiling (bench/ceilings/)
// measured next to it: the consumption notice (4.6, rate, its forward to the
// partner delivered while the bench runs, both backends), arrears (4.5, CPU per request,
// both backends, one pending supplement seeded per player on both sides) and
// order placement with both game calls (4.8 role query, 4.10 pre-order check)
// to a local game fixture (rate).
import crypto from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { PG_URL, READS, load, withCeiling, withFixture } from '../lib.mjs';
import { signedBody } from '../signing.mjs';
import { guestPlayers, macRequests } from './accounts.mjs';
import { buildMacAuthorization } from '../../packages/sdk/dist/index.js';

const require = createRequire(import.meta.url);

/** A 4.6 load: fresh signed notices of 1000 users, each for a new role (so every one is stored and forwarded). */
function loadNotices(url, appId, secret) {
  let n = 0;
  return load(url, {
    method: 'POST',
    path: '/order/v1/game/pay/notify',
    headers: { 'content-type': 'application/json' },
    setupRequest: (req) => ({
      ...req,
      body: signedBody(
        { userId: String(1 + (n % 1000)), roleId: `role-${n++}`, serverId: 's1', productCode: 'gems_100', appId },
        secret,
        { numericTimestamp: true },
      ),
    }),
  });
}

/** An order placement load: each player in turn orders one product for its own role (its user id, as the fixture answers). */
function loadOrders(url, p, players) {
  let i = 0;
  return load(url, {
    method: 'POST',
    path: p,
    headers: { 'content-type': 'application/json' },
    setupRequest: (req) => {
      const player = players[i++ % players.length];
      const authorization = buildMacAuthorization({
        kid: player.kid,
        macKey: player.macKey,
        method: 'POST',
        uri: p,
        host: '127.0.0.1',
        port: 443,
      });
      const body = JSON.stringify({
        orderId: crypto.randomBytes(12).toString('hex'),
        products: [{ productCode: 'gems_100', quantity: 1 }],
        game_server_id: 's1',
        game_role_id: player.userId,
        game_ext: 'bench',
        platform: 3,
        channel: 5,
        paymentType: 1,
      });
      return { ...req, body, headers: { ...req.headers, authorization } };
    },
  });
}

/**
 * One pending supplement (a store refund's, 4.5) per player in the service's
 * database: a refund order row and its supplement, as a store refund leaves
 * them (the ceiling seeds the same per player).
 */
async function seedArrears(svc, appId, players) {
  const now = Date.now();
  const order = `insert into orders (app_id, user_id, trx_type, status, platform, channel, payment_type, currency,
    total_minor, origin, merged_receipts, created_at, updated_at)
    values (${appId}, $1, 2, 0, 2, 1, 0, 'USD', 99, 'client', 0, ${now}, ${now}) returning trx_no`;
  const supplement = `insert into supplements (refund_trx_no, app_id, user_id, original_trx_no, product_id, currency,
    out_trade_no, bank_trade_no, refund_minor, channel_id, channel_type, platform, supply_status, created_at)
    values ($1, ${appId}, $2, $1, 'gems_100', 'USD', $3, null, 99, 1, 1, 2, 1, ${now})`;
  if (svc.backend === 'postgres') {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await c.query(`set search_path to ${svc.schema}`);
      for (const p of players) {
        const { rows } = await c.query(order, [p.userId]);
        await c.query(supplement, [rows[0].trx_no, p.userId, `GPA.${rows[0].trx_no}`]);
      }
    } finally {
      await c.end();
    }
    return;
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(svc.dataDir, 'platform.db'));
  try {
    db.pragma('busy_timeout = 10000');
    const insertOrder = db.prepare(order.replace('$1', '@user'));
    const insertSupplement = db.prepare(
      supplement.replaceAll('$1', '@trx').replace('$2', '@user').replace('$3', '@out'),
    );
    db.transaction(() => {
      for (const p of players) {
        const { trx_no } = insertOrder.get({ user: p.userId });
        insertSupplement.run({ trx: trx_no, user: p.userId, out: `GPA.${trx_no}` });
      }
    })();
  } finally {
    db.close();
  }
}

export default [
  {
    name: '4.6 POST game/pay/notify (md5 + replay check + forward)',
    references: [
      {
        name: 'ceiling 4.6',
        run: ({ backend }) =>
          withFixture((fixture) =>
            withCeiling('notice.mjs', backend, { PARTNER_URL: `${fixture.url}/partner` }, (proc, { md5App }) =>
              loadNotices(proc.url, md5App.appId, md5App.secret),
            ),
          ),
      },
    ],
    targets: [{ kind: 'rate', min: { sqlite: 0.55, postgres: 0.65 } }],
    async run(svc) {
      return withFixture(async (fixture) => {
        const app = await svc.admin('POST', '/apps', {
          name: 'bench consumption',
          partnerUrl: `${fixture.url}/partner`,
        });
        return loadNotices(svc.url, app.appId, app.secret);
      });
    },
  },
  {
    name: '4.5 GET user/arrears (MAC)',
    references: [
      {
        name: 'ceiling 4.5',
        run: ({ backend }) =>
          withCeiling('arrears.mjs', backend, { SUPPLEMENTS_PER_PLAYER: '1' }, (proc, { players }) => {
            const p = '/order/v1/user/arrears?clientId=ceiling';
            return load(proc.url, { path: p, setupRequest: macRequests(p, players) });
          }),
      },
    ],
    targets: [{ kind: 'cpu', max: READS }],
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench arrears' });
      const players = await guestPlayers(svc, app.clientId, 50);
      await seedArrears(svc, app.appId, players);
      const p = `/order/v1/user/arrears?clientId=${app.clientId}`;
      // Every player has its supplement listed (the seed reached the service's reads).
      const probe = await fetch(svc.url + p, { headers: macRequests(p, players)({ headers: {} }).headers });
      const list = (await probe.json()).data?.list;
      if (list?.length !== 1) throw new Error(`arrears seed not answered: ${JSON.stringify(list)}`);
      return load(svc.url, { path: p, setupRequest: macRequests(p, players) });
    },
  },
  {
    name: 'order placement (MAC, role query + pre-order check to a local game)',
    backends: ['postgres'],
    env: { SANDBOX_PAYMENTS: 'true' },
    references: [
      {
        name: 'ceiling orders',
        run: ({ backend }) =>
          withFixture((fixture) =>
            withCeiling(
              'order.mjs',
              backend,
              { ROLE_URL: `${fixture.url}/role`, PRE_ORDER_URL: `${fixture.url}/pre-order` },
              (proc, { players }) => loadOrders(proc.url, '/order/v1/client/orders?clientId=ceiling', players),
            ),
          ),
      },
    ],
    targets: [{ kind: 'rate', min: 0.7 }],
    async run(svc) {
      return withFixture(async (fixture) => {
        const app = await svc.admin('POST', '/apps', {
          name: 'bench orders',
          roleQueryUrl: `${fixture.url}/role`,
          preOrderCheckUrl: `${fixture.url}/pre-order`,
          callbackUrls: { default: `${fixture.url}/pay` },
        });
        await svc.admin('POST', `/apps/${app.appId}/products`, {
          productCode: 'gems_100',
          name: '100 gems',
          price: '0.99',
          currency: 'USD',
        });
        const players = await guestPlayers(svc, app.clientId, 50);
        return loadOrders(svc.url, `/order/v1/client/orders?clientId=${app.clientId}`, players);
      });
    },
  },
];
