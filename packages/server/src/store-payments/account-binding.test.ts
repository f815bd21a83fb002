import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { storeAccountToken } from '@game-platform/sdk';
import {
  TEST_BUNDLE_ID,
  makeAppleChain,
  signApple,
  transactionPayload,
  type AppleTestChain,
} from '../testing/apple-fixture.js';
import { TEST_PACKAGE, purchase, type GoogleServer } from '../testing/google-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { guestLogin } from '../testing/accounts/accounts.js';
import {
  APPLE_SKU,
  GOOGLE_SKU,
  paymentCounts,
  placeStoreOrder,
  refused,
  startGoogleWorld,
  startStoreWorld,
  storeMessages,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

async function setBinding(w: StoreWorld, accountBinding: string): Promise<void> {
  const res = await w.svc.admin('PUT', `/apps/${w.app.appId}/order-settings`, { accountBinding });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.accountBinding, accountBinding);
}

/** Issue 27: a purchase pays only an order of the player its account token names. */
describe('App Store: purchases bound to their buyer', () => {
  let w: StoreWorld;
  let chain: AppleTestChain;
  let otherPlayer: string;
  const signTx = (over: Record<string, unknown> = {}) =>
    signApple(chain, transactionPayload({ productId: APPLE_SKU, transactionId: txId(), ...over }));
  const pay = async (trxNo: number, over: Record<string, unknown>) =>
    submit(w, trxNo, 'apple-transactions', { signedTransactions: [await signTx(over)] });

  before(async () => {
    chain = await makeAppleChain();
    w = await startStoreWorld({ APPLE_ONLINE_CHECKS: 'false' });
    const put = await w.svc.admin('PUT', `/apps/${w.app.appId}/store-settings/apple`, {
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificatesPem: new crypto.X509Certificate(chain.root).toString(),
    });
    assert.equal(put.status, 200);
    otherPlayer = (await guestLogin(w.svc, w.app.clientId)).userId;
  });
  after(() => w.close());

  it("placing the order answers the player's appAccountToken, the same for each of the player's orders", async () => {
    const first = await placeStoreOrder(w, 1);
    const second = await placeStoreOrder(w, 1);
    const token = storeAccountToken(w.app.appId, w.login.userId);
    assert.match(token, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(first.paymentStep.appAccountToken, token);
    assert.equal(first.payment.appAccountToken, token);
    assert.equal(second.paymentStep.appAccountToken, token);
    assert.equal(first.paymentStep.obfuscatedAccountId, undefined);
    assert.notEqual(storeAccountToken(w.app.appId, otherPlayer), token);
  });

  it("when_present (default): another player's token is refused, the player's own and none pay", async () => {
    const { order } = await placeStoreOrder(w, 1);
    const counts = await paymentCounts(w);
    const foreign = storeAccountToken(w.app.appId, otherPlayer);
    refused(await pay(order.trxNo, { appAccountToken: foreign }), 400, 40030, 'wrong_account');
    assert.deepEqual(await paymentCounts(w), counts);
    const [m] = await storeMessages(w, '?outcome=refused');
    assert.deepEqual([m.source, m.errorCode, m.trxNo], ['client', 'wrong_account', order.trxNo]);
    const own = storeAccountToken(w.app.appId, w.login.userId);
    assert.equal((await pay(order.trxNo, { appAccountToken: own.toUpperCase() })).status, 200);
    const unbound = (await placeStoreOrder(w, 1)).order;
    assert.equal((await pay(unbound.trxNo, {})).status, 200);
  });

  it('required: an unbound transaction and a foreign one are refused; off checks nothing', async () => {
    await setBinding(w, 'required');
    const { order } = await placeStoreOrder(w, 1);
    refused(await pay(order.trxNo, {}), 400, 40030, 'wrong_account');
    const foreign = storeAccountToken(w.app.appId, otherPlayer);
    refused(await pay(order.trxNo, { appAccountToken: foreign }), 400, 40030, 'wrong_account');
    // A token of the same user id in another app is not this app's.
    refused(
      await pay(order.trxNo, { appAccountToken: storeAccountToken(w.app.appId + 1, w.login.userId) }),
      400,
      40030,
      'wrong_account',
    );
    const ok = await pay(order.trxNo, { appAccountToken: storeAccountToken(w.app.appId, w.login.userId) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    await setBinding(w, 'off');
    const next = (await placeStoreOrder(w, 1)).order;
    assert.equal((await pay(next.trxNo, { appAccountToken: foreign })).status, 200);
    await setBinding(w, 'when_present');
  });

  it('the setting refuses values other than required, when_present, off', async () => {
    for (const accountBinding of ['REQUIRED', 'on', '', 1, null, 'off\u0000'])
      assert.equal(
        (await w.svc.admin('PUT', `/apps/${w.app.appId}/order-settings`, { accountBinding })).status,
        400,
        JSON.stringify(accountBinding),
      );
  });
});

describe('Google Play: purchases bound to their buyer', () => {
  let w: StoreWorld;
  let google: GoogleServer;
  let otherPlayer: string;
  const pay = (trxNo: number, accountId?: string) => {
    const tok = `tok-${crypto.randomUUID()}`;
    google.purchases.set(
      `${TEST_PACKAGE}/${GOOGLE_SKU}/${tok}`,
      purchase(accountId === undefined ? {} : { obfuscatedExternalAccountId: accountId }),
    );
    return submit(w, trxNo, 'google-purchases', {
      packageName: TEST_PACKAGE,
      productId: GOOGLE_SKU,
      purchaseToken: tok,
    });
  };

  before(async () => {
    ({ w, google } = await startGoogleWorld());
    otherPlayer = (await guestLogin(w.svc, w.app.clientId)).userId;
  });
  after(() => w.close());

  it('answers obfuscatedAccountId; refuses a foreign token (when_present) and none (required)', async () => {
    const placed = await placeStoreOrder(w, 2);
    const own = storeAccountToken(w.app.appId, w.login.userId);
    assert.equal(placed.paymentStep.obfuscatedAccountId, own);
    assert.equal(placed.paymentStep.appAccountToken, undefined);
    const foreign = storeAccountToken(w.app.appId, otherPlayer);
    refused(await pay(placed.order.trxNo, foreign), 400, 40030, 'wrong_account');
    await setBinding(w, 'required');
    refused(await pay(placed.order.trxNo), 400, 40030, 'wrong_account');
    refused(await pay(placed.order.trxNo, foreign), 400, 40030, 'wrong_account');
    assert.equal((await pay(placed.order.trxNo, own)).status, 200);
  });
});

/** The Swift and Kotlin snippets of docs/integration-guide.md hand the store what the service checks. */
describe('integration guide: the client snippets', () => {
  const guide = readFileSync(new URL('../../../../docs/integration-guide.md', import.meta.url), 'utf8');
  const section = guide.slice(guide.indexOf('## 9. Store purchases bound to their buyer'));

  it('use the fields the order answers and the store options whose values the service compares', () => {
    const swift = /```swift\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const kotlin = /```kotlin\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    assert.match(swift, /\.appAccountToken\(UUID\(uuidString: step\.appAccountToken\)!\)/);
    assert.match(kotlin, /\.setObfuscatedAccountId\(step\.obfuscatedAccountId\)/);
    // The worked example in the guide is what the service derives (and the SDK's storeAccountToken).
    const example = /app `(\d+)` and user `([^`]+)`: `([0-9a-f-]{36})`/.exec(section);
    assert.ok(example, 'the guide gives a worked example');
    assert.equal(storeAccountToken(Number(example[1]), example[2]!), example[3]);
  });
});
