// Orders scenarios (issue 6), PostgreSQL: the consumption notice (4.6) against
// pgbench's single-row INSERT rate at the same concurrency; arrears (4.5) and
// order placement with both game calls (4.8 role query, 4.10 pre-order check)
// against a local game fixture, against the hello-world baseline.
import crypto from 'node:crypto';
import path from 'node:path';
import { CONNECTIONS, ROOT, load, pgbenchInsertRate, startProcess } from '../lib.mjs';
import { signedBody } from '../signing.mjs';
import { guestPlayers, macRequests } from './accounts.mjs';
import { buildMacAuthorization } from '../../packages/sdk/dist/index.js';

async function withFixture(fn) {
  const fixture = await startProcess([path.join(ROOT, 'bench/game-fixture.mjs')]);
  try {
    return await fn(fixture);
  } finally {
    await fixture.stop();
  }
}

export default [
  {
    name: '4.6 POST game/pay/notify (md5 + replay check + forward)',
    backends: ['postgres'],
    minRatio: 0.5,
    target: '>= 0.5x pgbench single-row INSERT',
    async run(svc) {
      return withFixture(async (fixture) => {
        const app = await svc.admin('POST', '/apps', {
          name: 'bench consumption',
          partnerUrl: `${fixture.url}/partner`,
        });
        let n = 0;
        const result = await load(svc.url, {
          method: 'POST',
          path: '/order/v1/game/pay/notify',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({
            ...req,
            body: signedBody(
              {
                userId: String(1 + (n % 1000)),
                roleId: `role-${n++}`,
                serverId: 's1',
                productCode: 'gems_100',
                appId: app.appId,
              },
              app.secret,
              { numericTimestamp: true },
            ),
          }),
        });
        return { ...result, reference: { name: 'pgbench insert', rps: pgbenchInsertRate(CONNECTIONS) } };
      });
    },
  },
  {
    name: '4.5 GET user/arrears (MAC)',
    backends: ['postgres'],
    minRatio: 0.4,
    target: '>= 0.4x hello world',
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench arrears' });
      const players = await guestPlayers(svc, app.clientId, 50);
      const p = `/order/v1/user/arrears?clientId=${app.clientId}`;
      return load(svc.url, { path: p, setupRequest: macRequests(p, players) });
    },
  },
  {
    name: 'order placement (MAC, role query + pre-order check to a local game)',
    backends: ['postgres'],
    env: { SANDBOX_PAYMENTS: 'true' },
    minRatio: 0.25,
    target: '>= 0.25x hello world',
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
        const p = `/order/v1/client/orders?clientId=${app.clientId}`;
        let i = 0;
        return load(svc.url, {
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
      });
    },
  },
];
