import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { guestLogin, macRequest, type Login } from '../../testing/accounts/accounts.js';
import { spawnService, type ChildService } from '../../testing/child.js';
import { testBackend } from '../../testing/database.js';
import { processEnv } from '../../testing/env.js';
import {
  platformPublicKeys,
  startGameServer,
  type GameReply,
  type GameRequest,
  type GameServer,
} from '../../testing/game-server.js';
import { startTestService, type TestService } from '../../testing/service.js';
import { childShim as shim } from '../../testing/child-shim.js';
import { SANDBOX, appWithProducts, count } from '../../testing/orders/orders.js';

/**
 * How long the fixture game takes to answer at least; it also holds its
 * answer until every copy the test sent has reached the service (and 100 ms
 * more), so a loaded machine cannot make a copy arrive after the attempt ended.
 */
const SLOW_MS = 300;
const N = 20;

type Player = { kid: string; macKey: string; userId: string };

/**
 * Identical placements of a client orderId sent at once ask the game once
 * (docs/orders.md): the first placement's outcome, its order or its failure,
 * answers the others, on one instance and across instances.
 */
describe('order placement: identical placements at once ask the game once', () => {
  let svc: TestService;
  let game: GameServer;
  let app: any;
  let login: Login;
  /** How the game answers the role query and the pre-order check now (after `held()`). */
  let role: (req: GameRequest) => GameReply;
  let preOrder: (req: GameRequest) => GameReply;
  /** Placements the service received, and how many the game waits for before it answers (`expectCopies`). */
  let arrivals = 0;
  let awaited = 0;
  const expectCopies = (n: number) => {
    awaited = arrivals + n;
  };
  const held = async () => {
    await sleep(SLOW_MS);
    for (const until = Date.now() + 10_000; arrivals < awaited && Date.now() < until;) await sleep(10);
    await sleep(100);
  };

  const owned =
    (userId: () => string) =>
    (req: GameRequest): GameReply => ({
      status: 200,
      body: JSON.stringify({
        userId: userId(),
        roleId: new URL(req.url, 'http://x').searchParams.get('roleId'),
        name: 'n',
        avatar: 'a',
      }),
    });
  const allow = (): GameReply => ({ status: 200, body: '' });
  const limitReached = (): GameReply => ({
    status: 400,
    body: JSON.stringify({ code: 105, msg: 'Limit reached for today', detail: 'daily cap 3' }),
  });

  before(async () => {
    svc = await startTestService(SANDBOX);
    svc.app.server.on('request', (req) => {
      if (req.url?.startsWith('/order/v1/client/orders')) arrivals++;
    });
    game = await startGameServer(await platformPublicKeys(svc.services), async (req) => {
      if (req.url.startsWith('/role')) return held().then(() => role(req));
      if (req.url === '/pre-order') return held().then(() => preOrder(req));
      return { status: 200, body: '' };
    });
    app = await appWithProducts(svc, {
      callbackUrls: { default: `${game.url}/cb` },
      roleQueryUrl: `${game.url}/role`,
      preOrderCheckUrl: `${game.url}/pre-order`,
    });
    login = await guestLogin(svc, app.clientId);
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  const reset = () => {
    role = owned(() => login.userId);
    preOrder = allow;
  };
  const body = (extra: Record<string, unknown> = {}) => ({
    orderId: `once-${crypto.randomBytes(6).toString('hex')}`,
    products: [{ productCode: 'gems_100', quantity: 2 }],
    game_server_id: 's1',
    game_role_id: 'role-1',
    platform: 3,
    channel: 5,
    paymentType: 1,
    ...extra,
  });
  const placeAs = (target: TestService, clientId: string, b: unknown, player: Player = login) =>
    macRequest(target, 'POST', `/order/v1/client/orders?clientId=${clientId}`, player, { body: b });
  const place = (b: unknown) => placeAs(svc, app.clientId, b);
  /** What the game was asked since `seen` requests: `role` and `pre-order` counts. */
  const asked = (seen: number) => {
    const paths = game.requests.slice(seen).map((r) => r.url.split('?')[0]);
    return {
      role: paths.filter((p) => p === '/role').length,
      preOrder: paths.filter((p) => p === '/pre-order').length,
    };
  };
  /** The kinds of the app's game-call log rows, oldest first. */
  const callLog = async () =>
    (
      await svc.services.database.db
        .selectFrom('game_calls')
        .select('kind')
        .where('app_id', '=', app.appId)
        .orderBy('call_id')
        .execute()
    ).map((r) => r.kind);
  const claimOf = (outTrxNo: string) =>
    svc.services.database.db
      .selectFrom('placement_claims')
      .selectAll()
      .where('app_id', '=', app.appId)
      .where('out_trx_no', '=', outTrxNo)
      .executeTakeFirst();

  it('places one order for N identical placements at once, asking the game once (one instance)', async () => {
    reset();
    const b = body();
    const seen = game.requests.length;
    const orders = await count(svc, 'orders');
    const calls = await callLog();
    expectCopies(N);
    const results = await Promise.all(Array.from({ length: N }, () => place(b)));
    assert.ok(
      results.every((r) => r.status === 200),
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.deepEqual(asked(seen), { role: 1, preOrder: 1 }, 'one role query and one pre-order check');
    assert.equal(new Set(results.map((r) => r.body.data.order.trxNo)).size, 1, 'one trxNo');
    assert.equal(results.filter((r) => r.body.data.created).length, 1, 'one created: true');
    assert.ok(
      results
        .filter((r) => !r.body.data.created)
        .every((r) => r.body.data.payment === null && r.body.data.order.status === 2),
    );
    assert.equal((await count(svc, 'orders')) - orders, 1);
    assert.deepEqual(
      (await callLog()).slice(calls.length),
      ['role_query', 'pre_order_check'],
      'the call log has the two calls, once',
    );
  });

  it("answers every identical placement with the first one's failure (pre-order blocked), and asks again once it has settled", async () => {
    reset();
    preOrder = limitReached;
    const b = body();
    const seen = game.requests.length;
    const orders = await count(svc, 'orders');
    expectCopies(N);
    const results = await Promise.all(Array.from({ length: N }, () => place(b)));
    assert.deepEqual(asked(seen), { role: 1, preOrder: 1 }, 'the game was asked once');
    assert.ok(
      results.every((r) => r.status === 409),
      JSON.stringify(results.map((r) => r.body)),
    );
    const expected = {
      code: 40920,
      msg: 'Limit reached for today',
      detail: 'daily cap 3',
      data: {
        code: 105,
        msg: 'Limit reached for today',
        detail: 'daily cap 3',
        meaning: 'Order failed, purchase limit for the product reached.',
        productCode: 'gems_100',
      },
    };
    for (const r of results) assert.deepEqual(r.body, expected);
    assert.equal(await count(svc, 'orders'), orders, 'no order');
    const claim = await claimOf(b.orderId);
    assert.deepEqual([claim?.attempt, claim?.settled_attempt], [1, 1], 'the attempt settled as failed');

    // Settled: the next placement asks the game again (it may have recovered), once for all copies sent together.
    preOrder = allow;
    const again = game.requests.length;
    expectCopies(5);
    const retried = await Promise.all(Array.from({ length: 5 }, () => place(b)));
    assert.deepEqual(asked(again), { role: 1, preOrder: 1 }, 'asked again, once');
    assert.ok(
      retried.every((r) => r.status === 200),
      JSON.stringify(retried.map((r) => r.body)),
    );
    assert.equal(new Set(retried.map((r) => r.body.data.order.trxNo)).size, 1);
    assert.equal(retried.filter((r) => r.body.data.created).length, 1);
    assert.equal((await claimOf(b.orderId))?.attempt, 2);
  });

  const failures: Array<[string, () => void, number, number, RegExp, { role: number; preOrder: number }]> = [
    [
      "the role is another user's (40310)",
      () => {
        role = owned(() => 'someone-else');
      },
      403,
      40310,
      /belongs to another user/,
      { role: 1, preOrder: 0 },
    ],
    [
      'the role query fails (50202)',
      () => {
        role = () => ({ status: 200, body: '{"roleId":"role-1"}' });
      },
      502,
      50202,
      /^role query \(4\.8\)/,
      { role: 1, preOrder: 0 },
    ],
    // No answer: the call is retried once (8), so the one attempt makes two tries.
    [
      'the game cannot be reached (50201)',
      () => {
        role = () => ({ destroy: true });
      },
      502,
      50201,
      /^role query \(4\.8\)/,
      { role: 2, preOrder: 0 },
    ],
  ];
  for (const [what, setUp, status, code, detail, calls] of failures) {
    it(`shares the first placement's failure when ${what}`, async () => {
      reset();
      setUp();
      const seen = game.requests.length;
      const b = body();
      expectCopies(8);
      const results = await Promise.all(Array.from({ length: 8 }, () => place(b)));
      assert.deepEqual(asked(seen), calls);
      assert.ok(
        results.every((r) => r.status === status && r.body.code === code),
        JSON.stringify(results.map((r) => r.body)),
      );
      assert.match(results[0]!.body.detail, detail);
      assert.equal(new Set(results.map((r) => JSON.stringify(r.body))).size, 1, 'the same code, msg, detail and data');
    });
  }

  it('refuses an orderId being placed with other contents (40911) without asking the game for it', async () => {
    reset();
    const b = body();
    const seen = game.requests.length;
    expectCopies(6);
    const first = Array.from({ length: 5 }, () => place(b));
    await game.waitFor(() => asked(seen).role === 1, 5000, 'the first placement to ask the game');
    const other = await place({ ...b, products: [{ productCode: 'gems_100', quantity: 3 }] });
    const results = await Promise.all(first);
    assert.deepEqual(asked(seen), { role: 1, preOrder: 1 });
    const trxNo = results[0]!.body.data.order.trxNo;
    assert.ok(results.every((r) => r.status === 200 && r.body.data.order.trxNo === trxNo));
    assert.deepEqual(
      [other.status, other.body.code, other.body.data],
      [409, 40911, { trxNo }],
      JSON.stringify(other.body),
    );
  });

  it('lets a placement with other contents make its own attempt when the one in progress failed', async () => {
    reset();
    // The game blocks quantity 2 and allows 3.
    preOrder = (req) => (JSON.parse(req.body).quantity === 2 ? limitReached() : allow());
    const b = body();
    const seen = game.requests.length;
    expectCopies(6);
    const blocked = Array.from({ length: 5 }, () => place(b));
    await game.waitFor(() => asked(seen).role === 1, 5000, 'the first placement to ask the game');
    const other = await place({ ...b, products: [{ productCode: 'gems_100', quantity: 3 }] });
    assert.ok((await Promise.all(blocked)).every((r) => r.body.code === 40920));
    assert.deepEqual([other.status, other.body.data?.created], [200, true], JSON.stringify(other.body));
    assert.deepEqual(asked(seen), { role: 2, preOrder: 2 }, 'one attempt each');
  });

  it('leaves placements without a client orderId alone: each asks the game and gets its own order', async () => {
    reset();
    const b = body({ orderId: undefined });
    const seen = game.requests.length;
    const claims = await count(svc, 'placement_claims');
    expectCopies(4);
    const results = await Promise.all(Array.from({ length: 4 }, () => place(b)));
    assert.ok(results.every((r) => r.status === 200 && r.body.data.created));
    assert.equal(new Set(results.map((r) => r.body.data.order.trxNo)).size, 4);
    assert.deepEqual(asked(seen), { role: 4, preOrder: 4 });
    assert.equal(await count(svc, 'placement_claims'), claims, 'no claim');
  });

  it('takes over a claim whose holder died: at once when its lease has run out, else when it does', async () => {
    reset();
    const db = svc.services.database.db;
    const now = Date.now();
    const dead = body();
    await db
      .insertInto('placement_claims')
      .values({
        app_id: app.appId,
        out_trx_no: dead.orderId,
        request_digest: 'a crashed placement',
        attempt: 1,
        claimed_at: now - 120_000,
        lease_until: now - 60_000,
        settled_attempt: null,
        outcome: null,
        settled_at: null,
      })
      .execute();
    let seen = game.requests.length;
    expectCopies(1);
    const taken = await place(dead);
    assert.deepEqual([taken.status, taken.body.data?.created], [200, true], JSON.stringify(taken.body));
    assert.deepEqual(asked(seen), { role: 1, preOrder: 1 });
    assert.equal((await claimOf(dead.orderId))?.attempt, 2, 'taken over with a compare-and-set');

    // A holder that is still within its lease is waited for (this instance does not hold it: it polls the claim).
    const waiting = body();
    await db
      .insertInto('placement_claims')
      .values({
        app_id: app.appId,
        out_trx_no: waiting.orderId,
        request_digest: 'a crashed placement',
        attempt: 1,
        claimed_at: Date.now(),
        lease_until: Date.now() + 600,
        settled_attempt: null,
        outcome: null,
        settled_at: null,
      })
      .execute();
    seen = game.requests.length;
    const started = Date.now();
    expectCopies(5);
    const results = await Promise.all(Array.from({ length: 5 }, () => place(waiting)));
    assert.ok(Date.now() - started >= 500, 'waited for the lease');
    assert.ok(
      results.every((r) => r.status === 200),
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.equal(new Set(results.map((r) => r.body.data.order.trxNo)).size, 1);
    assert.equal(results.filter((r) => r.body.data.created).length, 1);
    assert.deepEqual(asked(seen), { role: 1, preOrder: 1 });
  });

  it('answers the failure another instance recorded for the attempt it waited for', async () => {
    reset();
    preOrder = limitReached;
    const db = svc.services.database.db;
    // The digest of these contents: that of a placement that failed.
    const probe = body();
    await place(probe);
    const { request_digest: digest } = (await claimOf(probe.orderId))!;
    preOrder = allow;
    // Another instance holds the claim of the same contents under another orderId, and records a failure while we wait.
    const b = { ...probe, orderId: `remote-${crypto.randomBytes(4).toString('hex')}` };
    await db
      .insertInto('placement_claims')
      .values({
        app_id: app.appId,
        out_trx_no: b.orderId,
        request_digest: digest,
        attempt: 1,
        claimed_at: Date.now(),
        lease_until: Date.now() + 30_000,
        settled_attempt: null,
        outcome: null,
        settled_at: null,
      })
      .execute();
    const seen = game.requests.length;
    const sent = arrivals + 4;
    const results = Promise.all(Array.from({ length: 4 }, () => place(b)));
    while (arrivals < sent) await sleep(10);
    await sleep(200);
    await db
      .updateTable('placement_claims')
      .set({
        settled_attempt: 1,
        settled_at: Date.now(),
        outcome: JSON.stringify({
          reason: 'GAME_UNREACHABLE',
          detail: 'pre-order check (4.10): no answer within 5000 ms',
        }),
      })
      .where('app_id', '=', app.appId)
      .where('out_trx_no', '=', b.orderId)
      .execute();
    for (const r of await results) {
      assert.deepEqual(
        [r.status, r.body.code, r.body.detail],
        [502, 50201, 'pre-order check (4.10): no answer within 5000 ms'],
      );
    }
    assert.deepEqual(asked(seen), { role: 0, preOrder: 0 }, 'the game was not asked');
  });

  it('purges claims some minutes after their lease ended', async () => {
    const db = svc.services.database.db;
    const now = Date.now();
    const row = (outTrxNo: string, leaseUntil: number) => ({
      app_id: app.appId,
      out_trx_no: outTrxNo,
      request_digest: 'd',
      attempt: 1,
      claimed_at: leaseUntil - 1000,
      lease_until: leaseUntil,
      settled_attempt: null,
      outcome: null,
      settled_at: null,
    });
    await db
      .insertInto('placement_claims')
      .values([row('purge-old', now - 11 * 60_000), row('purge-recent', now - 60_000)])
      .execute();
    assert.ok((await svc.services.orders.orders.purgeClaims(now)) >= 1);
    assert.equal(await claimOf('purge-old'), undefined);
    assert.ok(await claimOf('purge-recent'));
  });

  it(
    'asks the game once for identical placements sent to two instances on one database',
    {
      skip:
        testBackend() === 'sqlite'
          ? 'SQLite is one instance only (docs/operations.md: a file on one machine); PostgreSQL runs this'
          : false,
    },
    async () => {
      const { env, cleanup } = await processEnv();
      const children: ChildService[] = [];
      let remoteGame: GameServer | undefined;
      try {
        const common = { ...env, ...SANDBOX };
        children.push(await spawnService(common));
        children.push(await spawnService(common));
        const shims = children.map((c) => shim(c.url, env.ADMIN_TOKEN!));
        let playerId = '';
        remoteGame = await startGameServer({}, (req) =>
          req.url.startsWith('/role')
            ? {
                status: 200,
                delayMs: SLOW_MS,
                body: JSON.stringify({ userId: playerId, roleId: 'role-1', name: 'n', avatar: 'a' }),
              }
            : { status: 200, delayMs: SLOW_MS, body: '' },
        );
        const remote = await appWithProducts(shims[0]!, {
          roleQueryUrl: `${remoteGame.url}/role`,
          preOrderCheckUrl: `${remoteGame.url}/pre-order`,
        });
        const player = await guestLogin(shims[0]!, remote.clientId);
        playerId = player.userId;
        const b = body();
        const results = await Promise.all(
          Array.from({ length: N }, (_, i) => placeAs(shims[i % 2]!, remote.clientId, b, player)),
        );
        assert.ok(
          results.every((r) => r.status === 200),
          JSON.stringify(results.map((r) => r.body)),
        );
        const paths = remoteGame.requests.map((r) => r.url.split('?')[0]);
        assert.deepEqual(paths.sort(), ['/pre-order', '/role'], 'the game was asked once, by one instance');
        assert.equal(new Set(results.map((r) => r.body.data.order.trxNo)).size, 1);
        assert.equal(results.filter((r) => r.body.data.created).length, 1);
      } finally {
        for (const c of children) {
          c.process.kill('SIGTERM');
          await c.exited;
        }
        await remoteGame?.close();
        await cleanup();
      }
    },
  );
});
