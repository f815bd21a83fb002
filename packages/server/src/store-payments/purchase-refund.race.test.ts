import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { decodeJwt } from 'jose';
import {
  notificationPayload,
  signApple,
  transactionPayload,
  type AppleApiServer,
  type AppleTestChain,
} from '../testing/apple-fixture.js';
import { TEST_PACKAGE, purchase, pushBody, type GoogleServer } from '../testing/google-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { testBackend } from '../testing/database.js';
import { gameNotifications, inBatches } from '../testing/races.js';
import {
  APPLE_SKU,
  AUDIENCE,
  GOOGLE_SKU,
  PUSHER,
  notify,
  placeStoreOrder,
  startAppleWorld,
  startGoogleWorld,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

/**
 * Issue 39: a purchase submission and the store's refund of the same transaction sent at once. Each round ends one of
 * two ways, never a third: refused at submission (`revoked`, the refund kept as a revocation, no 2.4), or paid and
 * then refunded (one 2.4, one 2.5), with the store message log saying which. PostgreSQL runs them truly at once.
 */
const ROUNDS = testBackend() === 'postgres' ? 200 : 20;
const AT_ONCE = 10;

/**
 * The refund leaves 0 to 60 ms after the submission (at random), so that over the rounds each wins sometimes: a
 * submission does more work (the order, the store's proof, Google's API) before it reaches the database.
 */
async function refundAfterAWhile<T>(send: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, crypto.randomInt(60)));
  return send();
}

interface Round {
  trxNo: number;
  submitted: { status: number; body: any };
  refund: { status: number; body: any };
  /** The notification's own id (Apple notificationUUID, Pub/Sub messageId). */
  notificationId: string;
}

async function assertRounds(w: StoreWorld, rounds: Round[]): Promise<{ paid: number; refused: number }> {
  const db = w.svc.services.database.db;
  const told = await gameNotifications(w.svc, w.app.appId);
  const messages = await db.selectFrom('store_messages').selectAll().where('app_id', '=', w.app.appId).execute();
  let paid = 0;
  for (const r of rounds) {
    const what = `order ${r.trxNo}: ${JSON.stringify([r.submitted, r.refund])}`;
    const push = messages.filter((m) => m.notification_id === r.notificationId);
    const client = messages.filter((m) => m.source === 'client' && Number(m.trx_no) === r.trxNo);
    const order = await db.selectFrom('orders').select('status').where('trx_no', '=', r.trxNo).executeTakeFirst();
    assert.equal(r.refund.status, 200, what);
    assert.equal(push.length, 1, what);
    if (r.submitted.status === 200) {
      paid += 1;
      assert.deepEqual(r.refund.body.data, { outcome: 'applied', reason: null }, what);
      assert.deepEqual([push[0]!.outcome, push[0]!.error_code, Number(push[0]!.trx_no)], ['applied', null, r.trxNo]);
      assert.equal(client.length, 0, what);
      assert.equal(told.payments.get(r.trxNo) ?? 0, 1, `one 2.4: ${what}`);
      assert.equal(told.refunds.get(r.trxNo) ?? 0, 1, `one 2.5: ${what}`);
      const refund = await db.selectFrom('orders').select('trx_no').where('original_trx_no', '=', r.trxNo).execute();
      assert.equal(refund.length, 1, what);
    } else {
      assert.deepEqual([r.submitted.status, r.submitted.body.data?.storeError], [400, 'revoked'], what);
      assert.deepEqual(r.refund.body.data, { outcome: 'applied', reason: 'revoked_before_submission' }, what);
      assert.deepEqual(
        [push[0]!.outcome, push[0]!.error_code, push[0]!.trx_no],
        ['applied', 'revoked_before_submission', null],
      );
      assert.deepEqual(
        client.map((m) => [m.outcome, m.error_code]),
        [['refused', 'revoked']],
        what,
      );
      assert.equal(order?.status, 2, `still awaiting payment: ${what}`);
      assert.equal(told.payments.get(r.trxNo) ?? 0, 0, `no 2.4: ${what}`);
      assert.equal(told.refunds.get(r.trxNo) ?? 0, 0, `no 2.5: ${what}`);
    }
  }
  return { paid, refused: rounds.length - paid };
}

describe('App Store: a submission racing its REFUND notification', () => {
  let w: StoreWorld;
  let chain: AppleTestChain;
  let api: AppleApiServer;

  before(async () => {
    ({ w, chain, api } = await startAppleWorld());
  });
  after(async () => {
    await w.close();
    await api.close();
  });

  it(`${ROUNDS} rounds: refused as revoked, or paid then refunded (one 2.4, one 2.5), never paid alone`, async (t) => {
    const rounds = await inBatches(ROUNDS, AT_ONCE, async () => {
      const { order } = await placeStoreOrder(w, 1);
      const id = txId();
      const tx = await signApple(chain, transactionPayload({ productId: APPLE_SKU, transactionId: id }));
      const signedPayload = await signApple(chain, notificationPayload('REFUND', tx));
      const [submitted, refund] = await Promise.all([
        submit(w, order.trxNo, 'apple-transactions', { signedTransactions: [tx] }),
        refundAfterAWhile(() => notify(w, 'apple', { signedPayload })),
      ]);
      const notificationId = String((decodeJwt(signedPayload) as { notificationUUID: string }).notificationUUID);
      return { trxNo: order.trxNo, submitted, refund, notificationId };
    });
    const { paid, refused } = await assertRounds(w, rounds);
    assert.equal(paid + refused, ROUNDS);
    t.diagnostic(`paid then refunded: ${paid}, refused as revoked: ${refused}`);
  });
});

describe('Google Play: a submission racing its voidedPurchaseNotification', () => {
  let w: StoreWorld;
  let google: GoogleServer;

  before(async () => {
    ({ w, google } = await startGoogleWorld());
  });
  after(() => w.close());

  it(`${ROUNDS} rounds: refused as revoked, or paid then refunded (one 2.4, one 2.5), never paid alone`, async (t) => {
    const rounds = await inBatches(ROUNDS, AT_ONCE, async () => {
      const { order } = await placeStoreOrder(w, 2);
      const tok = `tok-${crypto.randomUUID()}`;
      const p = purchase();
      google.purchases.set(`${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`, p);
      const notificationId = String(crypto.randomInt(1e12));
      const voided = pushBody(
        {
          version: '1.0',
          packageName: TEST_PACKAGE,
          eventTimeMillis: String(Date.now()),
          voidedPurchaseNotification: { purchaseToken: tok, orderId: p.orderId, productType: 2, refundType: 1 },
        },
        notificationId,
      );
      const authorization = `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER })}`;
      const [submitted, refund] = await Promise.all([
        submit(w, order.trxNo, 'google-purchases', {
          packageName: TEST_PACKAGE,
          productId: GOOGLE_SKU,
          purchaseToken: tok,
        }),
        refundAfterAWhile(() => notify(w, 'google', voided, { authorization })),
      ]);
      return { trxNo: order.trxNo, submitted, refund, notificationId };
    });
    const { paid, refused } = await assertRounds(w, rounds);
    assert.equal(paid + refused, ROUNDS);
    t.diagnostic(`paid then refunded: ${paid}, refused as revoked: ${refused}`);
  });
});
