import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { notificationsOf, webViewSession } from '../../testing/payment-providers/payment-providers.js';
import { age } from '../../testing/payment-providers/paypal.js';
import { placeWechatOrder, startWechatpay, type WechatpayFixture } from '../../testing/payment-providers/wechatpay.js';

/**
 * The browser's return is never trusted and a notification may never come: a WeChat Pay payment whose notification
 * never arrives is found by the query by out_trade_no (the reconciliation, the result view's late read) and paid once;
 * a late notification is then a duplicate; an unpaid one is left open, then closed at WeChat Pay past its lifetime.
 */
describe('WeChat Pay: payments whose notification never comes', () => {
  let f: WechatpayFixture;
  before(async () => {
    f = await startWechatpay({ PROVIDER_LATE_QUERY_SECONDS: '1' });
  });
  after(async () => {
    await f?.close();
  });

  const run = () => f.svc.services.paymentProviders.reconciliation.run();
  const messagesOf = async (trxNo: number) =>
    (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`)).body.messages;
  async function open(roleId: string, device: 'desktop' | 'phone' = 'desktop') {
    const { page } = await webViewSession(f, roleId, f.mainland);
    await page.context();
    return { page, ...(await placeWechatOrder(f, page, device, 2)) };
  }

  it('the reconciliation finds a payment never notified and pays it once; the late notification is a duplicate', async () => {
    const { trxNo, outTradeNo } = await open('late-1');
    f.wechat.holdNotifications = true;
    const t = await f.wechat.pay(outTradeNo);
    f.wechat.holdNotifications = false;
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'too young to ask');
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'paid: not asked again');
    const queries = f.wechat.requests.filter((r) => r.method === 'GET' && r.path.includes(outTradeNo));
    assert.equal(queries.length, 1);
    assert.equal(queries[0]!.path, `/v3/pay/transactions/out-trade-no/${outTradeNo}?mchid=${f.merchant.mchId}`);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note] = notificationsOf(f, trxNo);
    assert.equal(note.bankTrxNo, t.transaction_id);
    assert.equal(note.channel, 3);
    assert.equal(note.totalAmount, 12);

    const late = await f.wechat.notifyPaid(t);
    assert.deepEqual(JSON.parse(late.body).data, { outcome: 'duplicate', reason: 'already_paid' });
    assert.equal(notificationsOf(f, trxNo).length, 1, 'paid once');
    assert.deepEqual(
      (await messagesOf(trxNo)).map((m: any) => [m.source, m.type, m.outcome]),
      [
        ['notify', 'TRANSACTION.SUCCESS', 'duplicate'],
        ['reconcile', 'query:paid', 'applied'],
      ],
    );
  });

  it('believes no query answer that WeChat Pay did not sign: the payment stays unpaid until a signed one says', async () => {
    const { trxNo, outTradeNo } = await open('late-forged');
    f.wechat.holdNotifications = true;
    const t = await f.wechat.pay(outTradeNo);
    f.wechat.holdNotifications = false;
    await age(f, trxNo);
    f.wechat.answerKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    try {
      assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 0, failed: 1 });
    } finally {
      f.wechat.answerKey = null;
    }
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 2);
    assert.equal(notificationsOf(f, trxNo).length, 0);
    // The next run, after the lease, hears WeChat Pay itself.
    await f.svc.services.database.db
      .updateTable('provider_payments')
      .set({ lease_until: 0 })
      .where('trx_no', '=', trxNo)
      .execute();
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, t.transaction_id);
  });

  it("the result view's read asks WeChat Pay when the notification is late (an H5 payment)", async () => {
    const { page, trxNo, outTradeNo } = await open('late-2', 'phone');
    f.wechat.holdNotifications = true;
    const t = await f.wechat.pay(outTradeNo);
    f.wechat.holdNotifications = false;
    await age(f, trxNo);
    const read = await page.request('GET', `/orders/${trxNo}`);
    assert.equal(read.body.data.status, 0, 'paid on the read');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, t.transaction_id);
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 });
  });

  it('leaves an unpaid payment open before its lifetime ends, then closes it at WeChat Pay and here', async () => {
    const { page, trxNo, outTradeNo } = await open('late-3');
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 0, failed: 0 });
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 2);
    assert.equal(f.wechat.transactions.get(outTradeNo)!.trade_state, 'NOTPAY');
    await age(f, trxNo, true);
    // Leased by the run a moment ago: due again (as if the lease had run out).
    await f.svc.services.database.db
      .updateTable('provider_payments')
      .set({ lease_until: 0 })
      .where('trx_no', '=', trxNo)
      .execute();
    assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 1, failed: 0 });
    assert.equal(f.wechat.transactions.get(outTradeNo)!.trade_state, 'CLOSED');
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 4);
  });

  it('pays a payment made just before its close: WeChat Pay refuses to close a paid transaction', async () => {
    const { trxNo, outTradeNo } = await open('late-4');
    f.wechat.holdNotifications = true;
    const t = await f.wechat.pay(outTradeNo);
    f.wechat.holdNotifications = false;
    await age(f, trxNo, true);
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    assert.equal(f.wechat.transactions.get(outTradeNo)!.trade_state, 'SUCCESS');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, t.transaction_id);
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 0);
  });
});
