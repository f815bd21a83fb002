import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminAs, operatorToken } from '../../testing/operators.js';
import { createDeveloper, portalAs, portalSessionOf, type PortalSession } from '../../testing/portal/portal.js';
import { anotherApp, refundedPurchase, startRefundWorld, type RefundWorld } from '../../testing/orders/refund-abuse.js';

/**
 * Who sees refund abuse: operators by the permission table (orders.read reads it, orders.write sets the option), a
 * studio developer its own apps only (another studio's app is 404, as an app that does not exist), nobody without
 * a session; a player's orders in the portal are that app's only, in the studio's view of an order.
 */
describe('refund abuse: access', () => {
  let w: RefundWorld;
  let appB: any;
  let sessionA: PortalSession;
  let sessionB: PortalSession;
  const player = '7007';

  before(async () => {
    w = await startRefundWorld();
    appB = await anotherApp(w, 'Studio B game', 2.5, 'EUR');
    // The same player refunds in both studios' apps: twice in A, once in B.
    await refundedPurchase(w.svc, w.app.appId, player);
    await refundedPurchase(w.svc, w.app.appId, player, { quantity: 2 });
    await refundedPurchase(w.svc, appB.appId, player);
    sessionA = await portalSessionOf(w.svc, await createDeveloper(w.svc, 'dev-a', [w.app.appId]));
    sessionB = await portalSessionOf(w.svc, await createDeveloper(w.svc, 'dev-b', [appB.appId]));
  });
  after(async () => {
    await w?.close();
  });

  it('lets operator and support read it, refuses the moderator, and lets only orders.write set the option', async () => {
    const path = `/apps/${w.app.appId}/refund-abuse`;
    for (const [role, read, write] of [
      ['admin', 200, 200],
      ['operator', 200, 200],
      ['support', 200, 403],
      ['moderator', 403, 403],
    ] as const) {
      const token = await operatorToken(w.svc, `op-${role}`, role);
      const got = await adminAs(w.svc, token, 'GET', path);
      assert.equal(got.status, read, `${role} read: ${JSON.stringify(got.body)}`);
      if (read === 403) assert.equal(got.body.code, 40303);
      else assert.equal(got.body.refunders[0].userId, player);
      const set = await adminAs(w.svc, token, 'PUT', `/apps/${w.app.appId}/order-settings`, {
        refuseStoreOrdersInArrears: false,
      });
      assert.equal(set.status, write, `${role} write: ${JSON.stringify(set.body)}`);
      if (write === 403) assert.equal(set.body.code, 40303);
    }
    const none = await w.svc.fetch(`/admin/v1${path}`);
    assert.equal(none.status, 401);
    const studio = await w.svc.fetch(`/admin/v1${path}`, {
      headers: { cookie: `gp_studio_session=${sessionA.cookie}` },
    });
    assert.equal(studio.status, 401, 'a portal session means nothing on the admin API');
  });

  it("shows a studio its own app's refunders, with that app's figures only", async () => {
    const mine = await portalAs(w.svc, sessionA, 'GET', `/apps/${w.app.appId}/refund-abuse`);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.deepEqual(
      mine.body.refunders.map((r: any) => [r.userId, r.refunds, r.refunded, r.pendingSupplements]),
      [[player, 2, [{ currency: 'USD', amount: 20.97, refunds: 2 }], 2]],
    );
    const theirs = await portalAs(w.svc, sessionB, 'GET', `/apps/${appB.appId}/refund-abuse`);
    assert.deepEqual(
      theirs.body.refunders.map((r: any) => [r.userId, r.refunds, r.refunded]),
      [[player, 1, [{ currency: 'EUR', amount: 2.5, refunds: 1 }]]],
    );
  });

  it("answers another studio's app as one that does not exist, on both routes, and nothing without a session", async () => {
    for (const path of [`/apps/${w.app.appId}/refund-abuse`, `/apps/${w.app.appId}/orders?userId=${player}`]) {
      const stranger = await portalAs(w.svc, sessionB, 'GET', path);
      const missing = await portalAs(w.svc, sessionB, 'GET', path.replace(String(w.app.appId), '999999'));
      assert.deepEqual([stranger.status, stranger.body.code], [404, 40400], path);
      assert.equal(stranger.body.detail.replace(String(w.app.appId), 'N'), missing.body.detail.replace('999999', 'N'));
      const anonymous = await portalAs(w.svc, null, 'GET', path);
      assert.deepEqual([anonymous.status, anonymous.body.code], [401, 40110], path);
      const admin = await w.svc.fetch(`/portal/v1${path}`, {
        headers: { authorization: `Bearer ${w.svc.adminToken}` },
      });
      assert.equal(admin.status, 401, 'the admin token means nothing on the portal');
    }
  });

  it("lists a player's orders of the studio's app only, in the studio's view, and asks for the player", async () => {
    const mine = await portalAs(w.svc, sessionA, 'GET', `/apps/${w.app.appId}/orders?userId=${player}`);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const adminView = (await w.svc.admin('GET', `/orders?appId=${w.app.appId}&userId=${player}`)).body.orders;
    assert.deepEqual(
      mine.body.orders.map((o: any) => o.trxNo),
      adminView.map((o: any) => o.trxNo),
    );
    assert.deepEqual(
      mine.body.orders.map((o: any) => o.trxType),
      [2, 0, 2, 0],
      'payments and their refunds, newest first',
    );
    assert.ok(mine.body.orders.every((o: any) => o.appId === w.app.appId && o.userId === player));
    for (const o of mine.body.orders) {
      assert.ok(!('origin' in o) && !('failureReason' in o) && !('mergedReceipts' in o), JSON.stringify(o));
    }
    const page = await portalAs(w.svc, sessionA, 'GET', `/apps/${w.app.appId}/orders?userId=${player}&limit=3`);
    assert.equal(page.body.orders.length, 3);
    const rest = await portalAs(
      w.svc,
      sessionA,
      'GET',
      `/apps/${w.app.appId}/orders?userId=${player}&limit=3&before=${page.body.nextBefore}`,
    );
    assert.deepEqual(
      rest.body.orders.map((o: any) => o.trxNo),
      [adminView[3].trxNo],
    );
    const nobody = await portalAs(w.svc, sessionA, 'GET', `/apps/${w.app.appId}/orders?userId=nobody`);
    assert.deepEqual(nobody.body, { orders: [], nextBefore: null });
    for (const q of ['', '?userId=', `?userId=${player}&limit=0`, `?userId=${player}&appId=${appB.appId}`]) {
      const bad = await portalAs(w.svc, sessionA, 'GET', `/apps/${w.app.appId}/orders${q}`);
      assert.deepEqual([bad.status, bad.body.code], [400, 40000], q);
    }
  });
});
