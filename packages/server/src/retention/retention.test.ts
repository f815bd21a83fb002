import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { appFor, FAST, waitForEvent } from '../testing/delivery/delivery.js';
import { enqueueEvent } from '../delivery/outbox.js';
import { CallLogRepository } from '../game-calls/call-log.repository.js';
import { Retention, type BatchReport } from './retention.js';
import { callRows } from '../testing/game-calls/call-log.js';
import { payOk, placeOk, SANDBOX, storeOrder } from '../testing/orders/orders.js';
import { nowSeconds, postReport, reportBody } from '../testing/reporting/reporting.js';

const DAY = 86_400_000;

/**
 * Retention over a moved clock: traffic of every purged kind is made through the service (test events delivered to a
 * game server, payment notifications, admin API writes, logged game calls), the clock runs on by periods, and each
 * sweep must leave nothing past its period, keep table sizes bounded, and keep what is kept forever.
 */
describe('retention', () => {
  let offset = 0;
  const now = () => Date.now() + offset;
  let svc: TestService;
  let game: GameServer;
  before(async () => {
    svc = await startTestService({ ...FAST, ...SANDBOX, RETENTION_BATCH: '7' }, { now });
    // Cancellation callbacks fail (500): their events die after the three FAST attempts.
    game = await startGameServer(await platformPublicKeys(svc.services), (req) =>
      req.url.startsWith('/account/cancel') ? { status: 500, body: 'no' } : { status: 200, body: 'ok' },
    );
  });
  after(async () => {
    await game?.close();
    await svc?.close();
  });

  const db = () => svc.services.database.db;
  const count = async (
    table: 'outbox' | 'delivery_attempts' | 'game_calls' | 'admin_actions' | 'orders' | 'reports',
    where?: any,
  ) => {
    let q = db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'));
    if (where) q = q.where(where);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const oldest = async (table: 'delivery_attempts' | 'game_calls' | 'admin_actions', column: string) => {
    const row = await db()
      .selectFrom(table)
      .select((eb) => eb.fn.min<number>(column as any).as('m'))
      .executeTakeFirstOrThrow();
    return row.m === null ? null : Number(row.m);
  };

  it('purges each kind after its period, keeps payment notifications, orders and reports, and keeps table sizes bounded', async () => {
    const app = await appFor(svc, game.url);
    const product = await svc.admin('POST', `/apps/${Number(app.appId)}/products`, {
      productCode: 'gems_100',
      name: '100 gems',
      price: 6.99,
      currency: 'USD',
      channelSkus: { 1: 'com.game.gems100' },
    });
    assert.equal(product.status, 201, JSON.stringify(product.body));
    const calls = new CallLogRepository(db(), svc.services.database.dialect);
    let payments = 0;
    const sizes: Array<Record<string, number>> = [];
    // 16 periods of 30 days: past every default (90, 30, 365 days).
    for (let period = 0; period < 16; period++) {
      const ids: number[] = [];
      for (const type of ['payment', 'refund']) {
        const res = await svc.admin('POST', `/apps/${Number(app.appId)}/test-events`, { type });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids.push(res.body.eventId);
      }
      const cancel = await svc.admin('POST', `/apps/${Number(app.appId)}/test-events`, { type: 'cancellation' });
      assert.equal(cancel.status, 201);
      const { eventId: payment } = await db()
        .transaction()
        .execute((trx) =>
          enqueueEvent(
            trx,
            {
              appId: Number(app.appId),
              type: 'payment',
              target: 'callback',
              body: (notifyId) => ({ notifyId, period }),
            },
            now(),
          ),
        );
      payments++;
      // A paid order (its payment notification goes to the game) and a player report: kept forever.
      const order = await placeOk(svc, storeOrder(Number(app.appId)));
      await payOk(svc, order.trxNo);
      payments++;
      const game4 = { appId: Number(app.appId), clientId: app.clientId, secret: app.secret };
      const reportee = { svcid: String(90100 + period), role_id: 'r2', server_code: 's1', role_name: 'M', extra: '' };
      const report = await postReport(svc, game4, reportBody(game4, { reportee }), { timestamp: nowSeconds(now()) });
      assert.equal(report.status, 200, JSON.stringify(report.body));
      for (const id of [...ids, payment]) await waitForEvent(svc, id, (e) => e.state === 'delivered');
      await waitForEvent(svc, cancel.body.eventId, (e) => e.state === 'dead');
      for (let i = 0; (await count('outbox', (eb: any) => eb('state', '=', 'pending'))) > 0; i++) {
        assert.ok(i < 400, "the order's payment notification is delivered");
        await new Promise((r) => setTimeout(r, 25));
      }
      for (let i = 0; i < 5; i++)
        await calls.record({
          app_id: Number(app.appId),
          kind: 'role_query',
          started_at: now(),
          url: null,
          try_no: 1,
          http_status: 200,
          latency_ms: 3,
          outcome: 'ok',
          error: null,
          role_id: 'r',
          server_id: 's',
          user_id: null,
        });

      offset += 30 * DAY + 60_000;
      await svc.services.retention.sweep();
      const t = now();
      // Nothing past its period is left.
      assert.equal(
        await count('outbox', (eb: any) =>
          eb.and([eb('type', 'in', ['test', 'consumption', 'cancellation']), eb('created_at', '<', t - 90 * DAY)]),
        ),
        0,
      );
      assert.ok(((await oldest('delivery_attempts', 'started_at')) ?? t) >= t - 90 * DAY);
      assert.ok(((await oldest('game_calls', 'started_at')) ?? t) >= t - 30 * DAY);
      assert.ok(((await oldest('admin_actions', 'at')) ?? t) >= t - 365 * DAY);
      // Payment notifications are financial records: every one stays, body and all.
      assert.equal(await count('outbox', (eb: any) => eb('type', '=', 'payment')), payments);
      assert.equal(await count('orders'), period + 1);
      assert.equal(await count('reports'), period + 1);
      sizes.push({
        events: await count('outbox', (eb: any) => eb('type', '<>', 'payment')),
        attempts: await count('delivery_attempts'),
        calls: await count('game_calls'),
        actions: await count('admin_actions'),
      });
    }
    // Steady traffic, bounded tables: 3 periods' worth of test events (3 each) and attempts (3 + 3 + 1 + 3 per
    // period, plus the paid order's notification), no game calls older than a period, a steady admin trail.
    const last = sizes.at(-1) as Record<string, number> & { events: number; attempts: number; actions: number };
    assert.ok(last.events <= 3 * 3, JSON.stringify(sizes));
    assert.ok(last.attempts <= 3 * 11, JSON.stringify(sizes));
    assert.equal(last.calls, 0, JSON.stringify(sizes));
    assert.equal(sizes[14]!.actions, last.actions, JSON.stringify(sizes));
    assert.ok(sizes.slice(4).every((s) => s.events === last.events && s.attempts === last.attempts));
    // The app (not a traffic record) is untouched, and the payments' events are still readable.
    assert.equal((await svc.admin('GET', `/apps/${Number(app.appId)}`)).status, 200);

    const metrics = await svc.metrics();
    for (const kind of ['delivery_events', 'delivery_attempts', 'game_calls', 'admin_actions'])
      assert.match(metrics, new RegExp(`retention_purged_rows_total\\{kind="${kind}"\\} [1-9]`));
    assert.match(metrics, /retention_last_sweep_timestamp_seconds [1-9]/);
  });
});

describe('retention batches', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService(
      { RETENTION_BATCH: '1000', RETENTION_SWEEP_BUDGET_MS: '600000' },
      { dispatcher: false },
    );
  });
  after(async () => {
    await svc?.close();
  });

  it('deletes a large table in batches of the configured size, each a short transaction', async (t) => {
    const db = svc.services.database.db;
    const at = Date.now();
    const old = 50_000;
    const recent = 2_000;
    for (let i = 0; i < old + recent; i += 1000)
      await db
        .insertInto('game_calls')
        .values(callRows(1000, (j) => (i + j < old ? at - 40 * DAY + i + j : at - DAY + i + j)))
        .execute();

    const batches: BatchReport[] = [];
    const purged = await svc.services.retention.sweep((b) => batches.push(b));
    assert.equal(purged.game_calls, old);
    const calls = batches.filter((b) => b.kind === 'game_calls');
    assert.ok(
      calls.every((b) => b.rows <= 1000),
      'no batch deletes more than RETENTION_BATCH rows',
    );
    assert.equal(calls.filter((b) => b.rows === 1000).length, old / 1000);
    const longest = Math.max(...calls.map((b) => b.ms));
    t.diagnostic(`longest game_calls purge transaction (1000 of 52k rows): ${longest.toFixed(1)} ms`);
    const left = await db
      .selectFrom('game_calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(left.n), recent);
    // A sweep with nothing to purge is one empty batch per kind (on PostgreSQL, after dropping no partition).
    const again: BatchReport[] = [];
    await svc.services.retention.sweep((b) => again.push(b));
    assert.deepEqual(
      again.filter((b) => !b.partitions).map((b) => b.rows),
      [0, 0, 0, 0, 0],
    );
    assert.ok(again.every((b) => b.rows === 0));
  });
});

