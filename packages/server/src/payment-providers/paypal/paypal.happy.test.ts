import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { watchOutboundConnections } from '../../testing/no-network.js';
import {
  assertNotOfferedOnMainland,
  notificationsOf,
  webViewSession,
} from '../../testing/payment-providers/payment-providers.js';
import {
  age,
  placePaypalOrder,
  setUpPaypal,
  startPaypal,
  type PaypalFixture,
} from '../../testing/payment-providers/paypal.js';

/**
 * PayPal over HTTP against the fake: the Orders v2 order the web order opens, the approval, the capture the service
 * makes when the player is back (never the browser's return itself), and the verified webhook: paid exactly once.
 */
describe('PayPal: a web order paid through Orders v2, captured by the server, the webhook verified', () => {
  let f: PaypalFixture;
  const outbound = watchOutboundConnections();
  before(async () => {
    f = await startPaypal({ PROVIDER_LATE_QUERY_SECONDS: '1' });
  });
  after(async () => {
    await f?.close();
    outbound.stop();
    assert.deepEqual(outbound.outside, [], 'nothing left loopback');
  });

  it("offers PayPal to overseas players, and creates an order with the order's lines, currency, amount and return URL", async () => {
    const { page } = await webViewSession(f, 'open-1');
    const ctx = await page.context();
    assert.deepEqual(
      ctx.methods.map((m: any) => [m.provider, m.method]),
      [['paypal', 'paypal']],
      'PayPal takes channel 5, the sandbox stands aside',
    );
    const res = await page.request('POST', '/orders', {
      products: [
        { productCode: 'gems_100', quantity: 2 },
        { productCode: 'pass', quantity: 1 },
      ],
      provider: 'paypal',
      lang: 'zh-CN',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const order = (await f.svc.admin('GET', `/orders/${res.body.data.order.trxNo}`)).body.order;
    assert.equal(order.channel, 5);
    assert.equal(order.status, 2);
    const created = f.paypal.requests.find((r) => r.path === '/v2/checkout/orders')!;
    assert.equal(created.requestId, `gp-order-${f.overseas.appId}-${order.trxNo}`);
    assert.equal(created.body.intent, 'CAPTURE');
    const [unit] = created.body.purchase_units;
    assert.deepEqual(unit.amount, {
      currency_code: 'USD',
      value: '19.88',
      breakdown: { item_total: { currency_code: 'USD', value: '19.88' } },
    });
    assert.equal(unit.custom_id, String(order.trxNo));
    assert.deepEqual(
      unit.items.map((i: any) => [i.name, i.unit_amount.value, i.quantity, i.sku, i.category]),
      [
        ['100 gems', '4.99', '2', 'gems_100', 'DIGITAL_GOODS'],
        ['Season pass', '9.90', '1', 'pass', 'DIGITAL_GOODS'],
      ],
    );
    const experience = created.body.payment_source.paypal.experience_context;
    assert.match(experience.return_url, new RegExp(`/pay/${f.overseas.clientId}\\?trxNo=${order.trxNo}$`));
    assert.equal(experience.cancel_url, experience.return_url);
    assert.equal(experience.locale, 'zh-CN');
    assert.equal(experience.user_action, 'PAY_NOW');
    assert.equal(experience.shipping_preference, 'NO_SHIPPING');
    assert.match(res.body.data.payment.url, new RegExp(`^${f.paypal.url}/checkoutnow\\?token=[A-Z0-9]{17}$`));

    // The mainland page does not offer PayPal unless the app enables it for mainland players.
    await setUpPaypal(f, f.paypal, f.mainland.appId, f.webhookUrl(f.mainland.appId));
    await assertNotOfferedOnMainland(f, 'paypal');
  });

  it('captures on the return and pays once: one verified 2.4 with channel 5 and the capture id as bankTrxNo', async () => {
    const { page, link } = await webViewSession(f, 'pay-1');
    const { trxNo, orderId } = await placePaypalOrder(f, page, 3);
    // Back from PayPal without approving: nothing is captured, the order waits.
    await age(f, trxNo);
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 2);
    assert.equal(f.paypal.orders.get(orderId)!.status, 'PAYER_ACTION_REQUIRED');
    f.paypal.approve(orderId);
    // The return after the approval: the result view's read asks PayPal, which captures (its webhook held back here
    // so that the capture's own answer is what pays; the webhook first is the next test).
    await new Promise((r) => setTimeout(r, 1100));
    f.paypal.holdWebhooks = true;
    const read = await page.request('GET', `/orders/${trxNo}`);
    f.paypal.holdWebhooks = false;
    assert.equal(read.body.data.status, 0, JSON.stringify(read.body));
    const capture = f.paypal.captureOf(orderId);
    const captureCall = f.paypal.requests.find((r) => r.path === `/v2/checkout/orders/${orderId}/capture`)!;
    assert.equal(captureCall.requestId, `gp-capture-${f.overseas.appId}-${trxNo}`);
    const late = await f.paypal.send(f.keys.clientId, f.paypal.completedEvent(orderId));
    assert.deepEqual(
      [late.status, JSON.parse(late.body).data],
      [200, { outcome: 'duplicate', reason: 'already_paid' }],
    );
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note, ...more] = notificationsOf(f, trxNo);
    assert.equal(more.length, 0, 'one notification');
    assert.equal(note.channel, 5);
    assert.equal(note.bankTrxNo, capture.id);
    assert.equal(note.userId, link.login.userId);
    assert.equal(note.totalAmount, 14.97);
    assert.equal(note.currency, 'USD');
    assert.equal(note.platform, 3);
    assert.equal(note.trxType, 0);
    const messages = await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${trxNo}`);
    assert.deepEqual(messages.body.messages.map((m: any) => [m.source, m.type, m.outcome, m.reason]).reverse(), [
      ['query', 'query:paid', 'applied', null],
      ['notify', 'PAYMENT.CAPTURE.COMPLETED', 'duplicate', 'already_paid'],
    ]);
    const metrics = await f.svc.metrics();
    assert.match(metrics, /provider_notifications_total\{provider="paypal",outcome="applied"\} [1-9]/);
  });

  it("pays from the verified webhook when the capture's own answer was lost", async () => {
    const { page } = await webViewSession(f, 'pay-2');
    const { trxNo, orderId } = await placePaypalOrder(f, page);
    f.paypal.approve(orderId);
    // A capture made elsewhere whose answer was lost (another instance stopped): its webhook pays the order.
    const settings = await f.svc.services.paymentProviders.settings.forApp(f.overseas.appId, 'paypal');
    const provider = f.svc.services.paymentProviders.registry.get('paypal')!;
    const payment = (await f.svc.services.database.db
      .selectFrom('provider_payments')
      .selectAll()
      .where('trx_no', '=', trxNo)
      .executeTakeFirst())!;
    f.paypal.holdWebhooks = true;
    const found = await provider.query(settings!, payment);
    f.paypal.holdWebhooks = false;
    assert.equal(found.kind, 'paid');
    const delivered = await f.paypal.send(f.keys.clientId, f.paypal.completedEvent(orderId));
    assert.deepEqual([delivered.status, JSON.parse(delivered.body).data], [200, { outcome: 'applied', reason: null }]);
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 0);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, f.paypal.captureOf(orderId).id);
  });
});
