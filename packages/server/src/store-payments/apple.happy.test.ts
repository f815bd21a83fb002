import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { storeAccountToken } from '@game-platform/sdk';
import {
  notificationPayload,
  signApple,
  transactionPayload,
  type AppleApiServer,
  type AppleTestChain,
} from '../testing/apple-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { PaymentNotification, RefundNotification } from '../orders/notifications.schemas.js';
import { assertSchema, details } from '../testing/orders/orders.js';
import {
  APPLE_SKU,
  arrears,
  notify,
  payArrear,
  paymentCounts,
  placeStoreOrder,
  startAppleWorld,
  storeMessages,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

/** App Store over real HTTP: purchase, 2.4, refund notification, 2.5, arrears, supplement paid, reconciliation. */
describe('App Store payments end to end', () => {
  let w: StoreWorld;
  let chain: AppleTestChain;
  let api: AppleApiServer;
  const signTx = (over: Record<string, unknown> = {}) =>
    signApple(chain, transactionPayload({ productId: APPLE_SKU, transactionId: txId(), ...over }));

  before(async () => {
    ({ w, chain, api } = await startAppleWorld());
  });
  after(async () => {
    await w.close();
    await api.close();
  });

  it('pays with a signed transaction, refunds on REFUND, owes a supplement paid through the App Store', async () => {
    const placed = await placeStoreOrder(w, 1);
    const order = placed.order;
    assert.deepEqual(placed.payment, {
      channel: 'store',
      store: 'apple',
      productId: APPLE_SKU,
      submit: `POST /order/v1/client/orders/${order.trxNo}/apple-transactions`,
      appAccountToken: storeAccountToken(w.app.appId, w.login.userId),
    });
    const id = txId();
    const signed = await signTx({
      transactionId: id,
      originalTransactionId: id,
      storefront: 'FRA',
      price: 1990,
      currency: 'EUR',
    });
    const paid = await submit(w, order.trxNo, 'apple-transactions', { signedTransactions: [signed] });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.deepEqual(
      [paid.body.data.status, paid.body.data.bankTrxNo, paid.body.data.clientAmount, paid.body.data.clientRegion],
      [0, id, 1.99, 'FR'],
    );

    // 2.4 on the wire, with the client fields from the signed transaction.
    await w.game.waitFor(() => w.callbacks().length === 1, 10_000, 'the payment notification');
    const payment = w.callbacks()[0];
    assertSchema(PaymentNotification, payment, '2.4 body');
    assert.deepEqual(
      [
        payment.trxNo,
        payment.trxType,
        payment.clientAmount,
        payment.clientCurrency,
        payment.clientRegion,
        payment.bankTrxNo,
      ],
      [order.trxNo, 0, 1.99, 'EUR', 'FR', id],
    );
    assert.deepEqual(payment.products, [{ productCode: 'gems_100', quantity: 1, channelSkuCode: APPLE_SKU }]);
    await waitDelivered(w, order.trxNo);

    // Apple's REFUND notification: the refund order, 2.5, and the supplement owed (the items were granted).
    const refunded = await signTx({
      transactionId: id,
      originalTransactionId: id,
      revocationDate: Date.now(),
      revocationReason: 0,
    });
    const payload = await signApple(chain, notificationPayload('REFUND', refunded));
    const n = await notify(w, 'apple', { signedPayload: payload });
    assert.equal(n.status, 200, JSON.stringify(n.body));
    assert.deepEqual(n.body.data, { outcome: 'applied', reason: null });
    await w.game.waitFor(() => w.callbacks().length === 2, 10_000, 'the refund notification');
    const refund = w.callbacks()[1];
    assertSchema(RefundNotification, refund, '2.5 body');
    assert.deepEqual([refund.trxType, refund.originalTrxNo], [2, order.trxNo]);

    // Apple retries: the same notification changes nothing.
    const before = await paymentCounts(w);
    const replay = await notify(w, 'apple', { signedPayload: payload });
    assert.deepEqual([replay.status, replay.body.data.outcome], [200, 'duplicate']);
    assert.deepEqual(await paymentCounts(w), before);

    // 4.5 lists the supplement; it is paid through the App Store, then gone, with no second payment notification.
    const [owed, ...rest] = await arrears(w);
    assert.deepEqual([owed.tradeNo, owed.channelType, owed.productId, rest.length], [refund.trxNo, 1, APPLE_SKU, 0]);
    const supplement = await payArrear(w, owed.tradeNo);
    assert.equal(supplement.payment.store, 'apple');
    const supplementTx = txId();
    const again = await submit(w, supplement.order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ transactionId: supplementTx, originalTransactionId: supplementTx })],
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(await arrears(w), []);
    const outbox = await paymentCounts(w);
    assert.equal(outbox.outbox, before.outbox, 'a paid supplement sends no payment notification (2.5 rule 3)');
    assert.equal(w.callbacks().length, 2);

    // A refund of the supplement's own payment is not a payment refund (spec 6): recorded, nothing changes.
    const supplementRefund = await notify(w, 'apple', {
      signedPayload: await signApple(
        chain,
        notificationPayload(
          'REFUND',
          await signTx({ transactionId: supplementTx, originalTransactionId: supplementTx }),
        ),
      ),
    });
    assert.deepEqual(supplementRefund.body.data, { outcome: 'ignored', reason: 'not_refundable' });
    assert.deepEqual(await paymentCounts(w), outbox);

    const messages = (await storeMessages(w)).slice(1);
    assert.deepEqual(
      messages.map((m) => [m.store, m.source, m.type, m.outcome, m.trxNo]),
      [
        ['apple', 'push', 'REFUND', 'duplicate', null],
        ['apple', 'push', 'REFUND', 'applied', order.trxNo],
      ],
    );
    assert.ok(!JSON.stringify(messages).includes(payload.slice(0, 60)), 'no signed payload in the record');
  });

  it('a merged receipt: several transactions pay one order, clientRegion empty (2.4 rules 3, 9)', async () => {
    const { order } = await placeStoreOrder(w, 1, 2);
    const paid = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [
        await signTx({ price: 990, currency: 'USD' }),
        await signTx({ price: 990, currency: 'USD' }),
      ],
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const o = paid.body.data;
    assert.deepEqual(
      [o.status, o.mergedReceipts, o.clientAmount, o.clientCurrency, o.clientRegion],
      [0, true, 1.98, 'USD', null],
    );
    await w.game.waitFor(() => w.callbacks().some((c) => c.trxNo === order.trxNo), 10_000, 'the merged payment');
    assert.equal(w.callbacks().find((c) => c.trxNo === order.trxNo).clientRegion, null);
  });

  it('TEST, REFUND_DECLINED, REFUND_REVERSED and CONSUMPTION_REQUEST are acknowledged and change nothing', async () => {
    const before = await paymentCounts(w);
    for (const type of ['TEST', 'REFUND_DECLINED', 'REFUND_REVERSED', 'CONSUMPTION_REQUEST']) {
      const tx = type === 'TEST' ? undefined : await signTx();
      const res = await notify(w, 'apple', { signedPayload: await signApple(chain, notificationPayload(type, tx)) });
      assert.deepEqual([res.status, res.body.data.outcome], [200, 'ignored'], type);
    }
    assert.deepEqual(await paymentCounts(w), before);
    const ignored = await storeMessages(w, '?outcome=ignored');
    assert.deepEqual(
      ignored.slice(0, 4).map((m) => [m.type, m.errorCode]),
      [
        // Without the studio's consent statement nothing is sent to Apple (consumption.test.ts).
        ['CONSUMPTION_REQUEST', 'no_consent'],
        ['REFUND_REVERSED', 'refund_reversed'],
        ['REFUND_DECLINED', 'refund_declined'],
        ['TEST', 'test'],
      ],
    );
  });

  it('the reconciliation finds a refund whose notification never came, through the refund lookup', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const id = txId();
    const paid = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ transactionId: id, originalTransactionId: id })],
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    api.refunds.set(id, [await signTx({ transactionId: id, originalTransactionId: id, revocationDate: Date.now() })]);
    const report = await w.svc.services.storePayments.reconciliation.run();
    assert.equal(report.apple.refunds, 1);
    const d = await details(w.svc, order.trxNo);
    assert.equal(d.refund.originalTrxNo, order.trxNo);
    const [found] = await storeMessages(w, '?store=apple');
    assert.deepEqual(
      [found.source, found.outcome, found.trxNo, found.notificationId],
      ['reconcile', 'applied', order.trxNo, `refund:${id}`],
    );
    assert.ok(api.requests.some((r) => r.path === `/inApps/v2/refund/lookup/${id}` && r.authorized));
    // The next run finds the same refund and changes nothing.
    const counts = await paymentCounts(w);
    assert.equal((await w.svc.services.storePayments.reconciliation.run()).apple.refunds, 0);
    assert.deepEqual(await paymentCounts(w), counts);
  });
});

/** Waits until the game accepted the order's payment notification (the items count as granted). */
async function waitDelivered(w: StoreWorld, trxNo: number): Promise<void> {
  const until = Date.now() + 10_000;
  while ((await details(w.svc, trxNo)).notifications[0]?.state !== 'delivered') {
    if (Date.now() > until) throw new Error('payment notification not delivered');
    await new Promise((r) => setTimeout(r, 25));
  }
}