describe('retention with several instances', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({}, { dispatcher: false });
  });
  after(async () => {
    await svc?.close();
  });

  it('two sweepers deleting the same rows at once delete each row once and leave none', async () => {
    const db = svc.services.database.db;
    const at = Date.now() - 40 * DAY;
    for (let i = 0; i < 20_000; i += 1000)
      await db
        .insertInto('game_calls')
        .values(
          Array.from({ length: 1000 }, (_, j) => ({
            app_id: 1,
            kind: 'role_list',
            started_at: at + i + j,
            url: null,
            try_no: 1,
            http_status: 200,
            latency_ms: 1,
            outcome: 'ok',
            error: null,
            role_id: null,
            server_id: null,
            user_id: 'u',
          })),
        )
        .execute();
    // Two instances: each its own store and Retention on the one database (on PostgreSQL, separate connections).
    const sweeper = () =>
      new Retention(
        [
          {
            kind: 'game_calls',
            days: 30,
            purgeBatch: (cutoff, limit) =>
              new CallLogRepository(db, svc.services.database.dialect).purgeBefore(cutoff, limit),
          },
        ],
        { batch: 500, budgetMs: 600_000, intervalMs: 60_000 },
        Date.now,
      );
    const [a, b] = await Promise.all([sweeper().sweep(), sweeper().sweep()]);
    assert.equal(a.game_calls! + b.game_calls!, 20_000, 'every row deleted exactly once between them');
    const left = await db
      .selectFrom('game_calls')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(left.n), 0);
  });
});

