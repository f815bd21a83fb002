import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { watchOutboundConnections } from '../../testing/no-network.js';
import { notificationsOf } from '../../testing/payment-providers/payment-providers.js';
import {
  mainlandSession,
  placeAlipayOrder,
  reachCashier,
  setUpAlipay,
  startAlipay,
  type AlipayFixture,
} from '../../testing/payment-providers/alipay.js';

/**
 * Alipay over HTTP against the fake: the signed cashier URL a web order opens (page.pay on a desktop, wap.pay on a
 * phone), the player paying in the cashier, and the asynchronous notify verified with the Alipay public key: paid
 * exactly once, answered `success`, a second notify (TRADE_FINISHED) finding the order paid.
 */
describe('Alipay: a web order paid in the cashier, the asynchronous notify verified (RSA2)', () => {
  let f: AlipayFixture;
  const outbound = watchOutboundConnections();
  before(async () => {
    f = await startAlipay();
  });
  after(async () => {
    await f?.close();
    outbound.stop();
    assert.deepEqual(outbound.outside, [], 'nothing left loopback');
  });

  it('offers Alipay to mainland players and opens page.pay (desktop) and wap.pay (phone) with the order in yuan', async () => {
    const { page } = await mainlandSession(f, 'open-1');
    const ctx = await page.context();
    assert.deepEqual(
      ctx.methods.map((m: any) => [m.provider, m.method]),
      [['alipay', 'alipay']],
      'Alipay takes channel 4, the sandbox stands aside',
    );
    const res = await page.request('POST', '/orders', {
      products: [
        { productCode: 'gems_60', quantity: 2 },
        { productCode: 'vip', quantity: 1 },
      ],
      provider: 'alipay',
      lang: 'zh-CN',
      device: 'desktop',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const trxNo = res.body.data.order.trxNo;
    const order = (await f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
    assert.equal(order.channel, 4);
    assert.equal(order.paymentType, 3, 'the desktop cashier is paid by its QR code');
    const url = new URL(res.body.data.payment.url);
    assert.equal(url.origin + url.pathname, f.alipay.gateway);
    const call = f.alipay.requests.at(-1);
    assert.equal(call, undefined, 'the URL is signed here, nothing was sent to Alipay yet');
    const trade = await reachCashier(f, url.href);
    const sent = f.alipay.requests.at(-1)!;
    assert.equal(sent.signed, true, "signed RSA2 with the app's private key");
    assert.equal(sent.method, 'alipay.trade.page.pay');
    assert.equal(sent.params.app_id, f.account.appId);
    assert.equal(sent.params.sign_type, 'RSA2');
    assert.equal(sent.params.notify_url, f.webhookUrl(f.mainland.appId));
    assert.match(sent.params.return_url!, new RegExp(`/pay/${f.mainland.clientId}\\?trxNo=${trxNo}$`));
    assert.deepEqual(
      [sent.biz.out_trade_no, sent.biz.total_amount, sent.biz.product_code, sent.biz.subject],
      [String(trxNo), '42.00', 'FAST_INSTANT_TRADE_PAY', '60 宝石 × 2, VIP 月卡 × 1'],
    );
    assert.match(sent.biz.time_expire, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.ok(trade.expiresAt! > Date.now() + 25 * 60_000, 'the order lifetime (30 minutes) as time_expire');

    const phone = await placeAlipayOrder(f, page, 1, 'phone');
    await reachCashier(f, phone.url);
    const wap = f.alipay.requests.at(-1)!;
    assert.equal(wap.method, 'alipay.trade.wap.pay');
    assert.equal(wap.biz.product_code, 'QUICK_WAP_WAY');
    assert.equal(wap.biz.quit_url, wap.params.return_url);
    assert.equal((await f.svc.admin('GET', `/orders/${phone.trxNo}`)).body.order.paymentType, 1);

    // An app that prices in USD and offers Alipay anyway: its orders are refused (40050), nothing sent to Alipay.
    await setUpAlipay(f, f.alipay, f.overseas.appId, ['overseas']);
    const usd = await mainlandSession(f, 'usd-1', f.overseas);
    const refused = await usd.page.request('POST', '/orders', {
      products: [{ productCode: 'gems_100', quantity: 1 }],
      provider: 'alipay',
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 40050);
    assert.match(refused.body.detail, /CNY only/);
  });

  it('pays once on the verified notify: one 2.4 with channel 4 and the trade_no as bankTrxNo, answered success', async () => {
    const { page, link } = await mainlandSession(f, 'pay-1');
    const { trxNo, url } = await placeAlipayOrder(f, page, 3);
    const trade = await reachCashier(f, url);
    const delivery = (await f.alipay.pay(trade))!;
    assert.deepEqual([delivery.status, delivery.body], [200, 'success']);
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 0);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note, ...more] = notificationsOf(f, trxNo);
    assert.equal(more.length, 0, 'one notification');
    assert.equal(note.channel, 4);
    assert.equal(note.bankTrxNo, trade.tradeNo);
    assert.match(note.bankTrxNo, /^\d{28}$/);
    assert.equal(note.userId, link.login.userId);
    assert.equal(note.totalAmount, 18);
    assert.equal(note.currency, 'CNY');
    assert.equal(note.platform, 3);

    // Alipay's TRADE_FINISHED when the refund window ends (another notify_id): the order is paid already.
    trade.status = 'TRADE_FINISHED';
    const finished = await f.alipay.notify(trade);
    assert.deepEqual([finished.status, finished.body], [200, 'success']);
    // The same notify again (Alipay resends when it missed our answer): a replay, answered success, paid nothing.
    const again = await f.alipay.post(finished.url, finished.params);
    assert.deepEqual([again.status, again.body], [200, 'success']);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(notificationsOf(f, trxNo).length, 1);
    const messages = await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`);
    assert.deepEqual(messages.body.messages.map((m: any) => [m.type, m.outcome, m.reason, m.providerTrxId]).reverse(), [
      ['trade_status_sync:TRADE_SUCCESS', 'applied', null, trade.tradeNo],
      ['trade_status_sync:TRADE_FINISHED', 'duplicate', 'already_paid', trade.tradeNo],
    ]);
    const metrics = await f.svc.metrics();
    assert.match(metrics, /provider_notifications_total\{provider="alipay",outcome="applied"\} [1-9]/);
  });
});
