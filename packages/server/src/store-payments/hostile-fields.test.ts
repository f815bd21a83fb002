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
  startGoogleWorld,
  startAppleWorld,
  storeMessages,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

/**
 * The hostile-input walk of issue 27: every field of both stores' payloads, after their signature or token was
 * verified, replaced by each value the platform must not store (another type, NUL, an unpaired surrogate, too long,
 * an unsafe or out-of-range number). Every answer is 400 (never a 5xx), and nothing is paid or refunded.
 */
const NOT_STRINGS: unknown[] = [true, {}, [], 12];
const BAD_STRINGS: unknown[] = ['a\u0000b', '\ud800x', 'x\udc00', 'x'.repeat(5000)];
const BAD_NUMBERS: unknown[] = [true, {}, [], '12', 2 ** 53 + 2, -1, 1.5, 1e300];
const stringValues = (required: boolean) => [...NOT_STRINGS, ...BAD_STRINGS, ...(required ? [''] : [])];

type Kind = 'text' | 'required' | 'number' | 'int64' | 'object';
const valuesOf = (kind: Kind): unknown[] =>
  kind === 'number'
    ? BAD_NUMBERS
    : kind === 'int64'
      ? [true, {}, [], 'abc', '9007199254740993', '-1', 1.5, 'x\u0000']
      : kind === 'object'
        ? [true, 'x', 12, []]
        : stringValues(kind === 'required');

/** Every field a StoreKit 2 transaction carries (the fixture's and the optional ones), by kind. */
const APPLE_TRANSACTION: Record<string, Kind> = {
  transactionId: 'required',
  originalTransactionId: 'required',
  bundleId: 'required',
  productId: 'required',
  purchaseDate: 'number',
  originalPurchaseDate: 'number',
  quantity: 'number',
  type: 'text',
  inAppOwnershipType: 'text',
  signedDate: 'number',
  environment: 'required',
  transactionReason: 'text',
  storefront: 'text',
  storefrontId: 'text',
  price: 'number',
  currency: 'text',
  revocationDate: 'number',
  revocationReason: 'number',
  appAccountToken: 'text',
};
/** Every field of a Server Notification V2 payload and its `data`. */
const APPLE_NOTIFICATION: Record<string, Kind> = {
  notificationType: 'required',
  notificationUUID: 'required',
  subtype: 'text',
  version: 'text',
  signedDate: 'number',
  data: 'object',
};
const APPLE_NOTIFICATION_DATA: Record<string, Kind> = {
  appAppleId: 'number',
  bundleId: 'text',
  bundleVersion: 'text',
  environment: 'text',
  signedTransactionInfo: 'text',
  consumptionRequestReason: 'text',
};

