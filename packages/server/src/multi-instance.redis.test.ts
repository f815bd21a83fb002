import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { guestLogin, macRequest } from './testing/accounts/accounts.js';
import { SANDBOX, appWithProducts } from './testing/orders/orders.js';
import { spawnService, type ChildService } from './testing/child.js';
import { childShim } from './testing/child-shim.js';
import { testBackend } from './testing/database.js';
import { processEnv } from './testing/env.js';
import { startGameServer, type GameServer } from './testing/game-server.js';
import { scrapeMetrics, signMd5, type TestService } from './testing/service.js';

const LIMIT = 12;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Redis server of the test's own (the machine's redis-server binary), so stopping it touches no other test. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (const until = Date.now() + 10_000; Date.now() < until; await sleep(50)) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return child;
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start (apt-get install redis-server)');
}

/**
 * REDIS_URL (docs/operations.md "Several instances"): three instances on one PostgreSQL count one rate limit in
 * one Redis, so a caller gets L a minute across them, not 3L; with Redis stopped the limits fail open, each failed
 * count is in rate_limit_store_errors_total, and payments go on.
 */
describe(
  'rate limits shared by three instances through Redis',
  { skip: testBackend() !== 'postgres' && 'several instances need PostgreSQL' },
  () => {
    let redisPort: number;
    let redis: ChildProcess;
    let instances: ChildService[] = [];
    let shims: TestService[];
    let game: GameServer;
    let cleanup: () => Promise<void>;
    let playerId = '';

    before(async () => {
      redisPort = await freePort();
      redis = await startRedis(redisPort);
      const fresh = await processEnv();
      cleanup = fresh.cleanup;
      const env = {
        ...fresh.env,
        ...SANDBOX,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
      };
      // One first, so the migrations are not raced (multi-instance.test.ts covers that race).
      instances.push(await spawnService(env));
      instances.push(...(await Promise.all([spawnService(env), spawnService(env)])));
      shims = instances.map((c) => childShim(c.url, fresh.env.ADMIN_TOKEN!));
      const keys = (await shims[0]!.admin('GET', '/platform-keys')).body.keys as Array<{
        kid: string;
        publicKeyPem: string;
      }>;
      game = await startGameServer(Object.fromEntries(keys.map((k) => [k.kid, k.publicKeyPem])), (req) =>
        req.url.startsWith('/role')
          ? { status: 200, body: JSON.stringify({ userId: playerId, roleId: 'role-1', name: 'n', avatar: 'a' }) }
          : { status: 200, body: '' },
      );
    });

    after(async () => {
      for (const c of instances) c.process.kill('SIGKILL');
      redis?.kill('SIGKILL');
      await game?.close();
      await cleanup?.();
    });

    /** 4.2 for the app through the given instance: a rate-limited game route. */
    const upload = (child: ChildService, app: { clientId: string; secret: string }) => {
      const q = new URLSearchParams(
        signMd5({ 'client_info.client_id': app.clientId, file_name: 'a.png', file_size: '10' }, app.secret) as Record<
          string,
          string
        >,
      );
      return fetch(`${child.url}/svc/reporting/open/v1/upload/oss_sign_url?${q}`);
    };
    const storeErrors = async () => {
      let total = 0;
      for (const c of instances) {
        const m = /^rate_limit_store_errors_total (\d+)/m.exec(await scrapeMetrics(c.url));
        total += m ? Number(m[1]) : 0;
      }
      return total;
    };

    it(`a limit of ${LIMIT} a minute lets ${LIMIT} requests through across the three, not ${3 * LIMIT}`, async () => {
      const app = await shims[0]!.createApp({});
      const statuses: number[] = [];
      for (let i = 0; i < 3 * LIMIT; i++) statuses.push((await upload(instances[i % 3]!, app)).status);
      assert.equal(statuses.filter((s) => s === 200).length, LIMIT, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 2 * LIMIT);
      assert.deepEqual(statuses.slice(0, LIMIT), Array(LIMIT).fill(200), 'the first L pass, whichever instance');
      assert.equal(await storeErrors(), 0);
    });

    it('with Redis stopped, a player still logs in, places and pays an order; each failed count is in /metrics', async () => {
      redis.kill('SIGKILL');
      await new Promise((resolve) => redis.once('exit', resolve));
      const app = await appWithProducts(shims[0]!, {
        callbackUrls: { default: `${game.url}/cb` },
        roleQueryUrl: `${game.url}/role`,
        preOrderCheckUrl: `${game.url}/pre-order`,
      });
      const player = await guestLogin(shims[1]!, app.clientId);
      playerId = player.userId;
      const placed = await macRequest(shims[2]!, 'POST', `/order/v1/client/orders?clientId=${app.clientId}`, player, {
        body: {
          orderId: `redis-down-${Date.now()}`,
          products: [{ productCode: 'gems_100', quantity: 1 }],
          game_server_id: 's1',
          game_role_id: 'role-1',
          platform: 3,
          channel: 5,
          paymentType: 1,
        },
      });
      assert.equal(placed.status, 200, JSON.stringify(placed.body));
      const trxNo = placed.body.data.order.trxNo as number;
      const paid = await shims[0]!.admin('POST', `/sandbox/orders/${trxNo}/pay`, { outcome: 'success' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      for (const until = Date.now() + 20_000; ; await sleep(100)) {
        const delivered = game.requests.some((r) => r.url === '/cb' && r.body.includes(`"trxNo":${trxNo}`));
        if (delivered) break;
        assert.ok(Date.now() < until, 'the 2.4 payment notification reached the game');
      }
      assert.ok((await storeErrors()) >= 2, 'the login and the placement counted as failed counts (fail open)');
    });

    it('Redis back: the instances reconnect and the shared limit holds again', async () => {
      redis = await startRedis(redisPort);
      const app = await shims[0]!.createApp({});
      // Reconnects are retried at most every 2 s; wait until a count lands in Redis (a 429 past the limit).
      for (const until = Date.now() + 15_000; ; await sleep(250)) {
        const statuses: number[] = [];
        for (let i = 0; i < LIMIT + 1; i++) statuses.push((await upload(instances[i % 3]!, app)).status);
        if (statuses.at(-1) === 429) break;
        assert.ok(Date.now() < until, `the limit holds again after Redis is back: ${statuses.join(',')}`);
      }
    });
  },
);
