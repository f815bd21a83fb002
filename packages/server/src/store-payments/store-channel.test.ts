import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { TEST_BUNDLE_ID, makeAppleChain } from '../testing/apple-fixture.js';
import { placeStoreOrder, startStoreWorld, type StoreWorld } from '../testing/store-payments/store-payments.js';

/** docs/stores.md, "Switching an app from the sandbox to the real stores": a settings change, per app and store. */
describe('store channel: chosen per app by its store settings, the sandbox otherwise', () => {
  let w: StoreWorld;
  before(async () => {
    w = await startStoreWorld({ SANDBOX_PAYMENTS: 'true', APPLE_ONLINE_CHECKS: 'false' });
  });
  after(() => w.close());

  const channelOf = async (channel: 1 | 2) => (await placeStoreOrder(w, channel)).payment.channel;

  it('switches channel 1 to the App Store and back, leaving channel 2 and other apps on the sandbox', async () => {
    assert.deepEqual([await channelOf(1), await channelOf(2)], ['sandbox', 'sandbox']);
    const settings = {
      bundleId: TEST_BUNDLE_ID,
      environment: 'Sandbox',
      rootCertificatesPem: new crypto.X509Certificate((await makeAppleChain()).root).toString(),
    };
    const path = `/apps/${w.app.appId}/store-settings/apple`;
    assert.equal((await w.svc.admin('PUT', path, settings)).status, 200);
    assert.deepEqual([await channelOf(1), await channelOf(2)], ['store', 'sandbox']);
    assert.equal((await w.svc.admin('PUT', path, { ...settings, enabled: false })).status, 200);
    assert.equal(await channelOf(1), 'sandbox', 'disabled settings give the app back to the sandbox');
    assert.equal((await w.svc.admin('PUT', path, settings)).status, 200);
    assert.equal(await channelOf(1), 'store');
    assert.equal((await w.svc.admin('DELETE', path)).status, 204);
    assert.equal(await channelOf(1), 'sandbox');
  });
});
