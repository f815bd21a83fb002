import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { notificationsOf, webViewSession } from '../../testing/payment-providers/payment-providers.js';
import { age, placePaypalOrder, startPaypal, type PaypalFixture } from '../../testing/payment-providers/paypal.js';

/**
 * The browser's return is never trusted and a notification may never come: an approved PayPal order whose player never
 * came back is captured by the reconciliation and paid once; a capture whose webhook is held back is found by the
 * order query; a capture PayPal refuses fails the order; an order PayPal forgot is closed.
 */
describe('PayPal: payments whose return or webhook never comes', () => {
  let f: PaypalFixture;
  before(async () => {
    f = await startPaypal();
  });
  after(async () => {
    await f?.close();
  });

  const run = () => f.svc.services.paymentProviders.reconciliation.run();
  const messagesOf = async (trxNo: number) =>
    (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${trxNo}`)).body.messages;

  it('the reconciliation captures an approved order once, and the late webhook is a duplicate', async () => {
    const { page } = await webViewSession(f, 'late-1');
    const { trxNo, orderId } = await placePaypalOrder(f, page, 2);
    f.paypal.approve(orderId);
    f.paypal.holdWebhooks = true;
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'too young to ask');
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    f.paypal.holdWebhooks = false;
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'paid: not asked again');
    assert.equal(f.paypal.requests.filter((r) => r.path.endsWith(`${orderId}/capture`)).length, 1, 'captured once');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note] = notificationsOf(f, trxNo);
    assert.equal(note.bankTrxNo, f.paypal.captureOf(orderId).id);
    assert.equal(note.channel, 5);
    assert.equal(note.totalAmount, 9.98);

    const late = await f.paypal.send(f.keys.clientId, f.paypal.completedEvent(orderId));
    assert.deepEqual(JSON.parse(late.body).data, { outcome: 'duplicate', reason: 'already_paid' });
    assert.equal(notificationsOf(f, trxNo).length, 1, 'paid once');
    const found = await messagesOf(trxNo);
    assert.deepEqual(
      found.map((m: any) => [m.source, m.type, m.outcome]),
      [
        ['notify', 'PAYMENT.CAPTURE.COMPLETED', 'duplicate'],
        ['reconcile', 'query:paid', 'applied'],
      ],
    );
  });

  it('a capture made but never notified is found by the order query and paid once', async () => {
    const { page } = await webViewSession(f, 'late-2');
    const { trxNo, orderId } = await placePaypalOrder(f, page);
    f.paypal.approve(orderId);
    // Captured (the answer lost), its webhook never sent.
    f.paypal.holdWebhooks = true;
    const provider = f.svc.services.paymentProviders.registry.get('paypal')!;
    const settings = (await f.svc.services.paymentProviders.settings.forApp(f.overseas.appId, 'paypal'))!;
    const row = (await f.svc.services.database.db
      .selectFrom('provider_payments')
      .selectAll()
      .where('trx_no', '=', trxNo)
      .executeTakeFirst())!;
    assert.equal((await provider.query(settings, row)).kind, 'paid');
    f.paypal.holdWebhooks = false;
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    assert.equal(f.paypal.requests.filter((r) => r.path.endsWith(`${orderId}/capture`)).length, 1);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
  });

  it('leaves an order the player has not approved awaiting payment before its lifetime ends', async () => {
    const { page } = await webViewSession(f, 'late-3');
    const { trxNo, orderId } = await placePaypalOrder(f, page);
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 0, failed: 0 });
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 2);
    assert.equal(f.paypal.orders.get(orderId)!.status, 'PAYER_ACTION_REQUIRED');
  });

  it('fails the order when PayPal refuses the capture (the funding declined), taking no money', async () => {
    const { page } = await webViewSession(f, 'late-4');
    const { trxNo, orderId } = await placePaypalOrder(f, page);
    f.paypal.approve(orderId);
    f.paypal.refuseNextCapture = 'INSTRUMENT_DECLINED';
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 0, failed: 0 });
    const order = (await f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
    assert.equal(order.status, 3, 'trade failed');
    assert.equal(f.paypal.orders.get(orderId)!.status, 'APPROVED', 'nothing captured');
    assert.deepEqual(
      (await messagesOf(trxNo)).map((m: any) => [m.type, m.outcome, m.reason]),
      [['query:failed', 'applied', 'failed']],
    );
    assert.equal(notificationsOf(f, trxNo).length, 0);
  });

  it('closes an order PayPal no longer knows (expired there), and one past its lifetime', async () => {
    const { page } = await webViewSession(f, 'late-5');
    const gone = await placePaypalOrder(f, page);
    f.paypal.expire(gone.orderId);
    await age(f, gone.trxNo);
    const old = await placePaypalOrder(f, page);
    await age(f, old.trxNo, true);
    assert.deepEqual(await run(), { queried: 2, paid: 0, closed: 2, failed: 0 });
    for (const trxNo of [gone.trxNo, old.trxNo])
      assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 4);
  });
});
