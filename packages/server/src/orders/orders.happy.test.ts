import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { PaymentNotification, RefundNotification } from './notifications.schemas.js';
import {
  SANDBOX,
  appWithProducts,
  assertSchema,
  details,
  payOk,
  placeOk,
  storeOrder,
  webOrder,
} from '../testing/orders/orders.js';

describe('orders: placement, payment and refund (happy paths)', () => {
  let svc: TestService;
  let app: any;
  before(async () => {
    svc = await startTestService(SANDBOX);
    app = await appWithProducts(svc);
  });
  after(async () => {
    await svc.close();
  });

  /** The raw outbox body of the order's notification: the bytes the game receives. */
  async function notificationText(trxNo: number): Promise<string> {
    const d = await details(svc, trxNo);
    const row = await svc.services.database.db
      .selectFrom('outbox')
      .select(['body', 'type', 'target', 'server_id'])
      .where('event_id', '=', d.order.notifyId)
      .executeTakeFirstOrThrow();
    return row.body;
  }

  it('keeps prices in minor units and answers them as exact decimals', async () => {
    const res = await svc.admin('GET', `/apps/${app.appId}/products`);
    const byCode = Object.fromEntries(res.body.products.map((p: any) => [p.productCode, p]));
    assert.deepEqual([byCode.gems_100.price, byCode.gems_100.priceMinor, byCode.gems_100.currency], [6.99, 699, 'USD']);
    assert.deepEqual([byCode.pass.price, byCode.pass.priceMinor], [9.9, 990]);
    assert.deepEqual([byCode.yen_box.price, byCode.yen_box.priceMinor], [120, 120]);
    assert.deepEqual([byCode.kwd_item.price, byCode.kwd_item.priceMinor], [1.25, 1250]);
    assert.deepEqual(byCode.gems_100.channelSkus, { 1: 'com.game.gems100', 2: 'gems_100_android' });
    const patched = await svc.admin('PATCH', `/apps/${app.appId}/products/pass`, { price: 10.1 });
    assert.equal(patched.body.priceMinor, 1010);
    await svc.admin('PATCH', `/apps/${app.appId}/products/pass`, { price: '9.90' });
  });

  it('places an iOS store order, pays it, and writes the 2.4 notification with every field', async () => {
    const body = storeOrder(app.appId);
    const order = await placeOk(svc, body);
    assert.equal(order.status, 2, 'awaiting payment once the channel opened it');
    assert.equal(order.outTrxNo, body.orderId);
    assert.ok(Number.isSafeInteger(order.trxNo) && order.trxNo > 0);
    const paid = await payOk(svc, order.trxNo, {
      bankTrxNo: 'apple-2000000123',
      clientAmount: 1980,
      clientCurrency: 'JPY',
      clientRegion: 'JP',
    });
    assert.equal(paid.status, 0);

    const text = await notificationText(order.trxNo);
    assert.match(text, /"totalAmount":13.98[,}]/, 'the total is the exact decimal of 2 x 6.99');
    assert.match(text, /"clientAmount":1980[,}]/);
    const n = JSON.parse(text);
    assertSchema(PaymentNotification, n, '2.4 body');
    assert.deepEqual(Object.keys(n), [
      'notifyId',
      'notifyTime',
      'appId',
      'userId',
      'trxNo',
      'trxType',
      'outTrxNo',
      'platform',
      'channel',
      'paymentType',
      'products',
      'currency',
      'region',
      'clientAmount',
      'clientCurrency',
      'clientRegion',
      'totalAmount',
      'status',
      'successTime',
      'attach',
      'bankTrxNo',
    ]);
    const d = await details(svc, order.trxNo);
    assert.equal(n.notifyId, d.order.notifyId);
    assert.equal(typeof n.notifyTime, 'number');
    assert.equal(n.appId, app.appId);
    assert.equal(n.userId, '1001');
    assert.equal(n.trxNo, order.trxNo);
    assert.equal(n.trxType, 0);
    assert.equal(n.outTrxNo, body.orderId);
    assert.deepEqual([n.platform, n.channel, n.paymentType], [1, 1, 0]);
    assert.deepEqual(n.products, [{ productCode: 'gems_100', quantity: 2, channelSkuCode: 'com.game.gems100' }]);
    assert.equal(n.currency, 'USD');
    assert.equal(n.region, 'JP', 'store payments: the region of the IP (rule 8)');
    assert.deepEqual([n.clientAmount, n.clientCurrency, n.clientRegion], [1980, 'JPY', 'JP']);
    assert.equal(n.totalAmount, 13.98, 'rule 7: the configured price, not what was paid');
    assert.equal(n.status, 0);
    assert.equal(n.successTime, paid.successTime);
    assert.deepEqual(n.attach, { gameServerId: 's1', gameRoleId: 'r-77', gameExt: '{"vip":3}' });
    assert.equal(n.bankTrxNo, 'apple-2000000123');
    assert.deepEqual(
      d.notifications.map((x: any) => [x.notifyId, x.type, x.target]),
      [[n.notifyId, 'payment', 'callback']],
    );
    const outbox = await svc.services.database.db
      .selectFrom('outbox')
      .select('server_id')
      .where('event_id', '=', n.notifyId)
      .executeTakeFirstOrThrow();
    assert.equal(outbox.server_id, 's1', 'the callback URL is chosen by game_server_id (4.7)');
  });

  it('places a web order with several products: no store SKUs, no client fields, the chosen region', async () => {
    const order = await placeOk(svc, webOrder(app.appId, { region: 'FR' }));
    await payOk(svc, order.trxNo);
    const n = JSON.parse(await notificationText(order.trxNo));
    assertSchema(PaymentNotification, n, '2.4 body');
    assert.deepEqual(n.products, [
      { productCode: 'gems_100', quantity: 1, channelSkuCode: '' },
      { productCode: 'pass', quantity: 3, channelSkuCode: '' },
    ]);
    assert.equal(n.totalAmount, 36.69);
    assert.equal(n.region, 'FR', 'web payment without region lock: the region the player chose');
    assert.deepEqual([n.clientAmount, n.clientCurrency, n.clientRegion], [null, null, null]);
    assert.equal(n.bankTrxNo.startsWith('sandbox-'), true);
    assert.deepEqual(n.attach, { gameServerId: 's1', gameRoleId: 'r-77', gameExt: '' });
  });

  it('uses the registration region for web payments with region lock (rule 8)', async () => {
    const other = await appWithProducts(svc);
    const set = await svc.admin('PUT', `/apps/${other.appId}/order-settings`, { webRegionLock: true });
    assert.deepEqual(set.body, {
      appId: other.appId,
      webRegionLock: true,
      refuseStoreOrdersInArrears: false,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    const order = await placeOk(svc, webOrder(other.appId, { region: 'FR', registrationRegion: 'BR' }));
    assert.equal(order.region, 'BR');
    const unlocked = await placeOk(svc, webOrder(app.appId));
    assert.equal(unlocked.region, 'DE', 'no region chosen: the country of the IP');
  });

  it('generates outTrxNo without an orderId, for merged iOS receipts and for web payment page orders (rule 3)', async () => {
    const { orderId: _, ...withoutId } = storeOrder(app.appId);
    const none = await placeOk(svc, withoutId);
    const merged = await placeOk(svc, storeOrder(app.appId, { mergedReceipts: true, orderId: 'client-merged-1' }));
    const page = await placeOk(svc, webOrder(app.appId, { origin: 'web_page', orderId: 'page-1' }));
    for (const o of [none, merged, page]) assert.match(o.outTrxNo, /^[0-9a-f]{32}$/);
    assert.equal(new Set([none.outTrxNo, merged.outTrxNo, page.outTrxNo]).size, 3);
    // Rule 9: merged receipts carry no clientRegion even when the client reports one.
    const paid = await payOk(svc, merged.trxNo, { clientAmount: 13.98, clientCurrency: 'USD', clientRegion: 'US' });
    assert.deepEqual(
      [paid.clientAmount, paid.clientCurrency, paid.clientRegion, paid.mergedReceipts],
      [13.98, 'USD', null, true],
    );
  });

  it('leaves clientRegion empty for iOS SDKs below 6.8.1 (rule 9), and keeps it from 6.8.1 and on Android', async () => {
    const report = { clientAmount: '14.00', clientCurrency: 'USD', clientRegion: 'US' };
    const old = await placeOk(svc, storeOrder(app.appId, { sdkVersion: '6.8.0' }));
    assert.equal((await payOk(svc, old.trxNo, report)).clientRegion, null);
    const first = await placeOk(svc, storeOrder(app.appId, { sdkVersion: '6.8.1' }));
    assert.equal((await payOk(svc, first.trxNo, report)).clientRegion, 'US');
    const android = await placeOk(
      svc,
      storeOrder(app.appId, { platform: 2, channel: 2, sdkVersion: '1.0', ipCountry: undefined }),
    );
    const paid = await payOk(svc, android.trxNo, report);
    assert.deepEqual([paid.clientRegion, paid.clientAmount, paid.region], ['US', 14, 'DF'], 'no edge country: DF');
    assert.deepEqual(paid.products, [{ productCode: 'gems_100', quantity: 2, channelSkuCode: 'gems_100_android' }]);
  });

  it('writes attach null when the client gave no game fields; keeps three decimals for KWD', async () => {
    const order = await placeOk(svc, {
      appId: app.appId,
      userId: '1002',
      products: [{ productCode: 'kwd_item', quantity: 2 }],
      platform: 2,
      channel: 2,
      paymentType: 0,
    });
    await payOk(svc, order.trxNo, { clientAmount: '2.500', clientCurrency: 'KWD' });
    const text = await notificationText(order.trxNo);
    const n = JSON.parse(text);
    assertSchema(PaymentNotification, n, '2.4 body');
    assert.equal(n.attach, null);
    assert.match(text, /"totalAmount":2.5[,}]/);
    assert.equal(n.clientRegion, null, 'no clientRegion reported');
  });

  it('refunds a store payment: a refund order with its own trxNo and the 2.5 notification with every field', async () => {
    const order = await placeOk(svc, storeOrder(app.appId));
    await payOk(svc, order.trxNo, { bankTrxNo: 'apple-1' });
    const res = await svc.admin('POST', `/sandbox/orders/${order.trxNo}/refund`, { bankRefundNo: 'apple-refund-1' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const refund = res.body;
    assert.notEqual(refund.trxNo, order.trxNo);
    assert.deepEqual([refund.trxType, refund.status, refund.originalTrxNo, refund.outTrxNo], [2, 0, order.trxNo, null]);

    const d = await details(svc, order.trxNo);
    assert.equal(d.order.status, 0, 'the paid order keeps its status');
    assert.equal(d.refund.trxNo, refund.trxNo);
    assert.equal(
      d.supplement,
      null,
      'the payment notification was never delivered, so nothing was granted and no supplement is due',
    );
    const r = d.notifications.find((x: any) => x.type === 'refund').body;
    assertSchema(RefundNotification, r, '2.5 body');
    assert.deepEqual(Object.keys(r), [
      'notifyId',
      'appId',
      'notifyTime',
      'userId',
      'trxNo',
      'originalTrxNo',
      'trxType',
      'platform',
      'channel',
      'paymentType',
      'products',
      'currency',
      'totalAmount',
      'status',
      'successTime',
      'attach',
    ]);
    assert.equal(r.notifyId, refund.notifyId);
    assert.equal(r.appId, app.appId);
    assert.equal(typeof r.notifyTime, 'number');
    assert.equal(r.userId, '1001');
    assert.equal(r.trxNo, refund.trxNo);
    assert.equal(r.originalTrxNo, order.trxNo);
    assert.equal(r.trxType, 2);
    assert.deepEqual([r.platform, r.channel, r.paymentType], [1, 1, 0]);
    assert.deepEqual(r.products, [{ productCode: 'gems_100', quantity: 2, channelSkuCode: 'com.game.gems100' }]);
    assert.equal(r.currency, 'USD');
    assert.equal(r.totalAmount, 13.98);
    assert.equal(r.status, 0);
    assert.equal(r.successTime, refund.successTime);
    const p = d.notifications.find((x: any) => x.type === 'payment').body;
    assert.deepEqual(r.attach, p.attach, 'rule 2: the attach of the original payment');
    for (const absent of ['outTrxNo', 'region', 'clientAmount', 'clientCurrency', 'clientRegion'])
      assert.equal(absent in r, false, absent);
  });

  it('fails and cancels orders through the documented transitions', async () => {
    const failing = await placeOk(svc, webOrder(app.appId));
    const failed = await svc.admin('POST', `/sandbox/orders/${failing.trxNo}/pay`, {
      outcome: 'failure',
      reason: 'card declined',
    });
    assert.deepEqual([failed.body.status, failed.body.failureReason], [3, 'card declined']);
    const cancelling = await placeOk(svc, webOrder(app.appId));
    const cancelled = await svc.admin('POST', `/orders/${cancelling.trxNo}/cancel`, {
      reason: 'player closed the page',
    });
    assert.deepEqual([cancelled.body.status, cancelled.body.statusName], [4, 'cancelled']);
    assert.equal((await details(svc, cancelling.trxNo)).notifications.length, 0);
  });

  it('keeps every status an order took, with when and why, in the operator view', async () => {
    const history = async (trxNo: number) =>
      (await details(svc, trxNo)).statusHistory.map((h: any) => [h.fromStatus, h.status, h.statusName, h.reason]);
    const paid = await placeOk(svc, storeOrder(app.appId));
    await payOk(svc, paid.trxNo);
    assert.deepEqual(await history(paid.trxNo), [
      [null, 1, 'created', null],
      [1, 2, 'awaiting payment', null],
      [2, 0, 'succeeded', null],
    ]);
    const d = await details(svc, paid.trxNo);
    assert.equal(Date.parse(d.statusHistory.at(-1).at), d.order.successTime, 'paid at successTime');
    assert.ok(
      d.statusHistory.every((h: any, i: number) => i === 0 || h.at >= d.statusHistory[i - 1].at),
      'oldest first',
    );

    const failing = await placeOk(svc, webOrder(app.appId));
    await svc.admin('POST', `/sandbox/orders/${failing.trxNo}/pay`, { outcome: 'failure', reason: 'card declined' });
    assert.deepEqual((await history(failing.trxNo)).at(-1), [2, 3, 'failed', 'card declined']);
    const cancelling = await placeOk(svc, webOrder(app.appId));
    await svc.admin('POST', `/orders/${cancelling.trxNo}/cancel`, { reason: 'player closed the page' });
    assert.deepEqual((await history(cancelling.trxNo)).at(-1), [2, 4, 'cancelled', 'player closed the page']);

    // A refund is an order of its own (2.5), created succeeded; the paid order keeps its history.
    const refund = await svc.admin('POST', `/sandbox/orders/${paid.trxNo}/refund`, { bankRefundNo: 'history-refund' });
    assert.equal(refund.status, 201, JSON.stringify(refund.body));
    assert.deepEqual(await history(refund.body.trxNo), [[null, 0, 'succeeded', null]]);
    assert.equal((await history(paid.trxNo)).length, 3);
  });

  it('finds orders by trxNo, outTrxNo, user and role', async () => {
    const order = await placeOk(svc, storeOrder(app.appId, { userId: '4242', game_role_id: 'role-find' }));
    const by = async (q: string) => (await svc.admin('GET', `/orders?${q}`)).body.orders.map((o: any) => o.trxNo);
    assert.deepEqual(await by(`trxNo=${order.trxNo}`), [order.trxNo]);
    assert.deepEqual(await by(`appId=${app.appId}&outTrxNo=${order.outTrxNo}`), [order.trxNo]);
    assert.deepEqual(await by('userId=4242'), [order.trxNo]);
    assert.deepEqual(await by('roleId=role-find'), [order.trxNo]);
    assert.ok((await by(`appId=${app.appId}&limit=2`)).length === 2);
  });

  it('finds orders by status, type and creation time, a page at a time, with their products', async () => {
    const other = await appWithProducts(svc);
    const [paid, waiting, cancelled] = [
      await placeOk(svc, storeOrder(other.appId)),
      await placeOk(svc, storeOrder(other.appId)),
      await placeOk(svc, webOrder(other.appId)),
    ];
    await payOk(svc, paid.trxNo);
    await svc.admin('POST', `/orders/${cancelled.trxNo}/cancel`, { reason: 'test' });
    const refund = (await svc.admin('POST', `/sandbox/orders/${paid.trxNo}/refund`, { bankRefundNo: 'find-refund' }))
      .body;
    const list = async (q: string) => {
      const res = await svc.admin('GET', `/orders?appId=${other.appId}&${q}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const nos = async (q: string) => (await list(q)).orders.map((o: any) => o.trxNo);
    assert.deepEqual(await nos('status=0&trxType=0'), [paid.trxNo]);
    assert.deepEqual(await nos('status=2'), [waiting.trxNo]);
    assert.deepEqual(await nos('status=4'), [cancelled.trxNo]);
    assert.deepEqual(await nos('trxType=2'), [refund.trxNo]);
    const created = Date.parse(paid.createdAt);
    assert.deepEqual(await nos(`from=${created}&trxType=0`), [cancelled.trxNo, waiting.trxNo, paid.trxNo]);
    assert.deepEqual(await nos(`to=${new Date(created).toISOString()}`), []);

    const first = await list('limit=2');
    assert.deepEqual(
      first.orders.map((o: any) => o.trxNo),
      [refund.trxNo, cancelled.trxNo],
    );
    assert.equal(first.nextBefore, cancelled.trxNo);
    const second = await list(`limit=2&before=${first.nextBefore}`);
    assert.deepEqual(
      second.orders.map((o: any) => o.trxNo),
      [waiting.trxNo, paid.trxNo],
    );
    const last = await list(`limit=2&before=${second.nextBefore}`);
    assert.deepEqual([last.orders, last.nextBefore], [[], null]);
    // Each order of a page comes with its own products (one query for the page).
    assert.deepEqual(
      first.orders[1].products.map((p: any) => p.productCode),
      cancelled.products.map((p: any) => p.productCode),
    );
    assert.deepEqual(second.orders[1].products, paid.products);

    for (const [q, re] of [
      ['status=5', /^status: /],
      ['trxType=3', /^trxType: /],
      ['limit=0', /^limit: must be 1-500/],
      ['limit=501', /^limit: must be 1-500/],
      ['from=yesterday', /^from: /],
    ] as const) {
      const res = await svc.admin('GET', `/orders?${q}`);
      assert.equal(res.status, 400, q);
      assert.match(res.body.detail, re, q);
    }
  });
});
