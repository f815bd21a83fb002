import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { go, signIn, startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { startTestService, type TestService } from '../testing/service.js';

const SECRET_KEY = 'sk_test_consoleSECRET789';
const WEBHOOK_SECRET = 'whsec_consoleWEBHOOK012';

/** The operator console's Payment providers panel and provider messages page, in headless Chromium. */
describe('operator console: payment providers', () => {
  let svc: TestService;
  let browser: TestBrowser;
  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('shows the webhook URL, refuses a bad key with the API message, saves secrets it never shows again', async () => {
    const app = await svc.createApp({ name: 'Provider panel game' });
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${app.appId}/web`);
    const panel = page.locator('.provider-settings.provider-stripe');
    await panel.waitFor();
    assert.equal(
      await page.locator('.stripe-webhook .copy-value').innerText(),
      `${svc.url}/notify/v1/providers/stripe/${app.appId}`,
    );
    await page.click('.provider-stripe button:has-text("Set up stripe")');
    await page.fill('#f-stripe-secret-secretKey', 'pk_test_public');
    await page.fill('#f-stripe-secret-webhookSecret', WEBHOOK_SECRET);
    await page.click('.provider-stripe button[type=submit]');
    await waitForText(page, '.provider-stripe', /secrets\.secretKey/);
    await page.fill('#f-stripe-secret-secretKey', SECRET_KEY);
    await page.click('.provider-stripe button[type=submit]');
    await waitForText(page, '.provider-stripe', /saved/);
    await waitForText(page, '.provider-stripe', /secretKey, webhookSecret \(never shown\)/);
    assert.doesNotMatch(await page.content(), new RegExp(`${SECRET_KEY}|${WEBHOOK_SECRET}`));
    const opened = await svc.services.paymentProviders.settings.forApp(app.appId, 'stripe');
    assert.deepEqual(opened?.secrets, { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    assert.deepEqual(opened?.regions, ['overseas']);

    // A forged webhook shows up on the provider messages page, as text.
    const forged = await svc.fetch(`/notify/v1/providers/stripe/${app.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: JSON.stringify({ id: 'evt_<b>forged</b>', type: 'checkout.session.completed', data: { object: {} } }),
    });
    assert.equal(forged.status, 400);
    await go(svc, page, `/apps/${app.appId}/provider-messages`);
    await waitForText(page, 'main table', /refused\s+bad_signature/);
    assert.equal(await page.locator('main table b').count(), 0, 'the excerpt is text');
    assert.deepEqual(errors, []);
    await page.close();
  });
});
