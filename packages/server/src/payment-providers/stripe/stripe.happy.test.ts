import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { count } from '../../testing/orders/orders.js';
import {
  notificationsOf,
  placeStripeOrder,
  startStripe,
  webViewSession,
  type StripeFixture,
} from '../../testing/payment-providers/payment-providers.js';

/** Stripe over HTTP against the fake: the Checkout Session the order opens, the webhook that pays it exactly once. */
describe('Stripe: a web order paid through Checkout, the webhook verified', () => {
  let f: StripeFixture;
  before(async () => {
    f = await startStripe();
  });
  after(async () => {
    await f?.close();
  });

  it("offers cards to overseas players only, and opens a Checkout Session with the order's lines, currency and amount", async () => {
    const { page } = await webViewSession(f, 'open-1');
    const ctx = await page.context();
    assert.deepEqual(
      ctx.methods.map((m: any) => [m.provider, m.method]),
      [
        ['stripe', 'card'],
        ['sandbox', 'sandbox'],
      ],
    );
    const res = await page.request('POST', '/orders', {
      products: [
        { productCode: 'gems_100', quantity: 2 },
        { productCode: 'pass', quantity: 1 },
      ],
      provider: 'stripe',
      lang: 'zh-CN',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const order = (await f.svc.admin('GET', `/orders/${res.body.data.order.trxNo}`)).body.order;
    assert.equal(order.channel, 6);
    assert.equal(order.status, 2);
    const created = f.stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    assert.equal(created.idempotencyKey, `gp-order-${f.overseas.appId}-${order.trxNo}`);
    assert.deepEqual(
      created.form.line_items.map((l: any) => [
        l.price_data.product_data.name,
        l.price_data.unit_amount,
        l.quantity,
        l.price_data.currency,
      ]),
      [
        ['100 gems', '499', '2', 'usd'],
        ['Season pass', '990', '1', 'usd'],
      ],
    );
    assert.equal(created.form.client_reference_id, String(order.trxNo));
    assert.equal(created.form.locale, 'zh');
    assert.match(created.form.success_url, new RegExp(`/pay/${f.overseas.clientId}\\?trxNo=${order.trxNo}$`));
    const session = [...f.stripe.sessions.values()].at(-1)!;
    assert.equal(session.amount_total, 1988);

    // The mainland page does not offer cards unless the app enables them for mainland players.
    const mainland = await f.svc.admin('PUT', `/apps/${f.mainland.appId}/payment-providers/stripe`, {
      secrets: { secretKey: f.keys.secretKey, webhookSecret: f.keys.webhookSecret },
    });
    assert.equal(mainland.status, 200);
    const { page: m } = await webViewSession(f, 'open-m', f.mainland);
    assert.deepEqual(
      (await m.context()).methods.map((x: any) => x.provider),
      ['sandbox'],
    );
    const before = await count(f.svc, 'orders');
    const refused = await m.request('POST', '/orders', {
      products: [{ productCode: 'pass', quantity: 1 }],
      provider: 'stripe',
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 40050);
    assert.equal(await count(f.svc, 'orders'), before);
  });

  it('pays once: the game gets one verified 2.4 with channel 6 and the PaymentIntent as bankTrxNo', async () => {
    const { page, link } = await webViewSession(f, 'pay-1');
    const { trxNo, sessionId } = await placeStripeOrder(f, page, 3);
    const session = await f.stripe.pay(sessionId);
    assert.deepEqual(
      f.stripe.deliveries.slice(-2).map((d) => [d.event.type, d.status]),
      [
        ['checkout.session.completed', 200],
        ['payment_intent.succeeded', 200],
      ],
    );
    const read = await page.request('GET', `/orders/${trxNo}`);
    assert.equal(read.body.data.status, 0);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note, ...more] = notificationsOf(f, trxNo);
    assert.equal(more.length, 0, 'one notification');
    assert.equal(note.channel, 6);
    assert.equal(note.bankTrxNo, session.payment_intent);
    assert.equal(note.userId, link.login.userId);
    assert.equal(note.totalAmount, 14.97);
    assert.equal(note.platform, 3);
    assert.equal(note.trxType, 0);
    const messages = await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${trxNo}`);
    assert.deepEqual(messages.body.messages.map((m: any) => [m.type, m.outcome, m.reason]).reverse(), [
      ['checkout.session.completed', 'applied', null],
      ['payment_intent.succeeded', 'duplicate', 'already_paid'],
    ]);
    const metrics = await f.svc.metrics();
    assert.match(metrics, /provider_notifications_total\{provider="stripe",outcome="applied"\} [1-9]/);
  });
});
