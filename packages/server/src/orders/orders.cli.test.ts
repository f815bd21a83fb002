import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../testing/child.js';
import { TEST_DATABASE_URL } from '../testing/database.js';
import { startTestService, type TestService } from '../testing/service.js';
import { SANDBOX, appWithProducts, payOk, placeOk, storeOrder, webOrder } from '../testing/orders/orders.js';

describe('orders CLI', () => {
  let svc: TestService;
  let env: Record<string, string>;
  before(async () => {
    svc = await startTestService(SANDBOX);
    // The CLI works on the same database as the running service.
    const schema = svc.services.database.schema;
    env = {
      DATA_DIR: svc.config.dataDir,
      MASTER_KEY: svc.config.MASTER_KEY!,
      ADMIN_TOKEN: svc.adminToken,
      ...SANDBOX,
      ...(schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
        : {}),
    };
  });
  after(async () => {
    await svc.close();
  });

  const cli = async (...args: string[]) => {
    const res = await runCli(env, ['--json', ...args]);
    assert.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout);
  };

  it('adds and lists products, finds and shows orders, refunds through the sandbox, lists supplements', async () => {
    const app = await svc.createApp();
    const product = await cli(
      'product',
      'add',
      '--app',
      String(app.appId),
      '--code',
      'gems_100',
      '--name',
      '100 gems',
      '--price',
      '6.99',
      '--currency',
      'USD',
      '--ios-sku',
      'com.game.gems100',
    );
    assert.deepEqual([product.price, product.priceMinor, product.channelSkus], [6.99, 699, { 1: 'com.game.gems100' }]);
    assert.equal((await cli('product', 'list', '--app', String(app.appId))).products.length, 1);

    const order = await placeOk(
      svc,
      storeOrder(app.appId, { products: [{ productCode: 'gems_100', quantity: 1 }], game_role_id: 'cli-role' }),
    );
    await payOk(svc, order.trxNo);
    assert.deepEqual(
      (await cli('order', 'find', '--role', 'cli-role')).orders.map((o: any) => o.trxNo),
      [order.trxNo],
    );
    assert.deepEqual(
      (await cli('order', 'find', '--out-trx-no', order.outTrxNo)).orders.map((o: any) => o.trxNo),
      [order.trxNo],
    );
    assert.deepEqual(
      (await cli('order', 'find', '--app', String(app.appId), '--status', '0', '--trx-type', '0')).orders.map(
        (o: any) => o.trxNo,
      ),
      [order.trxNo],
    );
    assert.deepEqual((await cli('order', 'find', '--app', String(app.appId), '--status', '4')).orders, []);
    const badStatus = await runCli(env, ['order', 'find', '--status', '9']);
    assert.equal(badStatus.code, 1);
    assert.match(badStatus.stderr, /status: must be 0-4/);
    const shown = await cli('order', 'show', String(order.trxNo));
    assert.deepEqual(
      shown.notifications.map((n: any) => n.type),
      ['payment'],
    );
    const refund = await cli('order', 'refund', String(order.trxNo), '--bank-refund-no', 'r-1');
    assert.deepEqual([refund.trxType, refund.originalTrxNo, refund.bankTrxNo], [2, order.trxNo, 'r-1']);
    assert.deepEqual((await cli('order', 'supplements', '--app', String(app.appId))).supplements, []);

    const bad = await runCli(env, ['order', 'refund', String(order.trxNo)]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /already refunded/);
    const text = await runCli({ ...env }, ['order', 'show', String(order.trxNo)]);
    assert.match(text.stdout, /refund: trxNo \d+  trxType 2/);
    assert.match(
      text.stdout,
      /\n  \S+Z  new -> 1 \(created\)\n  \S+Z  1 -> 2 \(awaiting payment\)\n  \S+Z  2 -> 0 \(succeeded\)\n/,
    );
    const off = await runCli({ ...env, SANDBOX_PAYMENTS: 'false' }, ['order', 'refund', String(order.trxNo)]);
    assert.match(off.stderr, /SANDBOX_PAYMENTS/);
  });

  it("shows a web payment's refunds, each with its kind and provider, and the status history naming them", async () => {
    const app = await appWithProducts(svc);
    const order = await placeOk(svc, webOrder(app.appId));
    await payOk(svc, order.trxNo);
    const base = { appId: app.appId, trxNo: order.trxNo, provider: 'paypal', currency: 'USD', refundedAt: Date.now() };
    await svc.services.orders.webRefunds.apply({ ...base, providerRefundId: 'RF1', amountMinor: 100, kind: 'refund' });
    await svc.services.orders.webRefunds.apply({
      ...base,
      providerRefundId: 'RV2',
      amountMinor: 200,
      kind: 'dispute_lost',
    });
    const res = await runCli(env, ['order', 'show', String(order.trxNo)]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /0 -> 0 \(succeeded\)  partly refunded: 1\.00 USD at paypal \(RF1\)/);
    assert.match(res.stdout, /0 -> 0 \(succeeded\)  dispute lost: 2\.00 USD at paypal \(RV2\)/);
    assert.match(res.stdout, /refund: .*  refund at paypal \(RF1\)/);
    assert.match(res.stdout, /refund: .*  dispute_lost at paypal \(RV2\)/);
    const json = await cli('order', 'show', String(order.trxNo));
    assert.deepEqual(
      [json.refundedAmount, json.refunds.length, json.webRefunds.map((w: any) => w.providerRefundId)],
      [3, 2, ['RF1', 'RV2']],
    );
  });
});