function assertRefused(res: { status: number; body: any }, what: string): void {
  assert.ok(res.status < 500, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body).slice(0, 300)}`);
}

describe('App Store: every field of a verified payload is checked before use', () => {
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

  it('submitted transactions: 400, nothing paid', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const counts = await paymentCounts(w);
    for (const [field, kind] of Object.entries(APPLE_TRANSACTION))
      for (const value of valuesOf(kind)) {
        const res = await submit(w, order.trxNo, 'apple-transactions', {
          signedTransactions: [await signTx({ [field]: value })],
        });
        assertRefused(res, `transaction.${field} = ${JSON.stringify(value)}`);
        assert.equal(res.body.code, 40030);
      }
    assert.deepEqual(await paymentCounts(w), counts);
    assert.equal((await details(w.svc, order.trxNo)).order.status, 2, 'still awaiting payment');
    const recorded = await storeMessages(w, '?outcome=refused');
    assert.ok(recorded.some((m) => m.source === 'client' && m.errorCode === 'malformed'));
  });

  it('refund notifications: 400 STORE_MESSAGE_REFUSED malformed, recorded, nothing refunded', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const id = txId();
    const paid = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ transactionId: id, originalTransactionId: id })],
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const good = await signTx({ transactionId: id, originalTransactionId: id });
    const counts = await paymentCounts(w);
    const send = async (payload: Record<string, unknown>, what: string) => {
      const res = await notify(w, 'apple', { signedPayload: await signApple(chain, payload) });
      assertRefused(res, what);
      assert.equal(res.body.code, 40031, what);
    };
    for (const [field, kind] of Object.entries(APPLE_TRANSACTION))
      for (const value of valuesOf(kind)) {
        if (field === 'transactionId' || field === 'originalTransactionId') continue;
        const tx = await signTx({ transactionId: id, originalTransactionId: id, [field]: value });
        await send(notificationPayload('REFUND', tx), `data.signedTransactionInfo.${field} = ${JSON.stringify(value)}`);
      }
    for (const [field, kind] of Object.entries(APPLE_NOTIFICATION))
      for (const value of valuesOf(kind))
        await send(notificationPayload('REFUND', good, { [field]: value }), `${field} = ${JSON.stringify(value)}`);
    for (const [field, kind] of Object.entries(APPLE_NOTIFICATION_DATA))
      for (const value of valuesOf(kind))
        await send(
          notificationPayload('REFUND', good, {}, { [field]: value }),
          `data.${field} = ${JSON.stringify(value)}`,
        );
    assert.deepEqual(await paymentCounts(w), counts);
    assert.equal((await details(w.svc, order.trxNo)).refund, null, 'not refunded');
    const refusedMalformed = (await storeMessages(w, '?outcome=refused&limit=200')).filter(
      (m) => m.source === 'push' && m.errorCode === 'malformed',
    );
    assert.ok(refusedMalformed.length >= 20, `recorded: ${refusedMalformed.length}`);
  });

  it('the refund lookup: a malformed signed transaction is recorded and refunds nothing', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const id = txId();
    const paid = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ transactionId: id, originalTransactionId: id })],
    });
    assert.equal(paid.status, 200);
    api.refunds.set(id, [
      await signTx({ transactionId: id, originalTransactionId: id, revocationDate: 'x\u0000' }),
      await signTx({ transactionId: id, originalTransactionId: id, revocationDate: Date.now(), price: {} }),
    ]);
    const report = await w.svc.services.storePayments.reconciliation.run();
    assert.equal(report.apple.refunds, 0);
    assert.equal((await details(w.svc, order.trxNo)).refund, null, 'not refunded');
    const found = (await storeMessages(w, '?outcome=refused')).filter((m) => m.source === 'reconcile');
    assert.ok(found.length >= 2, JSON.stringify(found));
    api.refunds.delete(id);
  });
});

/** Every field of a developer notification, by member, and of the Android Publisher API's answers. */
const GOOGLE_NOTIFICATION: Record<string, Kind> = {
  version: 'text',
  eventTimeMillis: 'int64',
  packageName: 'required',
};
const GOOGLE_VOIDED_MEMBER: Record<string, Kind> = {
  purchaseToken: 'text',
  orderId: 'text',
  productType: 'number',
  refundType: 'number',
};
const GOOGLE_PURCHASE: Record<string, Kind> = {
  kind: 'text',
  purchaseTimeMillis: 'int64',
  purchaseState: 'number',
  consumptionState: 'number',
  orderId: 'text',
  purchaseType: 'number',
  acknowledgementState: 'number',
  // productId: the fake answers the product of the URL (the adapter compares it with the order's: wrong_product).
  quantity: 'number',
  regionCode: 'text',
  obfuscatedExternalAccountId: 'text',
  developerPayload: 'text',
};
const GOOGLE_VOIDED: Record<string, Kind> = {
  kind: 'text',
  purchaseToken: 'text',
  purchaseTimeMillis: 'int64',
  voidedTimeMillis: 'int64',
  orderId: 'required',
  voidedSource: 'number',
  voidedReason: 'number',
  voidedQuantity: 'number',
};

describe('Google Play: every field of a verified payload is checked before use', () => {
  let w: StoreWorld;
  let google: GoogleServer;
  const bearer = async () => `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER })}`;
  const paidToken = async () => {
    const { order } = await placeStoreOrder(w, 2);
    const tok = `tok-${crypto.randomUUID()}`;
    const p = purchase();
    google.purchases.set(`${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`, p);
    const res = await submit(w, order.trxNo, 'google-purchases', {
      packageName: TEST_PACKAGE,
      productId: GOOGLE_SKU,
      purchaseToken: tok,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { order, tok, orderId: p.orderId! };
  };

  before(async () => {
    ({ w, google } = await startGoogleWorld());
  });
  after(() => w.close());

  it('submitted purchases (purchases.products.get answers): 400, nothing paid', async () => {
    const { order } = await placeStoreOrder(w, 2);
    const counts = await paymentCounts(w);
    for (const [field, kind] of Object.entries(GOOGLE_PURCHASE))
      for (const value of valuesOf(kind)) {
        const tok = `tok-${crypto.randomUUID()}`;
        google.purchases.set(`${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`, { ...purchase(), [field]: value } as never);
        const res = await submit(w, order.trxNo, 'google-purchases', {
          packageName: TEST_PACKAGE,
          productId: GOOGLE_SKU,
          purchaseToken: tok,
        });
        assertRefused(res, `purchase.${field} = ${JSON.stringify(value)}`);
        assert.equal(res.body.code, 40030);
      }
    assert.deepEqual(await paymentCounts(w), counts);
    assert.equal((await details(w.svc, order.trxNo)).order.status, 2, 'still awaiting payment');
  });

  it('voided purchase notifications: 400 STORE_MESSAGE_REFUSED malformed, recorded, nothing refunded', async () => {
    const { order, tok, orderId } = await paidToken();
    const counts = await paymentCounts(w);
    const voided = { purchaseToken: tok, orderId, productType: 2, refundType: 1 };
    const base = { version: '1.0', packageName: TEST_PACKAGE, eventTimeMillis: String(Date.now()) };
    const send = async (n: object, what: string) => {
      const res = await notify(w, 'google', pushBody(n), { authorization: await bearer() });
      assertRefused(res, what);
      assert.ok([40031, 40032].includes(res.body.code), what);
    };
    for (const [field, kind] of Object.entries(GOOGLE_NOTIFICATION))
      for (const value of valuesOf(kind))
        await send(
          { ...base, [field]: value, voidedPurchaseNotification: voided },
          `${field} = ${JSON.stringify(value)}`,
        );
    for (const [field, kind] of Object.entries(GOOGLE_VOIDED_MEMBER))
      for (const value of valuesOf(kind))
        await send(
          { ...base, voidedPurchaseNotification: { ...voided, [field]: value } },
          `voidedPurchaseNotification.${field} = ${JSON.stringify(value)}`,
        );
    for (const member of ['voidedPurchaseNotification', 'oneTimeProductNotification', 'testNotification'])
      for (const value of valuesOf('object'))
        await send({ ...base, [member]: value }, `${member} = ${JSON.stringify(value)}`);
    for (const [field, kind] of Object.entries({ notificationType: 'number', purchaseToken: 'text', sku: 'text' }))
      for (const value of valuesOf(kind as Kind))
        await send(
          { ...base, oneTimeProductNotification: { version: '1.0', notificationType: 1, [field]: value } },
          `oneTimeProductNotification.${field} = ${JSON.stringify(value)}`,
        );
    assert.deepEqual(await paymentCounts(w), counts);
    assert.equal((await details(w.svc, order.trxNo)).refund, null, 'not refunded');
    const recorded = (await storeMessages(w, '?outcome=refused&limit=200')).filter((m) => m.errorCode === 'malformed');
    assert.ok(recorded.length >= 20, `recorded: ${recorded.length}`);
  });

  it('voidedpurchases.list: malformed items are recorded and refund nothing', async () => {
    const { order, tok, orderId } = await paidToken();
    const now = Date.now();
    const good = {
      kind: 'androidpublisher#voidedPurchase',
      purchaseToken: tok,
      purchaseTimeMillis: String(now - 60_000),
      voidedTimeMillis: String(now - 1000),
      orderId,
      voidedSource: 0,
      voidedReason: 1,
    };
    let n = 0;
    for (const [field, kind] of Object.entries(GOOGLE_VOIDED))
      for (const value of valuesOf(kind)) {
        const item = { ...good, [field]: value };
        google.voided.push(item as never);
        // The fake lists only items voided since the request's startTime (a time it cannot read is never listed).
        if (Number(item.voidedTimeMillis) >= now - 86_400_000) n++;
      }
    const report = await w.svc.services.storePayments.reconciliation.run();
    assert.equal(report.google.refunds, 0);
    assert.equal((await details(w.svc, order.trxNo)).refund, null, 'not refunded');
    const found = (await storeMessages(w, '?outcome=refused&limit=200')).filter((m) => m.source === 'reconcile');
    assert.equal(found.length, n);
    google.voided.length = 0;
  });
});
