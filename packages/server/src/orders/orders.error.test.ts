import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../config/config.js';
import { startTestService, type TestService } from '../testing/service.js';
import {
  SANDBOX,
  appWithProducts,
  counts,
  details,
  pay,
  payOk,
  place,
  placeOk,
  storeOrder,
  webOrder,
} from '../testing/orders/orders.js';

/** Bad input on the order routes: a clear error naming the field, never a 500, nothing written. */
describe('orders: bad input', () => {
  let svc: TestService;
  let app: any;
  before(async () => {
    svc = await startTestService(SANDBOX);
    app = await appWithProducts(svc);
  });
  after(async () => {
    await svc.close();
  });

  async function refused(
    call: () => Promise<{ status: number; body: any }>,
    status: number,
    code: number,
    detail: RegExp,
  ) {
    const before = await counts(svc);
    const res = await call();
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.code, code, JSON.stringify(res.body));
    assert.match(res.body.detail, detail);
    assert.equal(typeof res.body.msg, 'string');
    assert.deepEqual(await counts(svc), before, 'nothing written');
    return res.body;
  }

  const placements: Array<[string, (appId: number) => Record<string, unknown>, number, RegExp]> = [
    [
      'an unknown product',
      (a) => storeOrder(a, { products: [{ productCode: 'nope', quantity: 1 }] }),
      40010,
      /^products\.0\.productCode: nope is not an active product/,
    ],
    [
      'a product without a store SKU for the channel',
      (a) => storeOrder(a, { products: [{ productCode: 'pass', quantity: 1 }] }),
      40010,
      /has no store SKU for channel 1/,
    ],
    [
      'a zero quantity',
      (a) => storeOrder(a, { products: [{ productCode: 'gems_100', quantity: 0 }] }),
      40000,
      /^products\.0\.quantity: must be >= 1/,
    ],
    [
      'a negative quantity',
      (a) => webOrder(a, { products: [{ productCode: 'pass', quantity: -2 }] }),
      40000,
      /^products\.0\.quantity: must be >= 1/,
    ],
    [
      'a fractional quantity',
      (a) => webOrder(a, { products: [{ productCode: 'pass', quantity: 1.5 }] }),
      40000,
      /^products\.0\.quantity: must be integer/,
    ],
    [
      'a quantity given as a string',
      (a) => webOrder(a, { products: [{ productCode: 'pass', quantity: '2' }] }),
      40000,
      /^products\.0\.quantity: must be integer/,
    ],
    ['no products', (a) => webOrder(a, { products: [] }), 40000, /^products: must NOT have fewer than 1 items/],
    [
      'the same product twice',
      (a) =>
        webOrder(a, {
          products: [
            { productCode: 'pass', quantity: 1 },
            { productCode: 'pass', quantity: 1 },
          ],
        }),
      40000,
      /^products\.1\.productCode: pass is listed twice/,
    ],
    [
      'two currencies in one order',
      (a) =>
        webOrder(a, {
          products: [
            { productCode: 'pass', quantity: 1 },
            { productCode: 'yen_box', quantity: 1 },
          ],
        }),
      40000,
      /^products\.1\.productCode: is priced in JPY, the order in USD/,
    ],
    [
      'several products in a store payment',
      (a) =>
        storeOrder(a, {
          products: [
            { productCode: 'gems_100', quantity: 1 },
            { productCode: 'kwd_item', quantity: 1 },
          ],
        }),
      40000,
      /^products: a store payment/,
    ],
    [
      'merged receipts outside the iOS store',
      (a) => storeOrder(a, { channel: 2, platform: 2, mergedReceipts: true }),
      40000,
      /^mergedReceipts: only iOS store receipts/,
    ],
    ['an unknown platform', (a) => storeOrder(a, { platform: 6 }), 40000, /^platform/],
    ['an unknown payment type', (a) => storeOrder(a, { paymentType: 9 }), 40000, /^paymentType/],
    ['a channel out of range', (a) => storeOrder(a, { channel: 0 }), 40000, /^channel: must be >= 1/],
    ['a bad region', (a) => webOrder(a, { region: 'france' }), 40000, /^region: must match pattern/],
    ['an unknown field', (a) => storeOrder(a, { colour: 'red' }), 40000, /^colour: is not a known field/],
    ['an order id with spaces', (a) => storeOrder(a, { orderId: 'a b' }), 40000, /^orderId: must match pattern/],
  ];
  for (const [name, body, code, detail] of placements) {
    it(`refuses ${name}`, async () => {
      await refused(() => place(svc, body(app.appId)), code === 40010 ? 400 : 400, code, detail);
    });
  }

  it('answers the same order for the same request twice, and refuses a reused orderId with other contents', async () => {
    const body = storeOrder(app.appId, { orderId: 'dup-1' });
    const first = await placeOk(svc, body);
    const again = await place(svc, body);
    assert.equal(again.status, 200, 'an earlier order is answered, not created');
    assert.deepEqual([again.body.created, again.body.order.trxNo, again.body.payment], [false, first.trxNo, null]);
    const conflict = await refused(
      () => place(svc, { ...body, products: [{ productCode: 'gems_100', quantity: 3 }] }),
      409,
      40911,
      /orderId "dup-1" was already used for order \d+/,
    );
    assert.deepEqual(conflict.data, { trxNo: first.trxNo });
    await refused(() => place(svc, { ...body, userId: 'someone-else' }), 409, 40911, /already used/);
  });

  it('creates one order for the same outTrxNo placed concurrently', async () => {
    const body = storeOrder(app.appId, { orderId: 'race-1' });
    const before = await counts(svc);
    const results = await Promise.all(Array.from({ length: 12 }, () => place(svc, body)));
    assert.ok(
      results.every((r) => r.status === 200 || r.status === 201),
      JSON.stringify(results.map((r) => r.body)),
    );
    assert.equal(results.filter((r) => r.body.created).length, 1);
    assert.equal(new Set(results.map((r) => r.body.order.trxNo)).size, 1);
    const after = await counts(svc);
    assert.equal(after.orders - before.orders, 1);
    assert.equal(after.items - before.items, 1);
  });

  it('refuses amounts with too many decimals for the currency, and bad prices', async () => {
    const order = await placeOk(svc, storeOrder(app.appId));
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: 1.999, clientCurrency: 'USD' }),
      400,
      40000,
      /^clientAmount: has more decimals than USD allows \(2/,
    );
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: '100.5', clientCurrency: 'JPY' }),
      400,
      40000,
      /^clientAmount: has more decimals than JPY allows \(0/,
    );
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: 1e-7, clientCurrency: 'USD' }),
      400,
      40000,
      /^clientAmount: has more decimals/,
    );
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: -1, clientCurrency: 'USD' }),
      400,
      40000,
      /^clientAmount/,
    );
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: 1, clientCurrency: 'XYZ' }),
      400,
      40000,
      /^clientCurrency: must be an ISO 4217/,
    );
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: 1 }),
      400,
      40000,
      /^clientCurrency: is required with clientAmount/,
    );
    await refused(() => pay(svc, order.trxNo, { clientRegion: 'US' }), 400, 40000, /^clientAmount: is required/);
    const products = async () => (await svc.admin('GET', `/apps/${app.appId}/products`)).body.products.length;
    const n = await products();
    for (const [price, currency, detail] of [
      [6.999, 'USD', /^price: has more decimals than USD/],
      ['1.5', 'JPY', /^price: has more decimals than JPY/],
      [-1, 'USD', /^price/],
      ['1,5', 'USD', /^price/],
      [1, 'usd', /^currency/],
      [1, 'ABC', /^currency: must be an ISO 4217/],
    ] as const) {
      const res = await svc.admin('POST', `/apps/${app.appId}/products`, {
        productCode: `p${n}`,
        name: 'x',
        price,
        currency,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.detail, detail);
    }
    assert.equal(await products(), n);
    assert.equal(
      (
        await svc.admin('POST', `/apps/${app.appId}/products`, {
          productCode: 'gems_100',
          name: 'x',
          price: 1,
          currency: 'USD',
        })
      ).body.code,
      40900,
    );
  });

  it('refuses client-reported amounts on non-store payments', async () => {
    const order = await placeOk(svc, webOrder(app.appId));
    await refused(
      () => pay(svc, order.trxNo, { clientAmount: 1, clientCurrency: 'USD' }),
      400,
      40000,
      /^clientAmount: is reported only for the two store payments/,
    );
  });

  it('refuses illegal status transitions with 40910', async () => {
    const order = await placeOk(svc, storeOrder(app.appId));
    await payOk(svc, order.trxNo);
    const twice = await refused(
      () => pay(svc, order.trxNo),
      409,
      40910,
      /is 0 \(succeeded\) and cannot become 0 \(succeeded\)/,
    );
    assert.deepEqual(twice.data, { trxNo: order.trxNo, status: 0, requested: 0 });
    await refused(() => pay(svc, order.trxNo, { outcome: 'failure' }), 409, 40910, /cannot become 3 \(failed\)/);
    await refused(
      () => svc.admin('POST', `/orders/${order.trxNo}/cancel`, {}),
      409,
      40910,
      /cannot become 4 \(cancelled\)/,
    );
    const cancelled = await placeOk(svc, webOrder(app.appId));
    await svc.admin('POST', `/orders/${cancelled.trxNo}/cancel`, {});
    await refused(() => pay(svc, cancelled.trxNo), 409, 40910, /is 4 \(cancelled\) and cannot become 0/);
    const failed = await placeOk(svc, webOrder(app.appId));
    await pay(svc, failed.trxNo, { outcome: 'failure' });
    await refused(() => pay(svc, failed.trxNo), 409, 40910, /is 3 \(failed\)/);
    assert.equal((await details(svc, failed.trxNo)).notifications.length, 0);
    // A refused change leaves no trace in the status history.
    assert.deepEqual(
      (await details(svc, order.trxNo)).statusHistory.map((h: any) => h.status),
      [1, 2, 0],
    );
    assert.deepEqual(
      (await details(svc, failed.trxNo)).statusHistory.map((h: any) => h.status),
      [1, 2, 3],
    );
  });

  it('records one status change when the same payment is reported many times at once', async () => {
    const order = await placeOk(svc, storeOrder(app.appId));
    const answers = await Promise.all(Array.from({ length: 8 }, () => pay(svc, order.trxNo)));
    assert.equal(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers.map((a) => a.status)));
    assert.deepEqual(
      (await details(svc, order.trxNo)).statusHistory.map((h: any) => [h.fromStatus, h.status]),
      [
        [null, 1],
        [1, 2],
        [2, 0],
      ],
    );
  });

  it('refuses refunds of non-store, unpaid and already refunded orders', async () => {
    const web = await placeOk(svc, webOrder(app.appId));
    await payOk(svc, web.trxNo);
    await refused(
      () => svc.admin('POST', `/sandbox/orders/${web.trxNo}/refund`, {}),
      409,
      40912,
      /not a store payment \(channel 5/,
    );
    const unpaid = await placeOk(svc, storeOrder(app.appId));
    await refused(
      () => svc.admin('POST', `/sandbox/orders/${unpaid.trxNo}/refund`, {}),
      409,
      40912,
      /is not paid \(status 2\)/,
    );
    await payOk(svc, unpaid.trxNo);
    const refund = await svc.admin('POST', `/sandbox/orders/${unpaid.trxNo}/refund`, {});
    assert.equal(refund.status, 201);
    await refused(
      () => svc.admin('POST', `/sandbox/orders/${unpaid.trxNo}/refund`, {}),
      409,
      40912,
      /already refunded \(refund order \d+\)/,
    );
    await refused(
      () => svc.admin('POST', `/sandbox/orders/${refund.body.trxNo}/refund`, {}),
      409,
      40912,
      /not a store payment .*trxType 2/,
    );
    const both = await Promise.all(
      [1, 2, 3].map(async () => {
        const o = await placeOk(svc, storeOrder(app.appId));
        await payOk(svc, o.trxNo);
        return Promise.all([1, 2, 3].map(() => svc.admin('POST', `/sandbox/orders/${o.trxNo}/refund`, {})));
      }),
    );
    for (const attempts of both)
      assert.deepEqual(
        attempts.map((a) => a.status).sort(),
        [201, 409, 409],
        'one refund per order, even concurrently',
      );
  });

  it('answers 404 for unknown orders and apps', async () => {
    await refused(() => pay(svc, 999999), 404, 40400, /order 999999 does not exist/);
    await refused(() => svc.admin('GET', '/orders/999999'), 404, 40400, /order 999999/);
    await refused(() => place(svc, storeOrder(999999)), 404, 40400, /app 999999 does not exist/);
    await refused(
      () => svc.admin('POST', '/apps/999999/products', { productCode: 'x', name: 'x', price: 1, currency: 'USD' }),
      404,
      40400,
      /app 999999/,
    );
    await refused(() => svc.admin('GET', '/apps/999999/products/gems_100'), 404, 40400, /app 999999 does not exist/);
    await refused(
      () => svc.admin('PATCH', '/apps/999999/products/gems_100', { name: 'x' }),
      404,
      40400,
      /app 999999 does not exist/,
    );
    await refused(
      () => svc.admin('GET', `/apps/${app.appId}/products/no_such_code`),
      404,
      40400,
      /product no_such_code does not exist/,
    );
  });
});

describe('orders: the sandbox channel is off unless enabled, and never in production', () => {
  it('refuses sandbox actions and payments when SANDBOX_PAYMENTS is off', async () => {
    const svc = await startTestService();
    try {
      const app = await appWithProducts(svc);
      const res = await place(svc, storeOrder(app.appId));
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 40311);
      assert.equal((await svc.admin('POST', '/sandbox/orders/1/refund', {})).body.code, 40311);
      assert.equal((await counts(svc)).orders, 0);
    } finally {
      await svc.close();
    }
  });

  it('refuses to start with the sandbox in production mode', () => {
    assert.throws(
      () => loadConfig({ ...SANDBOX, NODE_ENV: 'production' }),
      /SANDBOX_PAYMENTS: the sandbox payment channel is never enabled in production mode/,
    );
    assert.equal(loadConfig({ ...SANDBOX }).SANDBOX_PAYMENTS, true);
    assert.equal(loadConfig({}).SANDBOX_PAYMENTS, false);
  });
});
