import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { decodeJwt } from 'jose';
import {
  TEST_APP_APPLE_ID,
  TEST_BUNDLE_ID,
  makeApiKey,
  makeAppleChain,
  notificationPayload,
  signApple,
  startAppleApi,
  transactionPayload,
  type AppleApiServer,
  type AppleApiKey,
  type AppleTestChain,
} from '../../testing/apple-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../../testing/no-network.js';
import { StoreVerificationError, type StoreErrorCode } from '../errors.js';
import { AppleStoreApi, createAppleApiClient } from './api.js';
import { appleRootCertificates } from './roots.js';
import { AppleVerifier, milliunitsToMinor } from './verify.js';

async function refused(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof StoreVerificationError, `expected a StoreVerificationError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

// Nothing may leave loopback: the libraries' own hosts (API, token, certificates, OCSP) must all be overridden.
failIfAnyTestReachesTheNetwork();

describe('Apple: SignedDataVerifier with a test chain', () => {
  let chain: AppleTestChain;
  let verifier: AppleVerifier;
  before(async () => {
    chain = await makeAppleChain();
    verifier = new AppleVerifier({
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificates: [chain.root],
      enableOnlineChecks: false,
    });
  });

  it('ships Apple Root CA - G3 as the default root', () => {
    const [g3] = appleRootCertificates().map((c) => new X509Certificate(c));
    assert.match(g3!.subject, /CN=Apple Root CA - G3/);
    assert.equal(
      g3!.fingerprint256,
      '63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79',
    );
    // A payload signed by the test chain does not verify against Apple's real root.
    const real = new AppleVerifier({ bundleId: TEST_BUNDLE_ID, environment: 'Sandbox', enableOnlineChecks: false });
    return refused(
      signApple(chain, transactionPayload()).then((jws) => real.verifyTransaction(jws)),
      'untrusted_chain',
    );
  });

  it('verifies a StoreKit 2 transaction and normalizes it', async () => {
    const payload = transactionPayload({ appAccountToken: '7e3fb20b-4cdb-47cc-936d-99d65f608138' });
    const purchase = await verifier.verifyTransaction(await signApple(chain, payload));
    assert.deepEqual(purchase, {
      store: 'apple',
      transactionId: '2000000812345678',
      originalTransactionId: '2000000812345678',
      productId: 'com.example.game.gems100',
      appIdentifier: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      state: 'purchased',
      priceMinor: 199,
      currency: 'EUR',
      region: 'FR',
      purchaseDate: new Date(payload.purchaseDate as number),
      quantity: 1,
      accountToken: '7e3fb20b-4cdb-47cc-936d-99d65f608138',
    });
  });

  it('converts milliunits to ISO 4217 minor units and refuses what does not divide', () => {
    assert.equal(milliunitsToMinor(990, 'USD'), 99);
    assert.equal(milliunitsToMinor(120000, 'JPY'), 120);
    assert.equal(milliunitsToMinor(1250, 'KWD'), 1250);
    assert.equal(milliunitsToMinor(1000, 'CLF'), 10000);
    assert.throws(() => milliunitsToMinor(120500, 'JPY'), /not a whole number of JPY/);
    assert.throws(() => milliunitsToMinor(990, 'XXX'), /unknown currency/);
  });

  it('refuses a forged payload (body changed after signing)', async () => {
    const jws = await signApple(chain, transactionPayload());
    const [h, , s] = jws.split('.');
    const forged = Buffer.from(JSON.stringify(transactionPayload({ price: 1 }))).toString('base64url');
    await refused(verifier.verifyTransaction(`${h}.${forged}.${s}`), 'bad_signature');
  });

  it("refuses a payload re-signed with another key under Apple's certificates", async () => {
    const other = await makeAppleChain();
    await refused(
      verifier.verifyTransaction(await signApple(chain, transactionPayload(), other.leafKey)),
      'bad_signature',
    );
  });

  it('refuses a chain to another root, and a chain without the Apple markers', async () => {
    const foreign = await makeAppleChain({ name: 'Attacker' });
    await refused(verifier.verifyTransaction(await signApple(foreign, transactionPayload())), 'untrusted_chain');
    const plain = await makeAppleChain({ markers: false });
    const unmarked = new AppleVerifier({
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificates: [plain.root],
      enableOnlineChecks: false,
    });
    await refused(unmarked.verifyTransaction(await signApple(plain, transactionPayload())), 'untrusted_chain');
  });

  it('refuses certificates outside their validity at the signing date', async () => {
    const old = await makeAppleChain({ notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') });
    const v = new AppleVerifier({
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificates: [old.root],
      enableOnlineChecks: false,
    });
    await refused(v.verifyTransaction(await signApple(old, transactionPayload())), 'invalid_certificate');
  });

  it('refuses another bundle id, another environment, and malformed input', async () => {
    await refused(
      verifier.verifyTransaction(await signApple(chain, transactionPayload({ bundleId: 'com.other.app' }))),
      'wrong_bundle_id',
    );
    await refused(
      verifier.verifyTransaction(await signApple(chain, transactionPayload({ environment: 'Production' }))),
      'wrong_environment',
    );
    await refused(verifier.verifyTransaction('not-a-jws'), 'malformed');
    await refused(
      verifier.verifyTransaction(await signApple(chain, transactionPayload({ quantity: 'one' }))),
      'malformed',
    );
    assert.throws(
      () =>
        new AppleVerifier({ bundleId: TEST_BUNDLE_ID, environment: 'Xcode' as never, rootCertificates: [chain.root] }),
      /Production or Sandbox/,
    );
    assert.throws(
      () => new AppleVerifier({ bundleId: TEST_BUNDLE_ID, environment: 'Production', rootCertificates: [chain.root] }),
      /appAppleId is required/,
    );
  });

  it('verifies a REFUND notification and its transaction, exposing the UUID for deduplication', async () => {
    const refundedAt = Date.now() - 1000;
    const tx = await signApple(chain, transactionPayload({ revocationDate: refundedAt, revocationReason: 0 }));
    const payload = notificationPayload('REFUND', tx);
    const n = await verifier.verifyNotification(await signApple(chain, payload));
    assert.equal(n.notificationId, payload.notificationUUID);
    assert.equal(n.type, 'REFUND');
    assert.equal(n.rawType, 'REFUND');
    assert.equal(n.environment, 'Sandbox');
    assert.equal(n.appIdentifier, TEST_BUNDLE_ID);
    assert.equal(n.transaction?.transactionId, '2000000812345678');
    assert.deepEqual(n.transaction?.revocationDate, new Date(refundedAt));
    assert.equal(n.transaction?.revocationReason, 0);

    for (const type of ['REFUND_REVERSED', 'REFUND_DECLINED', 'CONSUMPTION_REQUEST']) {
      const m = await verifier.verifyNotification(await signApple(chain, notificationPayload(type, tx)));
      assert.equal(m.type, type);
    }
    const test = await verifier.verifyNotification(await signApple(chain, notificationPayload('TEST', undefined)));
    assert.equal(test.type, 'TEST');
    assert.equal(test.transaction, undefined);
    const renewal = await verifier.verifyNotification(
      await signApple(chain, notificationPayload('DID_RENEW', tx, { subtype: 'BILLING_RECOVERY' })),
    );
    assert.deepEqual([renewal.type, renewal.rawType, renewal.subtype], ['other', 'DID_RENEW', 'BILLING_RECOVERY']);
  });

  it('refuses notifications for another app, app Apple id or environment, and forged ones', async () => {
    const tx = await signApple(chain, transactionPayload());
    await refused(
      verifier.verifyNotification(
        await signApple(chain, notificationPayload('REFUND', tx, {}, { bundleId: 'com.other' })),
      ),
      'wrong_bundle_id',
    );
    await refused(
      verifier.verifyNotification(
        await signApple(chain, notificationPayload('REFUND', tx, {}, { environment: 'Production' })),
      ),
      'wrong_environment',
    );
    const production = new AppleVerifier({
      bundleId: TEST_BUNDLE_ID,
      appAppleId: TEST_APP_APPLE_ID,
      environment: 'Production',
      rootCertificates: [chain.root],
      enableOnlineChecks: false,
    });
    await refused(
      production.verifyNotification(
        await signApple(
          chain,
          notificationPayload('REFUND', undefined, {}, { environment: 'Production', appAppleId: 1 }),
        ),
      ),
      'wrong_app_apple_id',
    );
    const ok = await production.verifyNotification(
      await signApple(chain, notificationPayload('TEST', undefined, {}, { environment: 'Production' })),
    );
    assert.equal(ok.environment, 'Production');
    // The outer payload is valid but the transaction inside it was forged.
    const [h, , s] = tx.split('.');
    const forgedTx = `${h}.${Buffer.from(JSON.stringify(transactionPayload({ productId: 'x' }))).toString('base64url')}.${s}`;
    await refused(
      verifier.verifyNotification(await signApple(chain, notificationPayload('REFUND', forgedTx))),
      'bad_signature',
    );
    // A foreign chain signing the outer payload.
    const foreign = await makeAppleChain({ name: 'Attacker' });
    await refused(
      verifier.verifyNotification(await signApple(foreign, notificationPayload('REFUND', tx))),
      'untrusted_chain',
    );
  });
});

describe('Apple: App Store Server API client against a loopback server', () => {
  let chain: AppleTestChain;
  let key: AppleApiKey;
  let server: AppleApiServer;
  let api: AppleStoreApi;
  before(async () => {
    chain = await makeAppleChain();
    key = await makeApiKey();
    server = await startAppleApi(key);
    const verifier = new AppleVerifier({
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificates: [chain.root],
      enableOnlineChecks: false,
    });
    const client = createAppleApiClient({
      issuerId: key.issuerId,
      keyId: key.keyId,
      privateKey: key.privateKeyPem,
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      baseUrl: server.url,
    });
    api = new AppleStoreApi(client, verifier);
  });
  after(() => server.close());

  it('looks up refunds over every page, verified and normalized', async () => {
    server.pageSize = 2;
    const refunded = await Promise.all(
      [1, 2, 3].map((i) =>
        signApple(
          chain,
          transactionPayload({
            transactionId: `20000008000000${i}`,
            revocationDate: 1_700_000_000_000 + i,
            revocationReason: 1,
          }),
        ),
      ),
    );
    server.refunds.set('2000000812345678', refunded);
    const refunds = await api.refundHistory('2000000812345678');
    assert.deepEqual(
      refunds.map((r) => [r.transactionId, r.refundDate.getTime(), r.reason]),
      [
        ['200000080000001', 1_700_000_000_001, 1],
        ['200000080000002', 1_700_000_000_002, 1],
        ['200000080000003', 1_700_000_000_003, 1],
      ],
    );
    const calls = server.requests.filter((r) => r.path.startsWith('/inApps/v2/refund/lookup/'));
    assert.equal(calls.length, 2);
    assert.ok(calls.every((c) => c.authorized));
    await assert.rejects(
      api.refundHistory('404'),
      (e: unknown) => e instanceof StoreVerificationError && e.code === 'not_found',
    );
  });

  it('lists notification history, each payload verified', async () => {
    server.pageSize = 1;
    const tx = await signApple(chain, transactionPayload());
    const sent = [notificationPayload('REFUND', tx), notificationPayload('CONSUMPTION_REQUEST', tx)];
    server.notifications.push(...(await Promise.all(sent.map((p) => signApple(chain, p)))));
    const history = await api.notificationHistory(new Date(Date.now() - 86_400_000), new Date());
    assert.deepEqual(
      history.map((n) => [n.notificationId, n.type]),
      sent.map((p) => [p.notificationUUID, p.notificationType]),
    );
    const body = server.requests.find((r) => r.path === '/inApps/v1/notifications/history')?.body as {
      startDate: number;
    };
    assert.equal(typeof body.startDate, 'number');
  });

  it('signs its bearer JWT with the in-app purchase key, and a wrong key is refused', async () => {
    const wrong = await makeApiKey();
    const client = createAppleApiClient({
      issuerId: key.issuerId,
      keyId: key.keyId,
      privateKey: wrong.privateKeyPem,
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      baseUrl: server.url,
    });
    const verifier = new AppleVerifier({
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificates: [chain.root],
      enableOnlineChecks: false,
    });
    await assert.rejects(
      new AppleStoreApi(client, verifier).refundHistory('2000000812345678'),
      (e: unknown) => e instanceof StoreVerificationError && e.code === 'store_auth_failed',
    );
    assert.equal(server.requests.at(-1)?.authorized, false);
    assert.equal(decodeJwt(await signApple(chain, { a: 1 })).a, 1);
  });
});
