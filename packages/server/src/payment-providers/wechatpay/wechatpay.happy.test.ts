import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { count } from '../../testing/orders/orders.js';
import { notificationsOf, webViewSession } from '../../testing/payment-providers/payment-providers.js';
import { placeWechatOrder, startWechatpay, type WechatpayFixture } from '../../testing/payment-providers/wechatpay.js';

/**
 * WeChat Pay over HTTP against the fake: a desktop order opens a Native payment (the QR step), a phone order an H5
 * payment (a redirect with the page's return), and the verified, decrypted notification pays each exactly once with
 * channel 3 and the transaction_id.
 */
describe('WeChat Pay: Native and H5 web orders paid through the notification', () => {
  let f: WechatpayFixture;
  before(async () => {
    f = await startWechatpay();
  });
  after(async () => {
    await f?.close();
  });

  it('offers WeChat Pay to mainland players only, and opens a Native payment drawn as a QR code on a desktop', async () => {
    const { page, link } = await webViewSession(f, 'native-1', f.mainland);
    const ctx = await page.context();
    assert.deepEqual(
      ctx.methods.map((m: any) => [m.provider, m.method]),
      [
        ['wechatpay', 'wechat_pay'],
        ['sandbox', 'sandbox'],
      ],
    );
    const { trxNo, outTradeNo, payment } = await placeWechatOrder(f, page, 'desktop', 2);
    assert.equal(payment.kind, 'qr');
    assert.equal(payment.channel, 'wechatpay');
    assert.match(payment.code, /^weixin:\/\/wxpay\/bizpayurl\?pr=[0-9a-f]+$/);
    assert.match(payment.image, /^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    const order = (await f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
    assert.equal(order.channel, 3);
    assert.equal(order.status, 2);
    const sent = f.wechat.requests.find((r) => r.path === '/v3/pay/transactions/native')!.body;
    assert.equal(sent.mchid, f.merchant.mchId);
    assert.equal(sent.appid, f.merchant.wechatAppId);
    assert.equal(sent.out_trade_no, outTradeNo);
    assert.equal(sent.attach, String(trxNo));
    assert.deepEqual(sent.amount, { total: 1200, currency: 'CNY' });
    assert.equal(sent.description, '60 钻石 x2');
    assert.equal(sent.notify_url, f.webhookUrl(f.mainland.appId));
    assert.match(sent.time_expire, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);

    // The player scans the code with WeChat and pays: the notification pays the order once.
    const t = await f.wechat.scan(payment.code);
    assert.equal(f.wechat.deliveries.at(-1)!.status, 200, f.wechat.deliveries.at(-1)!.body);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const notes = notificationsOf(f, trxNo);
    assert.equal(notes.length, 1);
    assert.equal(notes[0].channel, 3);
    assert.equal(notes[0].bankTrxNo, t.transaction_id);
    assert.equal(notes[0].userId, link.login.userId);
    assert.equal(notes[0].totalAmount, 12);
    assert.equal(notes[0].currency, 'CNY');
    const read = await page.request('GET', `/orders/${trxNo}`);
    assert.equal(read.body.data.status, 0);
    // WeChat Pay retries a notification until it is answered 2xx: the retry is a duplicate, nothing more is paid.
    const retry = await f.wechat.notifyPaid(t);
    assert.equal(retry.status, 200);
    assert.equal(notificationsOf(f, trxNo).length, 1);
    const messages = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`)).body
      .messages;
    assert.deepEqual(
      messages.map((m: any) => [m.provider, m.type, m.outcome]),
      [
        ['wechatpay', 'TRANSACTION.SUCCESS', 'duplicate'],
        ['wechatpay', 'TRANSACTION.SUCCESS', 'applied'],
      ],
    );
    const metrics = await f.svc.metrics();
    assert.match(metrics, /provider_notifications_total\{provider="wechatpay",outcome="applied"\} [1-9]/);
    assert.match(metrics, /provider_notifications_total\{provider="wechatpay",outcome="duplicate"\} [1-9]/);
    // 2.7 paymentType of a Native payment: 3 (QR code).
    assert.equal(order.paymentType, 3);
  });

  it("opens an H5 payment on a phone (the payer's IP, the page's return), paid once", async () => {
    const { page } = await webViewSession(f, 'h5-1', f.mainland);
    await page.context();
    const { trxNo, outTradeNo, payment } = await placeWechatOrder(f, page, 'phone');
    assert.equal(payment.kind, 'redirect');
    const url = new URL(payment.url);
    assert.equal(url.origin + url.pathname, `${f.wechat.url}/h5pay`);
    assert.match(url.searchParams.get('redirect_url')!, new RegExp(`/pay/${f.mainland.clientId}\\?trxNo=${trxNo}$`));
    const sent = f.wechat.requests.find(
      (r) => r.path === '/v3/pay/transactions/h5' && r.body.out_trade_no === outTradeNo,
    )!;
    assert.deepEqual(sent.body.scene_info, { payer_client_ip: '127.0.0.1', h5_info: { type: 'Wap' } });
    const t = await f.wechat.pay(outTradeNo);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, t.transaction_id);
    assert.equal(notificationsOf(f, trxNo)[0].channel, 3);
    // 2.7 paymentType of an H5 payment: 1 (mobile WAP).
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.paymentType, 1);
  });

  it('refuses settings that are not WeChat Pay keys, and orders in another currency than CNY', async () => {
    const good = f.wechat.settingsOf(f.wechat.merchant());
    for (const [change, field] of [
      [{ config: { ...good.config, mchId: '12a' } }, 'config.mchId'],
      [
        {
          secrets: {
            ...good.secrets,
            platformKey: '-----BEGIN PUBLIC KEY-----\n' + 'A'.repeat(200) + '\n-----END PUBLIC KEY-----',
          },
        },
        'secrets.platformKey',
      ],
      [{ secrets: { ...good.secrets, apiV3Key: 'é'.repeat(32) } }, 'secrets.apiV3Key'],
      [{ secrets: { ...good.secrets, merchantPrivateKey: 'x'.repeat(200) } }, 'secrets.merchantPrivateKey'],
    ] as const) {
      const res = await f.svc.admin('PUT', `/apps/${f.overseas.appId}/payment-providers/wechatpay`, {
        ...good,
        ...change,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.detail, new RegExp(field.replace('.', '\\.')));
    }
    // Keys pasted into a one-line field (their line breaks dropped or blanked) are read as the PEM files they were.
    for (const join of ['', ' ']) {
      const oneLine = {
        ...good,
        secrets: {
          ...good.secrets,
          merchantPrivateKey: good.secrets.merchantPrivateKey.replace(/\n/g, join),
          platformKey: good.secrets.platformKey.replace(/\n/g, join),
        },
      };
      const res = await f.svc.admin('PUT', `/apps/${f.overseas.appId}/payment-providers/wechatpay`, oneLine);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    // A USD product on the mainland page cannot be paid with WeChat Pay: refused, nothing opened at WeChat Pay.
    const { page } = await webViewSession(f, 'usd', f.mainland);
    await page.context();
    const opened = f.wechat.transactions.size;
    const res = await page.request('POST', '/orders', {
      products: [{ productCode: 'pass', quantity: 1 }],
      provider: 'wechatpay',
    });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.code, 50250);
    assert.match(res.body.detail, /CNY only/);
    assert.equal(f.wechat.transactions.size, opened);
    assert.ok((await count(f.svc, 'orders')) > 0);
  });
});
