import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { generateKeyPair } from 'jose';
import {
  TEST_BUNDLE_ID,
  makeAppleChain,
  notificationPayload,
  signApple,
  transactionPayload,
  type AppleTestChain,
} from '../testing/apple-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { assertAlertFires, Scrapes } from '../testing/promtool.js';
import { guestLogin, macRequest } from '../testing/accounts/accounts.js';
import { details } from '../testing/orders/orders.js';
import {
  APPLE_SKU,
  notify,
  paymentCounts,
  placeStoreOrder,
  startStoreWorld,
  storeMessages,
  refused,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

describe('App Store: what is refused pays and refunds nothing', () => {
  let w: StoreWorld;
  let chain: AppleTestChain;
  const signTx = (over: Record<string, unknown> = {}, c = chain) =>
    signApple(c, transactionPayload({ productId: APPLE_SKU, transactionId: txId(), ...over }));
  const settings = () => ({
    bundleId: TEST_BUNDLE_ID,
    environment: 'Sandbox',
    rootCertificatesPem: new crypto.X509Certificate(chain.root).toString(),
  });

  before(async () => {
    chain = await makeAppleChain();
    w = await startStoreWorld({ APPLE_ONLINE_CHECKS: 'false' });
    assert.equal((await w.svc.admin('PUT', `/apps/${w.app.appId}/store-settings/apple`, settings())).status, 200);
  });
  after(() => w.close());

  it('refuses forged, re-signed, foreign-rooted, wrong bundle, environment or product transactions', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const good = await signTx();
    const [h, , s] = good.split('.');
    const forgedBody = Buffer.from(JSON.stringify(transactionPayload({ productId: APPLE_SKU, price: 1 }))).toString(
      'base64url',
    );
    const { privateKey: stranger } = await generateKeyPair('ES256');
    const cases: Array<[string, string, string]> = [
      ['forged payload', `${h}.${forgedBody}.${s}`, 'bad_signature'],
      [
        're-signed',
        await signApple(chain, transactionPayload({ productId: APPLE_SKU }), stranger as never),
        'bad_signature',
      ],
      ['chain to another root', await signTx({}, await makeAppleChain({ name: 'Other' })), 'untrusted_chain'],
      ['wrong bundle id', await signTx({ bundleId: 'com.other.game' }), 'wrong_bundle_id'],
      ['wrong environment', await signTx({ environment: 'Production' }), 'wrong_environment'],
      ['wrong product', await signTx({ productId: 'com.game.other' }), 'wrong_product'],
      ['wrong quantity', await signTx({ quantity: 3 }), 'wrong_quantity'],
      ['not a JWS', 'not-a-jws', 'malformed'],
    ];
    const before = await paymentCounts(w);
    for (const [what, jws, check] of cases) {
      const res = await submit(w, order.trxNo, 'apple-transactions', { signedTransactions: [jws] });
      refused(res, 400, 40030, check);
      assert.ok(res.body.detail.length > 0, what);
    }
    assert.deepEqual(await paymentCounts(w), before);
    assert.equal((await details(w.svc, order.trxNo)).order.status, 2, 'still awaiting payment');
  });

  it("a transaction pays one order only, whatever the order; only the player's own App Store order", async () => {
    const first = (await placeStoreOrder(w, 1)).order;
    const second = (await placeStoreOrder(w, 1)).order;
    const jws = await signTx();
    assert.equal((await submit(w, first.trxNo, 'apple-transactions', { signedTransactions: [jws] })).status, 200);
    const before = await paymentCounts(w);
    const used = await submit(w, second.trxNo, 'apple-transactions', { signedTransactions: [jws] });
    refused(used, 409, 40930);
    assert.equal(used.body.data.trxNo, first.trxNo);
    const twice = await submit(w, first.trxNo, 'apple-transactions', { signedTransactions: [jws] });
    assert.equal(twice.status, 409, 'a paid order is not paid again');
    // Another player's order, and a Google Play order.
    const bob = await guestLogin(w.svc, w.app.clientId);
    const path = `/order/v1/client/orders/${second.trxNo}/apple-transactions?clientId=${w.app.clientId}`;
    const foreign = await macRequest(w.svc, 'POST', path, bob, { body: { signedTransactions: [await signTx()] } });
    refused(foreign, 404, 40400);
    const noMac = await w.svc.fetch(path, {
      method: 'POST',
      body: '{"signedTransactions":["a"]}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(noMac.status, 403);
    refused(await submit(w, second.trxNo, 'apple-transactions', { signedTransactions: [] }), 400, 40000);
    assert.deepEqual(await paymentCounts(w), before);
    assert.equal((await details(w.svc, second.trxNo)).order.status, 2);
  });

  it('the same transaction submitted for two orders at once pays one; the same notification twice at once refunds once', async () => {
    const a = (await placeStoreOrder(w, 1)).order;
    const b = (await placeStoreOrder(w, 1)).order;
    const id = txId();
    const jws = await signTx({ transactionId: id, originalTransactionId: id });
    const answers = await Promise.all(
      [a, b].map((o) => submit(w, o.trxNo, 'apple-transactions', { signedTransactions: [jws] })),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], JSON.stringify(answers.map((r) => r.body)));
    const statuses = [(await details(w.svc, a.trxNo)).order.status, (await details(w.svc, b.trxNo)).order.status];
    assert.deepEqual(statuses.sort(), [0, 2]);

    const payload = await signApple(
      chain,
      notificationPayload('REFUND', await signTx({ transactionId: id, originalTransactionId: id })),
    );
    const before = await paymentCounts(w);
    const both = await Promise.all([1, 2].map(() => notify(w, 'apple', { signedPayload: payload })));
    assert.deepEqual(
      both.map((r) => r.status),
      [200, 200],
    );
    assert.deepEqual(both.map((r) => r.body.data.outcome).sort(), ['applied', 'duplicate']);
    const after = await paymentCounts(w);
    assert.equal(after.orders, before.orders + 1, 'one refund order');
  });

  it('refuses forged notifications (recorded for operators), and a transaction of another app is not refunded', async () => {
    const { order } = await placeStoreOrder(w, 1);
    const id = txId();
    const jws = await signTx({ transactionId: id, originalTransactionId: id });
    assert.equal((await submit(w, order.trxNo, 'apple-transactions', { signedTransactions: [jws] })).status, 200);
    const before = await paymentCounts(w);
    const refund = notificationPayload('REFUND', await signTx({ transactionId: id, originalTransactionId: id }));
    const other = await makeAppleChain({ name: 'Other' });
    const forged = await notify(w, 'apple', { signedPayload: await signApple(other, refund) });
    refused(forged, 400, 40031, 'untrusted_chain');
    refused(await notify(w, 'apple', { signedPayload: 'a.b.c' }), 400, 40031, 'malformed');
    const bundle = await notify(w, 'apple', {
      signedPayload: await signApple(
        chain,
        notificationPayload('REFUND', undefined, {}, { bundleId: 'com.other.game' }),
      ),
    });
    refused(bundle, 400, 40031, 'wrong_bundle_id');

    // Another app with the same settings: its endpoint does not refund this app's transaction.
    const otherApp = await w.svc.createApp({ name: 'other' });
    assert.equal((await w.svc.admin('PUT', `/apps/${otherApp.appId}/store-settings/apple`, settings())).status, 200);
    const cross = await notify(w, 'apple', { signedPayload: await signApple(chain, refund) }, {}, otherApp.appId);
    assert.deepEqual([cross.status, cross.body.data], [200, { outcome: 'ignored', reason: 'unknown_transaction' }]);
    const unknownApp = await notify(w, 'apple', { signedPayload: await signApple(chain, refund) }, {}, 999_999);
    refused(unknownApp, 404, 40400);
    assert.deepEqual(await paymentCounts(w), before);
    assert.equal((await details(w.svc, order.trxNo)).refund, null);

    const recorded = await storeMessages(w, '?outcome=refused');
    assert.deepEqual(
      recorded.map((m) => m.errorCode),
      ['wrong_bundle_id', 'malformed', 'untrusted_chain'],
    );
    assert.match(recorded[2].excerpt, /^\{"unverified":true,"type":"REFUND","notificationUUID":"[0-9a-f-]{36}"\}$/);
    const page = await w.svc.admin('GET', `/apps/${w.app.appId}/store-messages?outcome=refused&limit=2`);
    assert.deepEqual([page.body.messages.length, page.body.nextBefore], [2, page.body.messages[1].messageId]);
    const rest = await w.svc.admin(
      'GET',
      `/apps/${w.app.appId}/store-messages?outcome=refused&before=${page.body.nextBefore}`,
    );
    assert.deepEqual(
      [rest.body.messages.map((m: any) => m.errorCode), rest.body.nextBefore],
      [['untrusted_chain'], null],
    );
    assert.equal((await w.svc.admin('GET', '/apps/999999/store-messages')).status, 404);
    assert.equal((await w.svc.admin('GET', `/apps/${w.app.appId}/store-messages?outcome=lost`)).status, 400);
    const metrics = await w.svc.metrics();
    assert.match(metrics, /store_notifications_total\{store="apple",outcome="refused"\} 3/);
  });

  it('StoreNotificationsRefused (docs/alerts.yml) fires when notifications keep failing verification', async () => {
    const other = await makeAppleChain({ name: 'Forger' });
    const scrapes = new Scrapes();
    const scrape = async () => scrapes.add(await w.svc.metrics());
    await scrape();
    // Three forged notifications a scrape (a minute, for promtool): past the rule's five in 30 minutes.
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 3; j++) {
        const payload = notificationPayload('REFUND', await signTx({}, other));
        refused(
          await notify(w, 'apple', { signedPayload: await signApple(other, payload) }),
          400,
          40031,
          'untrusted_chain',
        );
      }
      await scrape();
    }
    assertAlertFires({ alert: 'StoreNotificationsRefused', scrapes, for: '1m', labels: { store: 'apple' } });
  });
});
