import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guestLogin, macRequest, type Login } from '../../testing/accounts/accounts.js';
import { counts, payOk, placeOk, storeOrder } from '../../testing/orders/orders.js';
import { anotherApp, refundedPurchase, startRefundWorld, type RefundWorld } from '../../testing/orders/refund-abuse.js';

/**
 * The per-app option refusing new store orders of a player who owes a pending supplement (4.5): off by default; on,
 * a store order (channel 1 or 2) of that player is refused with 40945 SUPPLEMENT_PENDING before the game is asked
 * (no role query 4.8, no pre-order check 4.10) and writes no order; web orders, other players, other apps, an
 * identical repeat of an earlier order and the supplement payment itself go through; paying the supplement lifts it.
 */
describe('refusing store orders of players in arrears', () => {
  let w: RefundWorld;
  let alice: Login;
  let bob: Login;

  before(async () => {
    w = await startRefundWorld();
    alice = await guestLogin(w.svc, w.app.clientId);
    bob = await guestLogin(w.svc, w.app.clientId);
  });
  after(async () => {
    await w?.close();
  });

  const settings = (body: Record<string, unknown>) => w.svc.admin('PUT', `/apps/${w.app.appId}/order-settings`, body);
  const uri = () => `/order/v1/client/orders?clientId=${w.app.clientId}`;
  const order = (player: Login, extra: Record<string, unknown> = {}) => ({
    orderId: `c-${Math.random().toString(36).slice(2)}`,
    products: [{ productCode: 'gems_100', quantity: 1 }],
    game_server_id: 's1',
    game_role_id: `role-${player.userId}`,
    platform: 1,
    channel: 1,
    paymentType: 0,
    ...extra,
  });
  const webOrder = (player: Login) =>
    order(player, { products: [{ productCode: 'pass', quantity: 1 }], platform: 3, channel: 5, paymentType: 1 });
  const placeAs = (player: Login, body: unknown) => macRequest(w.svc, 'POST', uri(), player, { body });
  const gameCalls = () => w.game.requests.filter((r) => r.url.startsWith('/role') || r.url === '/pre-order').length;
  const arrears = async (player: Login) =>
    (await macRequest(w.svc, 'GET', `/order/v1/user/arrears?clientId=${w.app.clientId}`, player)).body.data.list;

  it('is off by default: a player who owes a supplement still places store orders', async () => {
    assert.deepEqual((await w.svc.admin('GET', `/apps/${w.app.appId}/order-settings`)).body, {
      appId: w.app.appId,
      webRegionLock: false,
      refuseStoreOrdersInArrears: false,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    await refundedPurchase(w.svc, w.app.appId, alice.userId);
    assert.equal((await arrears(alice)).length, 1, 'alice owes a supplement');
    const res = await placeAs(alice, order(alice));
    assert.deepEqual([res.status, res.body.data?.created], [200, true], JSON.stringify(res.body));
  });

  it('when on, refuses a store order of a player in arrears before the game is asked, and writes no order', async () => {
    // Placed before the option was on: its identical repeat is answered as it was (no new order).
    const earlier = order(alice);
    assert.equal((await placeAs(alice, earlier)).status, 200);

    const set = await settings({ refuseStoreOrdersInArrears: true });
    assert.deepEqual(set.body, {
      appId: w.app.appId,
      webRegionLock: false,
      refuseStoreOrdersInArrears: true,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    const owed = await arrears(alice);
    for (const channel of [1, 2]) {
      const before = await counts(w.svc);
      const calls = gameCalls();
      const res = await placeAs(alice, order(alice, { channel, platform: channel }));
      assert.deepEqual([res.status, res.body.code], [409, 40945], JSON.stringify(res.body));
      assert.equal(res.body.msg, 'Complete your pending supplement order first, then buy again.');
      assert.match(res.body.detail, new RegExp(`owes 1 pending supplement.*tradeNo ${owed[0].tradeNo}`));
      assert.deepEqual(res.body.data, { list: owed }, 'data: the pending supplements, as 4.5 answers them');
      assert.equal(gameCalls(), calls, 'neither the role query nor the pre-order check was called');
      assert.deepEqual(await counts(w.svc), before, 'no order written');
    }
    const again = await placeAs(alice, earlier);
    assert.deepEqual([again.status, again.body.data?.created], [200, false], JSON.stringify(again.body));

    // The sandbox's stand-in for the client is refused the same way.
    const sandbox = await w.svc.admin('POST', '/sandbox/orders', storeOrder(w.app.appId, { userId: alice.userId }));
    assert.deepEqual([sandbox.status, sandbox.body.code], [409, 40945]);
  });

  it('lets through web orders, players who owe nothing and the same player in another app', async () => {
    const web = await placeAs(alice, webOrder(alice));
    assert.deepEqual([web.status, web.body.data?.created], [200, true], JSON.stringify(web.body));
    const other = await placeAs(bob, order(bob));
    assert.deepEqual([other.status, other.body.data?.created], [200, true], JSON.stringify(other.body));
    const elsewhere = await anotherApp(w, 'elsewhere', 6.99, 'USD');
    assert.equal(
      (await w.svc.admin('PUT', `/apps/${elsewhere.appId}/order-settings`, { refuseStoreOrdersInArrears: true }))
        .status,
      200,
    );
    await placeOk(w.svc, storeOrder(elsewhere.appId, { userId: alice.userId }));
  });

  it('lifts the refusal once the supplement is paid, and when the option is turned off', async () => {
    const [owed] = await arrears(alice);
    const paying = await macRequest(
      w.svc,
      'POST',
      `/order/v1/user/arrears/${owed.tradeNo}/pay?clientId=${w.app.clientId}`,
      alice,
    );
    assert.equal(paying.status, 200, 'the supplement payment itself is not refused');
    await payOk(w.svc, paying.body.data.order.trxNo);
    assert.deepEqual(await arrears(alice), []);
    const now = await placeAs(alice, order(alice));
    assert.deepEqual([now.status, now.body.data?.created], [200, true], JSON.stringify(now.body));

    await refundedPurchase(w.svc, w.app.appId, bob.userId);
    assert.equal((await placeAs(bob, order(bob))).body.code, 40945);
    // Only the field given changes; the other keeps its value.
    assert.deepEqual((await settings({ webRegionLock: true })).body.refuseStoreOrdersInArrears, true);
    assert.deepEqual((await settings({ refuseStoreOrdersInArrears: false })).body, {
      appId: w.app.appId,
      webRegionLock: true,
      refuseStoreOrdersInArrears: false,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    const off = await placeAs(bob, order(bob));
    assert.deepEqual([off.status, off.body.data?.created], [200, true], JSON.stringify(off.body));
  });

  it('keeps both of two changes of different settings made at once', async () => {
    for (let i = 0; i < 5; i++) {
      const app = await w.svc.createApp({ name: `settings ${i}` });
      const path = `/apps/${app.appId}/order-settings`;
      const [a, b] = await Promise.all([
        w.svc.admin('PUT', path, { webRegionLock: true }),
        w.svc.admin('PUT', path, { refuseStoreOrdersInArrears: true }),
      ]);
      assert.deepEqual([a.status, b.status], [200, 200]);
      assert.deepEqual((await w.svc.admin('GET', path)).body, {
        appId: app.appId,
        webRegionLock: true,
        refuseStoreOrdersInArrears: true,
        accountBinding: 'when_present',
        consumptionConsent: null,
        consumptionConsentedAt: null,
        refundPreference: null,
      });
    }
  });

  it('refuses a bad change of the settings with 400 naming it, and an unknown app with 404, changing nothing', async () => {
    const before = (await w.svc.admin('GET', `/apps/${w.app.appId}/order-settings`)).body;
    for (const [body, field] of [
      [{}, /must NOT have fewer than 1 properties|at least/],
      [{ refuseStoreOrdersInArrears: 'yes' }, /refuseStoreOrdersInArrears/],
      [{ refuseStoreOrdersInArrears: 1 }, /refuseStoreOrdersInArrears/],
      [{ refuseStoreOrdersInArrears: null }, /refuseStoreOrdersInArrears/],
      [{ refuseStoreOrdersInArrears: true, blockWeb: true }, /blockWeb/],
    ] as const) {
      const res = await settings(body);
      assert.deepEqual([res.status, res.body.code], [400, 40000], JSON.stringify(res.body));
      assert.match(res.body.detail, field);
    }
    assert.deepEqual((await w.svc.admin('GET', `/apps/${w.app.appId}/order-settings`)).body, before);
    const unknown = await w.svc.admin('PUT', '/apps/999999/order-settings', { refuseStoreOrdersInArrears: true });
    assert.deepEqual([unknown.status, unknown.body.code], [404, 40400]);
  });
});
