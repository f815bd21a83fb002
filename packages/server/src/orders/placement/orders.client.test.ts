import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { guestLogin, macRequest, type Login } from '../../testing/accounts/accounts.js';
import {
  platformPublicKeys,
  startGameServer,
  type GameReply,
  type GameRequest,
  type GameServer,
} from '../../testing/game-server.js';
import { startTestService, type TestService } from '../../testing/service.js';
import { SANDBOX, appWithProducts, counts } from '../../testing/orders/orders.js';

/** Client order placement (MAC token): the game's role query (4.8) and pre-order check (4.10) come first. */
describe('client order placement', () => {
  let svc: TestService;
  let game: GameServer;
  let app: any;
  let login: Login;
  let owner: () => string | undefined;
  let preOrder: (req: GameRequest) => GameReply;

  before(async () => {
    svc = await startTestService(SANDBOX);
    game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
      if (req.url.startsWith('/role')) {
        const q = new URL(req.url, 'http://x').searchParams;
        const userId = owner();
        return {
          status: 200,
          body: JSON.stringify({
            ...(userId === undefined ? {} : { userId }),
            roleId: q.get('roleId'),
            name: 'n',
            avatar: 'a',
          }),
        };
      }
      if (req.url === '/pre-order') return preOrder(req);
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
    owner = () => login.userId;
    preOrder = () => ({ status: 200, body: '' });
  };
  const uri = (clientId = app.clientId) => `/order/v1/client/orders?clientId=${clientId}`;
  const body = (extra: Record<string, unknown> = {}) => ({
    orderId: `c-${Math.random().toString(36).slice(2)}`,
    products: [
      { productCode: 'gems_100', quantity: 2 },
      { productCode: 'pass', quantity: 1 },
    ],
    game_server_id: 's1',
    game_role_id: 'role-1',
    platform: 3,
    channel: 5,
    paymentType: 1,
    ...extra,
  });
  const placeAs = (b: unknown, token: { kid: string; macKey: string } = login, clientId?: string) =>
    macRequest(svc, 'POST', uri(clientId), token, { body: b });

  async function refused(
    b: unknown,
    status: number,
    code: number,
    detail: RegExp,
    token?: { kid: string; macKey: string },
  ) {
    const before = await counts(svc);
    const res = await placeAs(b, token);
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.code, code, JSON.stringify(res.body));
    assert.match(res.body.detail, detail);
    assert.deepEqual(await counts(svc), before, 'nothing written');
    return res.body;
  }

  it('asks the game, then places the order; the same request again answers it without asking again', async () => {
    reset();
    const b = body({ extras: 'x=1' });
    const seen = game.requests.length;
    const res = await placeAs(b);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      [res.body.code, res.body.data.created, res.body.data.order.status, res.body.data.order.totalAmount],
      [200, true, 2, 23.88],
    );
    const asked = game.requests.slice(seen);
    assert.deepEqual(
      asked.map((r) => `${r.method} ${r.url.split('?')[0]}`),
      ['GET /role', 'POST /pre-order', 'POST /pre-order'],
    );
    assert.deepEqual(
      asked.slice(1).map((r) => JSON.parse(r.body)),
      [
        { roleId: 'role-1', serverId: 's1', productSkuCode: 'gems_100', quantity: 2, extras: 'x=1' },
        { roleId: 'role-1', serverId: 's1', productSkuCode: 'pass', quantity: 1, extras: 'x=1' },
      ],
    );
    assert.ok(asked.every((r) => r.verified));
    const again = await placeAs(b);
    assert.deepEqual(
      [again.status, again.body.data.created, again.body.data.order.trxNo],
      [200, false, res.body.data.order.trxNo],
    );
    assert.equal(game.requests.length, seen + 3, 'no second game call for the same order');
  });

  it('places one order for the same orderId sent concurrently', async () => {
    reset();
    const b = body();
    const before = await counts(svc);
    const results = await Promise.all(Array.from({ length: 6 }, () => placeAs(b)));
    assert.ok(
      results.every((r) => r.status === 200),
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.equal(new Set(results.map((r) => r.body.data.order.trxNo)).size, 1);
    assert.equal(results.filter((r) => r.body.data.created).length, 1);
    assert.equal((await counts(svc)).orders - before.orders, 1);
  });

  it("passes a blocking pre-order check through: the game's code, msg and detail", async () => {
    reset();
    preOrder = () => ({
      status: 400,
      body: JSON.stringify({ code: 105, msg: 'Limit reached for today', detail: 'daily cap 3' }),
    });
    const res = await refused(body(), 409, 40920, /^daily cap 3$/);
    assert.equal(res.msg, 'Limit reached for today');
    assert.deepEqual(res.data, {
      code: 105,
      msg: 'Limit reached for today',
      detail: 'daily cap 3',
      meaning: 'Order failed, purchase limit for the product reached.',
      productCode: 'gems_100',
    });
    preOrder = () => ({ status: 403, body: 'no' });
    const silent = await refused(body(), 409, 40920, /blocked the order of gems_100 \(HTTP 403\)/);
    assert.equal(silent.msg, 'The game refused this order.', 'a block without code shows no reason of the game');
    assert.equal(silent.data.code, null);
  });

  it("fails the order when the role is not the player's or the role query fails", async () => {
    reset();
    owner = () => 'someone-else';
    await refused(body(), 403, 40310, /role role-1 on server s1 belongs to another user/);
    owner = () => undefined;
    await refused(body(), 502, 50202, /role query \(4\.8\): .*userId/);
  });

  it('fails the order when the game cannot be reached, after one retry', async () => {
    reset();
    const closed = await startGameServer({});
    const deadUrl = closed.url;
    await closed.close();
    const other = await appWithProducts(svc, {
      roleQueryUrl: `${deadUrl}/role`,
      preOrderCheckUrl: `${deadUrl}/pre-order`,
    });
    const player = await guestLogin(svc, other.clientId);
    const before = await counts(svc);
    const res = await placeAs(body(), player, other.clientId);
    assert.deepEqual([res.status, res.body.code], [502, 50201], JSON.stringify(res.body));
    assert.deepEqual(await counts(svc), before);
    const tries = await svc.services.database.db
      .selectFrom('game_calls')
      .select('try_no')
      .where('app_id', '=', other.appId)
      .orderBy('try_no')
      .execute();
    assert.deepEqual(
      tries.map((t) => t.try_no),
      [1, 2],
      'retried once (8)',
    );
  });

  it('refuses bad input before asking the game', async () => {
    reset();
    const seen = game.requests.length;
    await refused(
      body({ products: [{ productCode: 'nope', quantity: 1 }] }),
      400,
      40010,
      /nope is not an active product/,
    );
    await refused(
      body({ products: [{ productCode: 'pass', quantity: 0 }] }),
      400,
      40000,
      /^products\.0\.quantity: must be >= 1/,
    );
    await refused(body({ products: [{ productCode: 'pass', quantity: -1 }] }), 400, 40000, /^products\.0\.quantity/);
    await refused(body({ game_role_id: undefined }), 400, 40000, /^game_role_id: is required/);
    await refused(
      body({ channel: 1, platform: 1, paymentType: 0, products: [{ productCode: 'pass', quantity: 1 }] }),
      400,
      40010,
      /no store SKU for channel 1/,
    );
    await refused(body(), 403, 40300, /mac does not match/, { kid: login.kid, macKey: 'wrong' });
    assert.equal(game.requests.length, seen, 'the game was not asked');
  });

  it('refuses an orderId reused with other contents', async () => {
    reset();
    const b = body();
    assert.equal((await placeAs(b)).status, 200);
    await refused({ ...b, products: [{ productCode: 'pass', quantity: 9 }] }, 409, 40911, /already used/);
  });

  it('answers the placed order even when its game-call log rows cannot be written', async () => {
    reset();
    const db = svc.services.database.db;
    await sql`alter table game_calls rename to game_calls_away`.execute(db);
    let res;
    try {
      res = await placeAs(body());
    } finally {
      await sql`alter table game_calls_away rename to game_calls`.execute(db);
    }
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.created, true);
    const row = await db
      .selectFrom('orders')
      .select('status')
      .where('trx_no', '=', Number(res.body.data.order.trxNo))
      .executeTakeFirstOrThrow();
    assert.equal(row.status, res.body.data.order.status);
  });
});