describe('retention sweep budget', () => {
  it('starts no batch once the budget is used, and reports the backlog', async () => {
    let clock = 0;
    let calls = 0;
    const retention = new Retention(
      [
        {
          kind: 'big',
          days: 1,
          purgeBatch: async (_cutoff, limit) => {
            calls++;
            clock += 10;
            return limit;
          },
        },
        { kind: 'kept', days: 0, purgeBatch: async () => assert.fail('a kind kept forever is never purged') },
      ],
      { batch: 100, budgetMs: 35, intervalMs: 1000 },
      () => 0,
      () => clock,
    );
    const swept = await retention.sweep();
    assert.equal(calls, 4, 'batches at 0, 10, 20, 30 ms; none at 40');
    assert.deepEqual(swept, { big: 400 });
    const backlog = await retention.backlog.get();
    assert.equal(backlog.values.find((v) => v.labels.kind === 'big')?.value, 1);
  });
});

describe('retention counts every row it deletes under its own kind', () => {
  let offset = 0;
  const now = () => Date.now() + offset;
  let svc: TestService;
  let game: GameServer;
  before(async () => {
    svc = await startTestService({ ...FAST, RETENTION_BATCH: '5' }, { now });
    // Cancellation callbacks fail: their events die with three attempts each.
    game = await startGameServer(await platformPublicKeys(svc.services), (req) =>
      req.url.startsWith('/account/cancel') ? { status: 500, body: 'no' } : { status: 200, body: 'ok' },
    );
  });
  after(async () => {
    await game?.close();
    await svc?.close();
  });

  const TABLE_OF: Record<string, 'outbox' | 'delivery_attempts' | 'game_calls' | 'pay_links' | 'admin_actions'> = {
    delivery_events: 'outbox',
    delivery_attempts: 'delivery_attempts',
    game_calls: 'game_calls',
    pay_links: 'pay_links',
    admin_actions: 'admin_actions',
  };
  const rows = async () => {
    const out: Record<string, number> = {};
    for (const [kind, table] of Object.entries(TABLE_OF)) {
      const r = await svc.services.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[kind] = Number(r.n);
    }
    return out;
  };
  const metric = async () => {
    const text = await svc.metrics();
    return Object.fromEntries(
      Object.keys(TABLE_OF).map((kind) => [
        kind,
        Number(new RegExp(`^retention_purged_rows_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0),
      ]),
    );
  };

  it('the metric moves by the rows each table lost, attempts deleted with their events included', async () => {
    const app = await appFor(svc, game.url);
    const appId = Number(app.appId);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++)
      for (const type of ['payment', 'cancellation']) {
        const res = await svc.admin('POST', `/apps/${appId}/test-events`, { type });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids.push(res.body.eventId);
      }
    for (const id of ids) await waitForEvent(svc, id, (e) => e.state === 'delivered' || e.state === 'dead');
    const calls = new CallLogRepository(svc.services.database.db, svc.services.database.dialect);
    for (let i = 0; i < 7; i++)
      await calls.record({
        app_id: appId,
        kind: 'pre_order_check',
        started_at: now(),
        url: null,
        try_no: 1,
        http_status: 200,
        latency_ms: 2,
        outcome: 'ok',
        error: null,
        role_id: 'r',
        server_id: 's',
        user_id: null,
      });
    await svc.services.database.db
      .insertInto('pay_links')
      .values(
        Array.from({ length: 3 }, (_, i) => ({
          link_hash: `hash-${i}`,
          app_id: appId,
          user_id: '1',
          game_role_id: 'r',
          game_server_id: 's',
          game_ext: null,
          lang: null,
          user_region: null,
          created_at: now(),
          expires_at: now() + 300_000,
          used_at: null,
        })),
      )
      .execute();

    // Past every period: the events (with their attempts), the calls, the links and the audit trail all go.
    offset += 400 * DAY;
    const before = await rows();
    const counted = await metric();
    assert.ok(before.delivery_attempts! > before.delivery_events!, JSON.stringify(before));
    const swept = await svc.services.retention.sweep();
    const left = await rows();
    const moved = await metric();
    for (const kind of Object.keys(TABLE_OF)) {
      const deleted = before[kind]! - left[kind]!;
      assert.ok(deleted > 0, `${kind}: rows were deleted`);
      assert.equal(moved[kind]! - counted[kind]!, deleted, `${kind}: the metric counts every row deleted`);
      assert.equal(swept[kind], deleted, `${kind}: the sweep answers every row deleted`);
    }
    assert.equal(left.delivery_attempts, 0, 'no attempt is left behind');
  });
});
