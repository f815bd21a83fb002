import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { spawnService, type ChildService } from '../testing/child.js';
import { startPgServer, startPgStandby, type PgServer } from '../testing/pg-server.js';
import { testBackend } from '../testing/database.js';
import { adminClient, scrapeMetrics, type TestService } from '../testing/service.js';
import { createDeveloper, portalAs, portalSessionOf, type PortalSession } from '../testing/portal/portal.js';

/**
 * The read replica (DATABASE_READ_URL, docs/operations.md "Read replica"): a real service process on a PostgreSQL
 * primary of this test's own and a streaming standby made from it with pg_basebackup. With the standby's replay
 * paused, writes through the admin API are answered and read back (the primary), while the console's lists and the
 * overview do not show them until replay resumes (the replica); the lag is in /metrics. With the standby stopped the
 * lists answer 503 UNAVAILABLE (no fallback to the primary, docs/scaling.md) and payments and admin writes go on.
 */
describe(
  'a read replica serves the lists and the overview',
  { skip: testBackend() !== 'postgres' && 'runs its own PostgreSQL primary and standby: once, in the postgres run' },
  () => {
    let primary: PgServer;
    let standby: PgServer;
    let child: ChildService;
    let dataDir: string;
    let standbySql: pg.Client | undefined;
    const adminToken = crypto.randomBytes(24).toString('base64url');
    let admin: ReturnType<typeof adminClient>;
    let appId: number;
    /** The portal helpers' view of the child service (they use only `admin` and `fetch`). */
    let svc: TestService;
    let studio: PortalSession;

    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /** Polls `check` until it holds (generous: a loaded 2-core machine replays and answers slowly). */
    async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
      const until = Date.now() + timeoutMs;
      while (!(await check())) {
        if (Date.now() > until) assert.fail(`${what}: not within ${timeoutMs} ms`);
        await pause(100);
      }
    }
    const standbyClient = async () => {
      const c = new pg.Client({ connectionString: standby.url });
      c.on('error', () => {});
      await c.connect();
      return c;
    };
    const metric = async (name: string): Promise<number | null> => {
      const text = await scrapeMetrics(child.url);
      const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
      return m ? Number(m[1]) : null;
    };

    /** Places a sandbox order of the app and pays it: answers its trxNo. */
    async function placeAndPay(): Promise<number> {
      const placed = await admin('POST', '/sandbox/orders', {
        appId,
        userId: '1001',
        orderId: `o-${crypto.randomBytes(6).toString('hex')}`,
        products: [{ productCode: 'gems_100', quantity: 1 }],
        game_server_id: 's1',
        game_role_id: 'r-1',
        game_ext: '',
        platform: 3,
        channel: 5,
        paymentType: 1,
        ipCountry: 'DE',
      });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const trxNo = Number(placed.body.order.trxNo);
      const paid = await admin('POST', `/sandbox/orders/${trxNo}/pay`, { outcome: 'success' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      return trxNo;
    }
    const listedOrders = async (): Promise<number[]> => {
      const res = await admin('GET', `/orders?appId=${appId}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.orders.map((o: { trxNo: string }) => Number(o.trxNo));
    };
    const listedEvents = async (): Promise<number> => {
      const res = await admin('GET', `/events?appId=${appId}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.events.length;
    };
    /** The audit trail's app creations (POST /admin/v1/apps). */
    const auditedAppCreations = async (): Promise<number> => {
      const res = await admin('GET', '/admin-actions?method=POST&limit=200');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.actions.filter((a: { path: string }) => a.path === '/admin/v1/apps').length;
    };
    /** The studio portal's order list and overview of the app: what the studio sees. */
    const portalOrders = async (): Promise<{ listed: number[]; overview: number }> => {
      const list = await portalAs(svc, studio, 'GET', `/apps/${appId}/orders?userId=1001`);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const overview = await portalAs(svc, studio, 'GET', `/apps/${appId}/overview`);
      assert.equal(overview.status, 200, JSON.stringify(overview.body));
      return {
        listed: list.body.orders.map((o: { trxNo: string }) => Number(o.trxNo)),
        overview: overview.body.commerce.reduce((n: number, d: { orders: number }) => n + d.orders, 0),
      };
    };
    const overviewOrders = async (): Promise<number> => {
      const res = await admin('GET', `/overview?appId=${appId}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.commerce.reduce((n: number, d: { orders: number }) => n + d.orders, 0);
    };

    before(async () => {
      primary = await startPgServer();
      standby = await startPgStandby(primary);
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-replica-'));
      child = await spawnService({
        DATABASE_URL: primary.url,
        DATABASE_READ_URL: standby.url,
        DATA_DIR: dataDir,
        ADMIN_TOKEN: adminToken,
        MASTER_KEY: crypto.randomBytes(32).toString('base64'),
        SANDBOX_PAYMENTS: 'true',
        RATE_LIMIT_PER_MINUTE: '0',
      });
      admin = adminClient(child.url, adminToken);
      const created = await admin('POST', '/apps', { name: 'replica game' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      appId = created.body.appId;
      const product = await admin('POST', `/apps/${appId}/products`, {
        productCode: 'gems_100',
        name: '100 gems',
        price: 6.99,
        currency: 'USD',
      });
      assert.equal(product.status, 201, JSON.stringify(product.body));
      // What the portal's test helpers use of a TestService: its admin API, fetch and clock (invitations, TOTP).
      svc = {
        admin,
        fetch: (p: string, init?: RequestInit) => fetch(child.url + p, init),
        now: () => Date.now(),
      } as unknown as TestService;
      studio = await portalSessionOf(svc, await createDeveloper(svc, 'replica-studio', [appId]));
    });

    after(async () => {
      await standbySql?.end().catch(() => {});
      child?.process.kill('SIGKILL');
      await child?.exited;
      standby?.destroy();
      primary?.destroy();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('lists and the overview read the replica; a write reads its own write on the primary; lag is in /metrics', async () => {
      const first = await placeAndPay();
      // The standby streams what the primary commits: the first order reaches the lists.
      await eventually('the first order listed', async () => (await listedOrders()).includes(first));
      await eventually('the first payment event listed', async () => (await listedEvents()) >= 1);
      assert.equal(await overviewOrders(), 1);
      await eventually('the portal shows the first order', async () => {
        const p = await portalOrders();
        return p.listed.includes(first) && p.overview === 1;
      });
      const eventsBefore = await listedEvents();
      await eventually('the first app creation in the audit trail', async () => (await auditedAppCreations()) === 1);
      // Caught up (all received WAL replayed): 0, not the time since the last commit on an idle primary.
      await eventually('lag 0 once caught up', async () => (await metric('database_replica_lag_seconds')) === 0);
      assert.equal(await metric('database_replica_up'), 1);

      standbySql = await standbyClient();
      await standbySql.query('select pg_wal_replay_pause()');
      await eventually(
        'replay paused',
        async () => (await standbySql!.query('select pg_get_wal_replay_pause_state() as s')).rows[0].s === 'paused',
      );

      // Writes go on, and each is read back at once: the detail reads come from the primary.
      const app2 = await admin('POST', '/apps', { name: 'written while the replica lags' });
      assert.equal(app2.status, 201);
      const shown = await admin('GET', `/apps/${app2.body.appId}`);
      assert.equal(shown.status, 200);
      assert.equal(shown.body.name, 'written while the replica lags');
      const second = await placeAndPay();
      const detail = await admin('GET', `/orders/${second}`);
      assert.equal(detail.status, 200, JSON.stringify(detail.body));
      assert.equal(Number(detail.body.order.trxNo), second);
      assert.equal(detail.body.order.status, 0, 'paid (succeeded), as just written');

      // The lists and the overview read the paused replica: the new order and its event are not there yet.
      await pause(1500);
      const listed = await listedOrders();
      assert.ok(listed.includes(first) && !listed.includes(second), `listed ${listed}`);
      assert.equal(await listedEvents(), eventsBefore);
      assert.equal(await overviewOrders(), 1);
      assert.equal(await auditedAppCreations(), 1, 'the audit trail lists what the replica has');
      assert.deepEqual(await portalOrders(), { listed: [first], overview: 1 }, "the studio's list and overview too");
      // The standby has WAL it has not replayed: the lag is the time since the last commit it replayed.
      const lag = await metric('database_replica_lag_seconds');
      assert.ok(lag !== null && lag >= 1, `lag ${lag} while replay is paused`);

      await standbySql.query('select pg_wal_replay_resume()');
      await eventually('the second order listed once replay resumes', async () =>
        (await listedOrders()).includes(second),
      );
      await eventually('its event listed', async () => (await listedEvents()) > eventsBefore);
      await eventually('the overview counts it', async () => (await overviewOrders()) === 2);
      await eventually('the portal shows the second order', async () => {
        const p = await portalOrders();
        return p.listed.includes(second) && p.overview === 2;
      });
      await eventually('the audit trail lists the second app', async () => (await auditedAppCreations()) === 2);
      await eventually('lag back to 0', async () => (await metric('database_replica_lag_seconds')) === 0);
      await standbySql.end();
      standbySql = undefined;
    });

    it('with the replica stopped the lists answer 503 UNAVAILABLE, payments and admin writes go on', async () => {
      standby.stop('fast');
      for (const p of [`/orders?appId=${appId}`, `/events?appId=${appId}`, `/overview?appId=${appId}`]) {
        const res = await fetch(`${child.url}/admin/v1${p}`, { headers: { authorization: `Bearer ${adminToken}` } });
        const body = (await res.json()) as any;
        assert.equal(res.status, 503, `${p}: ${JSON.stringify(body)}`);
        assert.equal(body.code, 50300);
        assert.ok(res.headers.get('retry-after'), `${p}: Retry-After`);
      }
      // Payments and admin writes do not need the replica, nor do reads of what they wrote.
      const trxNo = await placeAndPay();
      assert.equal((await admin('GET', `/orders/${trxNo}`)).body.order.status, 0);
      assert.equal((await admin('POST', '/apps', { name: 'written with the replica down' })).status, 201);
      assert.equal((await fetch(`${child.url}/readyz`)).status, 200, 'ready: the primary answers');
      // /metrics answers and says the replica is down.
      assert.equal(await metric('database_replica_up'), 0);

      standby.start();
      await eventually('the lists answer again', async () => {
        const res = await admin('GET', `/orders?appId=${appId}`);
        return res.status === 200 && res.body.orders.some((o: { trxNo: string }) => Number(o.trxNo) === trxNo);
      });
      assert.equal(await metric('database_replica_up'), 1);
    });
  },
);
