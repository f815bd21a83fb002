import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import {
  notificationPayload,
  signApple,
  transactionPayload,
  type AppleApiServer,
  type AppleTestChain,
} from '../testing/apple-fixture.js';
import { TEST_PACKAGE, purchase, pushBody, type GoogleServer } from '../testing/google-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { details } from '../testing/orders/orders.js';
import {
  APPLE_SKU,
  AUDIENCE,
  GOOGLE_SKU,
  PUSHER,
  notify,
  paymentCounts,
  placeStoreOrder,
  refused,
  startGoogleWorld,
  startAppleWorld,
  storeMessages,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

/** Issue 27, revocation: a refunded transaction never pays, whether the refund is signed into it or reported first. */
describe('App Store: revoked transactions are refused', () => {
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

  it('a transaction carrying revocationDate is refused (revoked), pays nothing and is recorded', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const counts = await paymentCounts(w);
    const res = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ revocationDate: Date.now() - 1000, revocationReason: 0 })],
    });
    refused(res, 400, 40030, 'revoked');
    assert.deepEqual(await paymentCounts(w), counts);
    assert.equal((await details(w.svc, order.trxNo)).order.status, 2);
    const [m] = await storeMessages(w, '?outcome=refused');
    assert.deepEqual([m.source, m.errorCode, m.trxNo], ['client', 'revoked', order.trxNo]);
  });

  it('a REFUND notified before the transaction was submitted is kept: the later submission is refused', async () => {
    const id = txId();
    const tx = await signTx({ transactionId: id, originalTransactionId: id });
    const n = await notify(w, 'apple', {
      signedPayload: await signApple(chain, notificationPayload('REFUND', await signTx({ transactionId: id }))),
    });
    assert.equal(n.status, 200, JSON.stringify(n.body));
    assert.deepEqual(n.body.data, { outcome: 'applied', reason: 'revoked_before_submission' });
    const { order } = await placeStoreOrder(w, 1);
    const counts = await paymentCounts(w);
    refused(await submit(w, order.trxNo, 'apple-transactions', { signedTransactions: [tx] }), 400, 40030, 'revoked');
    assert.deepEqual(await paymentCounts(w), counts);
    // Another transaction still pays the order.
    const ok = await submit(w, order.trxNo, 'apple-transactions', { signedTransactions: [await signTx()] });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('a refund the reconciliation finds for a transaction not yet submitted is kept the same way', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const paidId = txId();
    const paid = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ transactionId: paidId, originalTransactionId: paidId })],
    });
    assert.equal(paid.status, 200);
    // The customer's refund history (looked up by the paid transaction) lists another, kept, transaction.
    const kept = txId();
    api.refunds.set(paidId, [await signTx({ transactionId: kept, revocationDate: Date.now() })]);
    await w.svc.services.storePayments.reconciliation.run();
    api.refunds.delete(paidId);
    assert.equal((await details(w.svc, order.trxNo)).refund, null, 'the paid one is not refunded');
    const next = (await placeStoreOrder(w, 1)).order;
    refused(
      await submit(w, next.trxNo, 'apple-transactions', {
        signedTransactions: [await signTx({ transactionId: kept })],
      }),
      400,
      40030,
      'revoked',
    );
  });
});

describe('Google Play: voided purchases are refused', () => {
  let w: StoreWorld;
  let google: GoogleServer;
  const bearer = async () => `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER })}`;
  const bought = () => {
    const tok = `tok-${crypto.randomUUID()}`;
    const p = purchase();
    google.purchases.set(`${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`, p);
    return { tok, orderId: p.orderId! };
  };
  const body = (tok: string) => ({ packageName: TEST_PACKAGE, productId: GOOGLE_SKU, purchaseToken: tok });

  before(async () => {
    ({ w, google } = await startGoogleWorld());
  });
  after(() => w.close());

  it("a purchase in the app's voided purchases (found by the reconciliation) is refused at submission", async () => {
    const { tok, orderId } = bought();
    const now = Date.now();
    google.voided.push({
      kind: 'androidpublisher#voidedPurchase',
      purchaseToken: tok,
      purchaseTimeMillis: String(now - 60_000),
      voidedTimeMillis: String(now - 1000),
      orderId,
      voidedSource: 0,
      voidedReason: 1,
    });
    await w.svc.services.storePayments.reconciliation.run();
    const { order } = await placeStoreOrder(w, 2);
    const counts = await paymentCounts(w);
    refused(await submit(w, order.trxNo, 'google-purchases', body(tok)), 400, 40030, 'revoked');
    assert.deepEqual(await paymentCounts(w), counts);
    const [m] = await storeMessages(w, '?outcome=refused');
    assert.deepEqual([m.source, m.errorCode], ['client', 'revoked']);
  });

  it('a voided purchase notified before submission is refused', async () => {
    const { tok, orderId } = bought();
    const n = await notify(
      w,
      'google',
      pushBody({
        version: '1.0',
        packageName: TEST_PACKAGE,
        eventTimeMillis: String(Date.now()),
        voidedPurchaseNotification: { purchaseToken: tok, orderId, productType: 2, refundType: 1 },
      }),
      { authorization: await bearer() },
    );
    assert.deepEqual(n.body.data, { outcome: 'applied', reason: 'revoked_before_submission' });
    const { order } = await placeStoreOrder(w, 2);
    refused(await submit(w, order.trxNo, 'google-purchases', body(tok)), 400, 40030, 'revoked');
    const other = bought();
    assert.equal((await submit(w, order.trxNo, 'google-purchases', body(other.tok))).status, 200);
  });
});
