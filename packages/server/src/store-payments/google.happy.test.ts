import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeAccountToken } from '@game-platform/sdk';
import { TEST_PACKAGE, purchase, pushBody, type GoogleServer } from '../testing/google-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { StorePaymentsRepository } from './store-payments.repository.js';
import { PaymentNotification, RefundNotification } from '../orders/notifications.schemas.js';
import { assertSchema, details } from '../testing/orders/orders.js';
import {
  AUDIENCE,
  GOOGLE_SKU,
  PUSHER,
  arrears,
  notify,
  payArrear,
  paymentCounts,
  placeStoreOrder,
  startGoogleWorld,
  storeMessages,
  submit,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

const token = () => `tok-${Math.random().toString(36).slice(2)}`;

/** Google Play over real HTTP: purchase, acknowledgement, 2.4, voided purchase push, 2.5, arrears, supplement, poll. */
describe('Google Play payments end to end', () => {
  let w: StoreWorld;
  let google: GoogleServer;
  const bearer = async () => `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER })}`;
  const voided = (purchaseToken: string, orderId: string) =>
    pushBody({
      version: '1.0',
      packageName: TEST_PACKAGE,
      eventTimeMillis: String(Date.now()),
      voidedPurchaseNotification: { purchaseToken, orderId, productType: 2, refundType: 1 },
    });
  const bought = (tok: string, over = {}) => {
    const p = purchase({ regionCode: 'DE', ...over });
    google.purchases.set(`${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`, p);
    return p;
  };

  before(async () => {
    ({ w, google } = await startGoogleWorld());
  });
  after(() => w.close());

  it('pays with a purchase token, acknowledges it, refunds on a voided purchase, owes a supplement paid through Play', async () => {
    const placed = await placeStoreOrder(w, 2);
    const order = placed.order;
    assert.deepEqual(placed.payment, {
      channel: 'store',
      store: 'google',
      productId: GOOGLE_SKU,
      submit: `POST /order/v1/client/orders/${order.trxNo}/google-purchases`,
      obfuscatedAccountId: storeAccountToken(w.app.appId, w.login.userId),
    });
    const tok = token();
    const p = bought(tok);
    const paid = await submit(w, order.trxNo, 'google-purchases', {
      packageName: TEST_PACKAGE,
      productId: GOOGLE_SKU,
      purchaseToken: tok,
      clientAmount: '7.49',
      clientCurrency: 'EUR',
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.deepEqual([paid.body.data.status, paid.body.data.bankTrxNo], [0, p.orderId]);
    assert.equal(p.acknowledgementState, 1, 'acknowledged after paying');
    assert.equal(p.developerPayload, String(order.trxNo));

    await w.game.waitFor(() => w.callbacks().length === 1, 10_000, 'the payment notification');
    const payment = w.callbacks()[0];
    assertSchema(PaymentNotification, payment, '2.4 body');
    assert.deepEqual(
      [payment.trxNo, payment.clientAmount, payment.clientCurrency, payment.clientRegion, payment.bankTrxNo],
      [order.trxNo, 7.49, 'EUR', 'DE', p.orderId],
    );
    assert.deepEqual(payment.products, [{ productCode: 'gems_100', quantity: 1, channelSkuCode: GOOGLE_SKU }]);
    await waitDelivered(w, order.trxNo);

    const body = voided(tok, p.orderId!);
    const n = await notify(w, 'google', body, { authorization: await bearer() });
    assert.equal(n.status, 200, JSON.stringify(n.body));
    assert.deepEqual(n.body.data, { outcome: 'applied', reason: null });
    await w.game.waitFor(() => w.callbacks().length === 2, 10_000, 'the refund notification');
    const refund = w.callbacks()[1];
    assertSchema(RefundNotification, refund, '2.5 body');
    assert.deepEqual([refund.trxType, refund.originalTrxNo], [2, order.trxNo]);

    // Pub/Sub redelivers the same message: nothing changes.
    const before = await paymentCounts(w);
    const replay = await notify(w, 'google', body, { authorization: await bearer() });
    assert.deepEqual([replay.status, replay.body.data.outcome], [200, 'duplicate']);
    assert.deepEqual(await paymentCounts(w), before);

    const [owed] = await arrears(w);
    assert.deepEqual([owed.tradeNo, owed.channelType, owed.productId], [refund.trxNo, 2, GOOGLE_SKU]);
    const supplement = await payArrear(w, owed.tradeNo);
    assert.equal(supplement.payment.store, 'google');
    const tok2 = token();
    bought(tok2);
    const again = await submit(w, supplement.order.trxNo, 'google-purchases', {
      packageName: TEST_PACKAGE,
      productId: GOOGLE_SKU,
      purchaseToken: tok2,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(await arrears(w), []);
    assert.equal((await paymentCounts(w)).outbox, before.outbox, 'no payment notification for a supplement');
    assert.equal(w.callbacks().length, 2);
  });

  it('test and one-time product notifications are acknowledged and change nothing', async () => {
    const before = await paymentCounts(w);
    const base = { version: '1.0', packageName: TEST_PACKAGE, eventTimeMillis: String(Date.now()) };
    for (const member of [
      { testNotification: { version: '1.0' } },
      { oneTimeProductNotification: { version: '1.0', notificationType: 1, purchaseToken: 'x', sku: GOOGLE_SKU } },
    ]) {
      const res = await notify(w, 'google', pushBody({ ...base, ...member }), { authorization: await bearer() });
      assert.deepEqual([res.status, res.body.data.outcome], [200, 'ignored']);
    }
    assert.deepEqual(await paymentCounts(w), before);
  });

  it('the reconciliation finds a voided purchase only the poll reports, and retries a failed acknowledgement', async () => {
    const { order } = await placeStoreOrder(w, 2);
    const tok = token();
    const p = bought(tok, { acknowledgementState: 0 });
    const paid = await submit(w, order.trxNo, 'google-purchases', {
      packageName: TEST_PACKAGE,
      productId: GOOGLE_SKU,
      purchaseToken: tok,
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    google.voided.push({
      purchaseToken: tok,
      orderId: p.orderId!,
      purchaseTimeMillis: p.purchaseTimeMillis,
      voidedTimeMillis: String(Date.now()),
      voidedSource: 0,
      voidedReason: 1,
    });
    // As if the acknowledgement after paying had failed: the poll acknowledges it.
    await w.svc.services.database.db
      .updateTable('store_transactions')
      .set({ acknowledged: 0 })
      .where('store_key', '=', tok)
      .execute();
    p.acknowledgementState = 0;
    const report = await w.svc.services.storePayments.reconciliation.run();
    assert.deepEqual(
      [report.google.refunds, report.google.acknowledged],
      [1, 0],
      'a voided purchase is not acknowledged',
    );
    const { order: other } = await placeStoreOrder(w, 2);
    const tok2 = token();
    const p2 = bought(tok2);
    assert.equal(
      (
        await submit(w, other.trxNo, 'google-purchases', {
          packageName: TEST_PACKAGE,
          productId: GOOGLE_SKU,
          purchaseToken: tok2,
        })
      ).status,
      200,
    );
    await w.svc.services.database.db
      .updateTable('store_transactions')
      .set({ acknowledged: 0 })
      .where('store_key', '=', tok2)
      .execute();
    p2.acknowledgementState = 0;
    assert.equal((await w.svc.services.storePayments.reconciliation.run()).google.acknowledged, 1);
    assert.equal(p2.acknowledgementState, 1);
    assert.equal((await details(w.svc, order.trxNo)).refund.originalTrxNo, order.trxNo);
    const [found] = await storeMessages(w, '?store=google&outcome=applied');
    assert.deepEqual([found.source, found.trxNo], ['reconcile', order.trxNo]);
    const counts = await paymentCounts(w);
    assert.equal((await w.svc.services.storePayments.reconciliation.run()).google.refunds, 0, 'found once');

    // Another instance polling this app holds its lease: this one leaves the app alone until it is free.
    const db = w.svc.services.database.db;
    const now = Date.now();
    assert.notEqual(
      await new StorePaymentsRepository(db).takeCursor(w.app.appId, 'google', now, now + 60_000, 0),
      null,
    );
    assert.equal(await new StorePaymentsRepository(db).takeCursor(w.app.appId, 'google', now, now + 60_000, 0), null);
    assert.equal((await w.svc.services.storePayments.reconciliation.run()).google.apps, 0, 'leased elsewhere');
    await new StorePaymentsRepository(db).releaseCursor(w.app.appId, 'google', null, now);
    assert.equal((await w.svc.services.storePayments.reconciliation.run()).google.apps, 1);
    assert.deepEqual(await paymentCounts(w), counts);
  });
});

async function waitDelivered(w: StoreWorld, trxNo: number): Promise<void> {
  const until = Date.now() + 10_000;
  while ((await details(w.svc, trxNo)).notifications[0]?.state !== 'delivered') {
    if (Date.now() > until) throw new Error('payment notification not delivered');
    await new Promise((r) => setTimeout(r, 25));
  }
}
