import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMacAuthorization } from '@game-platform/sdk';
import { guestLogin, macRequest, type Login } from '../../testing/accounts/accounts.js';
import { startTestService, type TestService } from '../../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../../testing/game-server.js';
import { SANDBOX, appWithProducts, counts, details, payOk, placeOk, storeOrder } from '../../testing/orders/orders.js';

/** 4.5 and the supplement payment route: MAC token of the player; nothing else gets in. */
describe('4.5 arrears: access', () => {
  let svc: TestService;
  let app: any;
  let login: Login;
  before(async () => {
    svc = await startTestService(SANDBOX);
    app = await appWithProducts(svc);
    login = await guestLogin(svc, app.clientId);
  });
  after(async () => {
    await svc.close();
  });

  const uri = (clientId: string) => `/order/v1/user/arrears?clientId=${encodeURIComponent(clientId)}`;

  it('answers the 2.3 success envelope with an empty list when nothing is owed', async () => {
    const res = await macRequest(svc, 'GET', uri(app.clientId), login);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { code: 200, msg: 'success', detail: '', data: { list: [] } });
  });

  it('records the nonce in the read: of one nonce sent eight times at once (one batch), exactly one is answered', async () => {
    const nonce = 'arrears-nonce-concurrent';
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => macRequest(svc, 'GET', uri(app.clientId), login, { nonce })),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, 403, 403, 403, 403, 403, 403, 403]);
    for (const a of answers.filter((x) => x.status === 403)) {
      assert.equal(a.body.code, 40300);
      assert.match(a.body.detail, /nonce was already used/);
    }
  });

  it('refuses a missing, forged or replayed MAC token with 40300, and an unknown clientId with 40105', async () => {
    const none = await svc.fetch(uri(app.clientId));
    assert.equal(none.status, 403);
    assert.equal(((await none.json()) as any).code, 40300);
    const forged = await macRequest(svc, 'GET', uri(app.clientId), { kid: login.kid, macKey: 'not-the-mac-key' });
    assert.deepEqual([forged.status, forged.body.code], [403, 40300]);
    assert.match(forged.body.detail, /mac does not match/);
    const nonce = 'arrears-nonce-1';
    assert.equal((await macRequest(svc, 'GET', uri(app.clientId), login, { nonce })).status, 200);
    const replay = await macRequest(svc, 'GET', uri(app.clientId), login, { nonce });
    assert.deepEqual([replay.status, replay.body.code], [403, 40300]);
    const other = await svc.createApp({ name: 'other' });
    const wrongApp = await macRequest(svc, 'GET', uri(other.clientId), login);
    assert.deepEqual([wrongApp.status, wrongApp.body.code], [403, 40300], 'a token of another app');
    const unknown = await macRequest(svc, 'GET', uri('nope'), login);
    assert.deepEqual([unknown.status, unknown.body.code], [401, 40105]);
    const missing = await macRequest(svc, 'GET', '/order/v1/user/arrears', login);
    assert.deepEqual([missing.status, missing.body.code], [400, 40000]);
    assert.match(missing.body.detail, /^clientId: is required/);
  });

  it("refuses to pay a supplement that is not the player's, without writing", async () => {
    const before = await counts(svc);
    const path = `/order/v1/user/arrears/12345/pay?clientId=${app.clientId}`;
    const res = await macRequest(svc, 'POST', path, login);
    assert.deepEqual([res.status, res.body.code], [404, 40400], JSON.stringify(res.body));
    const unsigned = await svc.fetch(path, {
      method: 'POST',
      headers: {
        authorization: buildMacAuthorization({
          kid: login.kid,
          macKey: login.macKey,
          method: 'GET',
          uri: path,
          host: '127.0.0.1',
        }),
      },
    });
    assert.equal(unsigned.status, 403, 'signed for another method');
    assert.deepEqual(await counts(svc), before);
  });
});

describe("4.5 arrears: only pending store-refund supplements of the token's user", () => {
  let svc: TestService;
  let game: GameServer;
  let app: any;
  let accept = true;
  before(async () => {
    svc = await startTestService({ ...SANDBOX, DELIVERY_POLL_MS: '50', DELIVERY_SCHEDULE: '0' });
    game = await startGameServer(await platformPublicKeys(svc.services), () => ({
      status: accept ? 204 : 500,
      body: '',
    }));
    app = await appWithProducts(svc, { callbackUrls: { default: `${game.url}/cb` } });
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  async function paidAndSettled(userId: string, state: 'delivered' | 'dead') {
    const order = await placeOk(
      svc,
      storeOrder(app.appId, { userId, products: [{ productCode: 'gems_100', quantity: 1 }] }),
    );
    await payOk(svc, order.trxNo);
    const until = Date.now() + 10_000;
    while ((await details(svc, order.trxNo)).notifications[0].state !== state) {
      if (Date.now() > until) throw new Error(`payment notification not ${state}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return order;
  }

  it("lists the player's own pending supplements only, and none for refunds of items never granted", async () => {
    const alice = await guestLogin(svc, app.clientId);
    const bob = await guestLogin(svc, app.clientId);
    const granted = await paidAndSettled(alice.userId, 'delivered');
    accept = false;
    const notGranted = await paidAndSettled(alice.userId, 'dead');
    accept = true;
    for (const o of [granted, notGranted])
      assert.equal((await svc.admin('POST', `/sandbox/orders/${o.trxNo}/refund`, {})).status, 201);
    const uri = `/order/v1/user/arrears?clientId=${app.clientId}`;
    const mine = await macRequest(svc, 'GET', uri, alice);
    assert.deepEqual(
      mine.body.data.list.map((s: any) => s.tradeNo),
      [(await details(svc, granted.trxNo)).refund.trxNo],
    );
    assert.equal((await details(svc, notGranted.trxNo)).supplement, null);
    assert.deepEqual((await macRequest(svc, 'GET', uri, bob)).body.data.list, []);
    const listed = await svc.admin('GET', `/supplements?appId=${app.appId}`);
    assert.deepEqual(
      listed.body.supplements.map((s: any) => [s.userId, s.supplyStatus]),
      [[alice.userId, 1]],
    );
    assert.equal(listed.body.nextBefore, null, 'one page');
    const paged = await svc.admin('GET', `/supplements?appId=${app.appId}&limit=1`);
    assert.equal(paged.body.nextBefore, listed.body.supplements[0].tradeNo);
    assert.deepEqual(
      (await svc.admin('GET', `/supplements?appId=${app.appId}&before=${paged.body.nextBefore}`)).body.supplements,
      [],
    );
    const bobPays = await macRequest(
      svc,
      'POST',
      `/order/v1/user/arrears/${mine.body.data.list[0].tradeNo}/pay?clientId=${app.clientId}`,
      bob,
    );
    assert.deepEqual([bobPays.status, bobPays.body.code], [404, 40400], 'another player cannot pay it');
  });
});
