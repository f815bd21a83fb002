import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_PACKAGE, purchase, pushBody, type GoogleServer } from '../testing/google-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { details } from '../testing/orders/orders.js';
import {
  AUDIENCE,
  GOOGLE_SKU,
  PUSHER,
  notify,
  paymentCounts,
  placeStoreOrder,
  startGoogleWorld,
  storeMessages,
  refused,
  submit,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

describe('Google Play: what is refused pays and refunds nothing', () => {
  let w: StoreWorld;
  let google: GoogleServer;
  const bought = (over = {}) => {
    const tok = `tok-${Math.random().toString(36).slice(2)}`;
    const p = purchase(over);
    google.purchases.set(`${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`, p);
    return { tok, p };
  };
  const body = (tok: string, over = {}) => ({
    packageName: TEST_PACKAGE,
    productId: GOOGLE_SKU,
    purchaseToken: tok,
    ...over,
  });

  before(async () => {
    ({ w, google } = await startGoogleWorld());
  });
  after(() => w.close());

  it('refuses pending and cancelled purchases, another package or product, an unknown token, a used token', async () => {
    const { order } = await placeStoreOrder(w, 2);
    const before = await paymentCounts(w);
    refused(
      await submit(w, order.trxNo, 'google-purchases', body(bought({ purchaseState: 2 }).tok)),
      400,
      40030,
      'purchase_pending',
    );
    refused(
      await submit(w, order.trxNo, 'google-purchases', body(bought({ purchaseState: 1 }).tok)),
      400,
      40030,
      'purchase_cancelled',
    );
    refused(
      await submit(w, order.trxNo, 'google-purchases', body(bought().tok, { packageName: 'com.other.game' })),
      400,
      40030,
      'wrong_package',
    );
    refused(
      await submit(w, order.trxNo, 'google-purchases', body(bought().tok, { productId: 'gems_500' })),
      400,
      40030,
      'wrong_product',
    );
    refused(await submit(w, order.trxNo, 'google-purchases', body('no-such-token')), 400, 40030, 'not_found');
    refused(
      await submit(w, order.trxNo, 'google-purchases', body(bought({ quantity: 2 }).tok)),
      400,
      40030,
      'wrong_quantity',
    );
    assert.deepEqual(await paymentCounts(w), before);
    const { tok, p } = bought();
    assert.equal((await submit(w, order.trxNo, 'google-purchases', body(tok))).status, 200);
    const other = (await placeStoreOrder(w, 2)).order;
    const used = await submit(w, other.trxNo, 'google-purchases', body(tok));
    refused(used, 409, 40930);
    assert.equal(used.body.data.trxNo, order.trxNo);
    assert.equal((await details(w.svc, other.trxNo)).order.status, 2);
    assert.ok(p.acknowledgementState === 1);
  });

  it('refuses a push with a wrong audience, another signer or no token (401), another package (400), and records them', async () => {
    const { order } = await placeStoreOrder(w, 2);
    const { tok, p } = bought();
    assert.equal((await submit(w, order.trxNo, 'google-purchases', body(tok))).status, 200);
    const before = await paymentCounts(w);
    const msg = (pkg = TEST_PACKAGE) =>
      pushBody({
        version: '1.0',
        packageName: pkg,
        eventTimeMillis: String(Date.now()),
        voidedPurchaseNotification: { purchaseToken: tok, orderId: p.orderId, productType: 2, refundType: 1 },
      });
    const auth = async (claims: Record<string, unknown>, signer: 'google' | 'other' = 'google') => ({
      authorization: `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER, ...claims }, signer)}`,
    });
    refused(
      await notify(w, 'google', msg(), await auth({ aud: 'https://evil.example' })),
      401,
      40131,
      'wrong_audience',
    );
    refused(
      await notify(w, 'google', msg(), await auth({ email: 'x@evil.iam.gserviceaccount.com' })),
      401,
      40131,
      'wrong_service_account',
    );
    refused(await notify(w, 'google', msg(), await auth({}, 'other')), 400, 40031, 'bad_signature');
    refused(await notify(w, 'google', msg()), 401, 40131, 'missing_token');
    refused(await notify(w, 'google', msg('com.other.game'), await auth({})), 400, 40031, 'wrong_package');
    assert.deepEqual(await paymentCounts(w), before);
    assert.equal((await details(w.svc, order.trxNo)).refund, null);
    const recorded = await storeMessages(w, '?store=google&outcome=refused');
    assert.deepEqual(
      recorded.map((m) => [m.source, m.errorCode, m.notificationId]),
      ['wrong_package', 'missing_token', 'bad_signature', 'wrong_service_account', 'wrong_audience'].map((c) => [
        'push',
        c,
        null,
      ]),
    );
    assert.ok(
      recorded.every((m) => !String(m.excerpt).includes('Bearer')),
      'no token in the record',
    );
  });
});
