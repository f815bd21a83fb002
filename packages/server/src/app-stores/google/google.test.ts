import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  TEST_PACKAGE,
  makeServiceAccount,
  purchase,
  pushBody,
  startGoogle,
  type GoogleServer,
} from '../../testing/google-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../../testing/no-network.js';
import { StoreVerificationError, type StoreErrorCode } from '../errors.js';
import { GooglePublisher } from './publisher.js';
import { GooglePushVerifier } from './push.js';

async function refused(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof StoreVerificationError, `expected a StoreVerificationError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

const PRODUCT = 'gems_100';

// Nothing may leave loopback: the libraries' own hosts (API, token, certificates, OCSP) must all be overridden.
failIfAnyTestReachesTheNetwork();

describe('Google Play: Android Publisher API through a service account, on loopback', () => {
  const account = makeServiceAccount();
  let google: GoogleServer;
  let publisher: GooglePublisher;
  before(async () => {
    google = await startGoogle(account);
    publisher = new GooglePublisher({
      packageName: TEST_PACKAGE,
      serviceAccount: JSON.stringify(account),
      tokenUrl: google.tokenUrl,
      rootUrl: google.url,
    });
  });
  after(() => google.close());

  it('signs in with the service account and normalizes a paid purchase', async () => {
    const p = purchase({ regionCode: 'DE', quantity: 2, obfuscatedExternalAccountId: 'acct-42' });
    google.purchases.set(`${TEST_PACKAGE}/${PRODUCT}/tok-paid`, p);
    const got = await publisher.verifyPurchase(PRODUCT, 'tok-paid');
    assert.deepEqual(got, {
      store: 'google',
      transactionId: p.orderId,
      originalTransactionId: 'tok-paid',
      productId: PRODUCT,
      appIdentifier: TEST_PACKAGE,
      environment: 'Production',
      state: 'purchased',
      region: 'DE',
      purchaseDate: new Date(Number(p.purchaseTimeMillis)),
      quantity: 2,
      acknowledged: false,
      consumptionState: 0,
      purchaseToken: 'tok-paid',
      accountToken: 'acct-42',
    });
    assert.equal(google.tokensIssued, 1, 'one access token from the JWT-bearer grant');
    const call = google.requests.find((r) => r.path.endsWith('/tokens/tok-paid'));
    assert.deepEqual([call?.method, call?.authorized], ['GET', true]);
    assert.equal(
      call?.path,
      `/androidpublisher/v3/applications/${TEST_PACKAGE}/purchases/products/${PRODUCT}/tokens/tok-paid`,
    );
  });

  it('a test purchase is Sandbox; acknowledge flips acknowledgementState', async () => {
    google.purchases.set(`${TEST_PACKAGE}/${PRODUCT}/tok-test`, purchase({ purchaseType: 0 }));
    assert.equal((await publisher.verifyPurchase(PRODUCT, 'tok-test')).environment, 'Sandbox');
    await publisher.acknowledge(PRODUCT, 'tok-test', 'order-1');
    const after = await publisher.getPurchase(PRODUCT, 'tok-test');
    assert.equal(after.acknowledged, true);
    assert.equal(google.purchases.get(`${TEST_PACKAGE}/${PRODUCT}/tok-test`)?.developerPayload, 'order-1');
  });

  it('refuses a pending purchase and a cancelled one: only purchased pays', async () => {
    google.purchases.set(`${TEST_PACKAGE}/${PRODUCT}/tok-pending`, purchase({ purchaseState: 2 }));
    google.purchases.set(`${TEST_PACKAGE}/${PRODUCT}/tok-cancelled`, purchase({ purchaseState: 1 }));
    await refused(publisher.verifyPurchase(PRODUCT, 'tok-pending'), 'purchase_pending');
    await refused(publisher.verifyPurchase(PRODUCT, 'tok-cancelled'), 'purchase_cancelled');
    assert.equal((await publisher.getPurchase(PRODUCT, 'tok-pending')).state, 'pending');
  });

  it('refuses a token of another package or product, and an unknown token', async () => {
    google.purchases.set(`com.other.game/${PRODUCT}/tok-other`, purchase());
    await refused(publisher.verifyPurchase(PRODUCT, 'tok-other'), 'not_found');
    await refused(publisher.verifyPurchase('gems_500', 'tok-paid'), 'not_found');
    await refused(publisher.verifyPurchase(PRODUCT, 'no-such-token'), 'not_found');
  });

  it('lists voided purchases over every page', async () => {
    const now = Date.now();
    for (let i = 0; i < 5; i++)
      google.voided.push({
        kind: 'androidpublisher#voidedPurchase',
        purchaseToken: `void-${i}`,
        purchaseTimeMillis: String(now - 86_400_000),
        voidedTimeMillis: String(now - 1000 + i),
        orderId: `GPA.0000-0000-0000-0000${i}`,
        voidedSource: 2,
        voidedReason: 7,
      });
    google.pageSize = 2;
    const voided = await publisher.voidedPurchases(new Date(now - 3_600_000));
    assert.deepEqual(
      voided.map((v) => [v.transactionId, v.purchaseToken, v.reason, v.source]),
      [0, 1, 2, 3, 4].map((i) => [`GPA.0000-0000-0000-0000${i}`, `void-${i}`, 7, 2]),
    );
    const calls = google.requests.filter((r) => r.path.endsWith('/voidedpurchases'));
    assert.deepEqual(
      calls.map((c) => c.query.token),
      [undefined, '2', '4'],
    );
  });

  it('a service account whose key Google does not know cannot sign in', async () => {
    const stranger = { ...makeServiceAccount(), client_email: account.client_email };
    const other = new GooglePublisher({
      packageName: TEST_PACKAGE,
      serviceAccount: stranger,
      tokenUrl: google.tokenUrl,
      rootUrl: google.url,
    });
    await refused(other.getPurchase(PRODUCT, 'tok-paid'), 'store_auth_failed');
  });
});

describe('Google Play: Pub/Sub push of real-time developer notifications', () => {
  const account = makeServiceAccount();
  const AUDIENCE = 'https://pay.example.com/notify/v1/google/app-1';
  const PUSHER = 'pubsub-push@test-project.iam.gserviceaccount.com';
  let google: GoogleServer;
  let verifier: GooglePushVerifier;
  before(async () => {
    google = await startGoogle(account);
    verifier = new GooglePushVerifier({
      audience: AUDIENCE,
      serviceAccountEmail: PUSHER,
      packageName: TEST_PACKAGE,
      certsUrl: google.certsUrl,
    });
  });
  after(() => google.close());

  const notification = (member: object) => ({
    version: '1.0',
    packageName: TEST_PACKAGE,
    eventTimeMillis: String(Date.now()),
    ...member,
  });

  it('verifies the OIDC token and decodes a voided purchase, keyed by the Pub/Sub messageId', async () => {
    const token = await google.pushToken({ aud: AUDIENCE, email: PUSHER });
    const body = pushBody(
      notification({
        voidedPurchaseNotification: { purchaseToken: 'tok-1', orderId: 'GPA.1', productType: 2, refundType: 1 },
      }),
      '4242424242',
    );
    const n = await verifier.verify(`Bearer ${token}`, body);
    assert.equal(n.notificationId, '4242424242');
    assert.equal(n.type, 'REFUND');
    assert.equal(n.rawType, 'voidedPurchaseNotification');
    assert.deepEqual([n.purchaseToken, n.orderId, n.productType, n.refundType], ['tok-1', 'GPA.1', 2, 1]);
    assert.equal(n.appIdentifier, TEST_PACKAGE);
    assert.ok(google.requests.some((r) => r.path === '/oauth2/v1/certs'));
  });

  it('decodes one-time product and test notifications', async () => {
    const token = await google.pushToken({ aud: AUDIENCE, email: PUSHER });
    const bought = await verifier.verify(
      `Bearer ${token}`,
      pushBody(
        notification({
          oneTimeProductNotification: { version: '1.0', notificationType: 1, purchaseToken: 'tok-2', sku: PRODUCT },
        }),
      ),
    );
    assert.deepEqual(
      [bought.type, bought.purchaseToken, bought.productId],
      ['ONE_TIME_PRODUCT_PURCHASED', 'tok-2', PRODUCT],
    );
    const cancelled = await verifier.verify(
      `Bearer ${token}`,
      pushBody(
        notification({ oneTimeProductNotification: { notificationType: 2, purchaseToken: 'tok-2', sku: PRODUCT } }),
      ),
    );
    assert.equal(cancelled.type, 'ONE_TIME_PRODUCT_CANCELED');
    const test = await verifier.verify(
      `Bearer ${token}`,
      pushBody(notification({ testNotification: { version: '1.0' } })),
    );
    assert.equal(test.type, 'TEST');
  });

  it('refuses a wrong audience, another service account, an unverified email, a foreign signer, an expired token', async () => {
    const body = pushBody(notification({ testNotification: {} }));
    await refused(
      verifier.verify(`Bearer ${await google.pushToken({ aud: 'https://evil.example', email: PUSHER })}`, body),
      'wrong_audience',
    );
    await refused(
      verifier.verify(
        `Bearer ${await google.pushToken({ aud: AUDIENCE, email: 'someone@evil.iam.gserviceaccount.com' })}`,
        body,
      ),
      'wrong_service_account',
    );
    await refused(
      verifier.verify(
        `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER, email_verified: false })}`,
        body,
      ),
      'wrong_service_account',
    );
    await refused(
      verifier.verify(`Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER }, 'other')}`, body),
      'bad_signature',
    );
    await refused(
      verifier.verify(
        `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER, iss: 'https://evil.example' })}`,
        body,
      ),
      'wrong_issuer',
    );
    const past = Math.floor(Date.now() / 1000) - 7200;
    await refused(
      verifier.verify(
        `Bearer ${await google.pushToken({ aud: AUDIENCE, email: PUSHER, iat: past, exp: past + 3600 })}`,
        body,
      ),
      'expired',
    );
    await refused(verifier.verify(undefined, body), 'missing_token');
    await refused(verifier.verify('Bearer not.a.jwt', body), 'malformed');
  });

  it("refuses a forged token body, another package's notification and a body that is not a push", async () => {
    const token = await google.pushToken({ aud: AUDIENCE, email: PUSHER });
    const [h, , s] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        aud: AUDIENCE,
        email: PUSHER,
        email_verified: true,
        iss: 'https://accounts.google.com',
        iat: 1,
        exp: 2,
      }),
    ).toString('base64url');
    await refused(
      verifier.verify(`Bearer ${h}.${forged}.${s}`, pushBody(notification({ testNotification: {} }))),
      'bad_signature',
    );
    await refused(
      verifier.verify(
        `Bearer ${token}`,
        pushBody({ ...notification({ testNotification: {} }), packageName: 'com.other' }),
      ),
      'wrong_package',
    );
    await refused(verifier.verify(`Bearer ${token}`, { message: { data: '!!' } }), 'malformed');
    await refused(
      verifier.verify(`Bearer ${token}`, { message: { data: Buffer.from('[]').toString('base64'), messageId: '1' } }),
      'malformed',
    );
  });
});
