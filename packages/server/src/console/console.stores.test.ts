import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../testing/service.js';
import { makeApiKey, type AppleApiKey } from '../testing/apple-fixture.js';
import { makeServiceAccount } from '../testing/google-fixture.js';
import { codeOf, createOperator } from '../testing/operators.js';
import {
  clickForApi,
  go,
  mainText,
  signIn,
  signInAccount,
  startBrowser,
  waitForRowCount,
  waitForText,
  type TestBrowser,
} from '../testing/console/console.js';

/** The console's App stores panel and store messages view (docs/console.md, docs/stores.md) in headless Chromium. */
describe('operator console: app store settings and store messages', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let appId: number;
  let apiKey: AppleApiKey;
  const account = makeServiceAccount('console-play');
  const accountJson = JSON.stringify(account, null, 2);
  /** A line out of the middle of each secret: were any part of a secret in the page, one of these would be. */
  const secretLines = () =>
    [apiKey.privateKeyPem, account.private_key].map((pem) => pem.split('\n').filter((l) => l.length > 40)[1]!);

  const settings = async () => (await svc.admin('GET', `/apps/${appId}/store-settings`)).body;
  const appPage = async (page: Page) => {
    await go(svc, page, `/apps/${appId}/stores`);
    await page.waitForSelector('.app-stores .store-google');
  };
  /** The page's HTML and every form control's value: where a secret typed or answered could be. */
  const pageHolds = async (page: Page) =>
    `${await page.content()}\n${await page.evaluate<string>(
      "[...document.querySelectorAll('input, textarea, select')].map((e) => e.value).join('\\n')",
    )}`;
  const assertNoSecret = async (page: Page) => {
    const held = await pageHolds(page);
    for (const line of secretLines()) assert.ok(!held.includes(line), 'no part of a secret is in the page');
  };

  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
    appId = (await svc.createApp({ name: 'Store Console Game' })).appId;
    apiKey = await makeApiKey();
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('sets the App Store and Google Play settings; the URLs are shown with a copy button, no secret after saving', async () => {
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: svc.url });
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await appPage(page);
    assert.equal(await page.locator('.app-stores .not-set').count(), 2, 'both stores are not set');
    const appleUrl = `${svc.url}/notify/v1/apple/${appId}`;
    const googleUrl = `${svc.url}/notify/v1/google/${appId}`;
    assert.equal(await page.locator('.apple-url .copy-value').innerText(), appleUrl);
    assert.equal(await page.locator('.google-url .copy-value').innerText(), googleUrl);
    await page.click('.google-url button.copy');
    await waitForText(page, '.google-url .copy-status', /Copied/);
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), googleUrl);

    // App Store: every field, the .p8 pasted.
    await page.click('button:has-text("Set up App Store")');
    await page.fill('#f-appleBundleId', 'com.example.console');
    await page.fill('#f-appleAppAppleId', '1234567890');
    await page.selectOption('#f-appleEnvironment', 'Sandbox');
    await page.fill('#f-appleApiIssuerId', apiKey.issuerId);
    await page.fill('#f-appleApiKeyId', apiKey.keyId);
    await page.fill('#f-appleSecret', apiKey.privateKeyPem);
    await page.click('button:has-text("Save App Store (channel 1) settings")');
    await waitForText(page, '.store-apple .ok', /saved/);
    const apple = (await settings()).apple;
    assert.deepEqual(
      [apple.bundleId, apple.appAppleId, apple.environment, apple.apiIssuerId, apple.apiKeyId, apple.apiKeySet],
      ['com.example.console', 1234567890, 'Sandbox', apiKey.issuerId, apiKey.keyId, true],
    );
    assert.equal(apple.enabled, true);
    assert.equal(apple.rootCertificatesPem, null, 'empty override: the shipped Apple root');

    // Google Play: the service account key file pasted.
    await page.click('button:has-text("Set up Google Play")');
    await page.fill('#f-googlePackageName', 'com.example.console');
    await page.fill('#f-googleSecret', accountJson);
    await page.fill('#f-googlePushAudience', googleUrl);
    await page.fill('#f-googlePushServiceAccountEmail', 'pubsub-push@test-project.iam.gserviceaccount.com');
    await page.click('button:has-text("Save Google Play (channel 2) settings")');
    await waitForText(page, '.store-google .ok', /saved/);
    const google = (await settings()).google;
    assert.deepEqual(
      [google.packageName, google.serviceAccountSet, google.serviceAccountEmail, google.pushAudience],
      ['com.example.console', true, account.client_email, googleUrl],
    );
    await assertNoSecret(page);

    // On reload: what the API answers, the URLs, and still no secret.
    await page.reload();
    await page.waitForSelector('.app-stores .store-google dl');
    const text = await page.locator('.app-stores').innerText();
    assert.match(text, /Bundle ID\s+com\.example\.console/);
    assert.match(text, /Environment\s+Sandbox/);
    assert.match(text, /API key \(\.p8\)\s+stored \(never shown\)/);
    assert.match(text, new RegExp(`Service account\\s+stored \\(never shown\\): ${account.client_email}`));
    assert.ok(text.includes(appleUrl) && text.includes(googleUrl));
    await assertNoSecret(page);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("a bad value gets the API's message and saves nothing; an empty secret keeps the key, remove drops it", async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await appPage(page);
    const stored = (await settings()).apple;
    await page.click('button:has-text("Edit App Store")');
    assert.equal(await page.inputValue('#f-appleSecret'), '', 'the stored key is never in the form');
    await page.fill('#f-appleRootCertificatesPem', '<b>not a certificate</b>');
    await page.click('button:has-text("Save App Store (channel 1) settings")');
    const refused = await svc.admin('PUT', `/apps/${appId}/store-settings/apple`, {
      bundleId: stored.bundleId,
      appAppleId: stored.appAppleId,
      environment: stored.environment,
      rootCertificatesPem: '<b>not a certificate</b>',
    });
    assert.equal(refused.status, 400);
    const box = await waitForText(page, '.store-apple .error', /rootCertificatesPem/);
    assert.ok(box.includes(refused.body.msg), `${box} shows ${refused.body.msg}`);
    assert.ok(box.includes(String(refused.body.code)));
    assert.deepEqual((await settings()).apple, stored, 'nothing written');

    // Fixed: an empty key field keeps the stored key.
    await page.fill('#f-appleRootCertificatesPem', '');
    await page.fill('#f-appleBundleId', 'com.example.renamed');
    await page.click('button:has-text("Save App Store (channel 1) settings")');
    await waitForText(page, '.store-apple .ok', /saved/);
    let apple = (await settings()).apple;
    assert.deepEqual([apple.bundleId, apple.apiKeySet], ['com.example.renamed', true]);

    // Remove the key (with its ids: the three go together).
    await page.click('button:has-text("Edit App Store")');
    await page.fill('#f-appleApiIssuerId', '');
    await page.fill('#f-appleApiKeyId', '');
    await page.check('#f-appleRemoveSecret');
    await page.click('button:has-text("Save App Store (channel 1) settings")');
    await waitForText(page, '.store-apple .ok', /saved/);
    apple = (await settings()).apple;
    assert.deepEqual([apple.apiKeySet, apple.apiKeyId, apple.apiIssuerId], [false, null, null]);
    await waitForText(page, '.store-apple dl', /API key \(\.p8\)\s+none/);

    // Disable and enable again after confirming; the service account stays stored.
    await page.click('.store-google button:text-is("Disable")');
    await page.click('.store-google .confirm button.confirm-yes');
    await waitForText(page, '.store-google dl', /Enabled\s+no/);
    assert.deepEqual([(await settings()).google.enabled, (await settings()).google.serviceAccountSet], [false, true]);
    await page.click('.store-google button:text-is("Enable")');
    await page.click('.store-google .confirm button.confirm-yes');
    await waitForText(page, '.store-google dl', /Enabled\s+yes/);
    assert.equal((await settings()).google.enabled, true);
    await page.close();
  });

  it('lists a forged notification as refused, as text, filtered by store and outcome and paged', async () => {
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const forge = (type: string) =>
      svc.fetch(`/notify/v1/apple/${appId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          signedPayload: `${b64({ alg: 'ES256' })}.${b64({ notificationType: type, notificationUUID: randomUUID() })}.AAAA`,
        }),
      });
    const sneaky = '<img src=x onerror=alert(1)>';
    for (const type of ['REFUND', sneaky]) assert.equal((await forge(type)).status, 400);
    const recorded = (await svc.admin('GET', `/apps/${appId}/store-messages`)).body.messages;
    assert.equal(recorded.length, 2);
    const reason = recorded[0].errorCode as string;

    const { page, dialogs } = await browser.newPage();
    await signIn(svc, page);
    await appPage(page);
    await page.click('.app-stores a:text-is("Store messages")');
    await page.waitForSelector('main h1:has-text("Store messages")');
    const rows = await waitForRowCount(page, 2);
    assert.match(rows[0]!, new RegExp(`apple\\s+push\\s+-\\s+refused\\s+${reason}\\s+-`));
    assert.ok(rows[0]!.includes(sneaky), 'the excerpt is shown as text');
    assert.match(rows[1]!, /"type":"REFUND"/);
    assert.equal(await page.locator('main tbody img').count(), 0);
    assert.deepEqual(dialogs, []);

    await page.selectOption('#f-store', 'google');
    await clickForApi(page, 'button:has-text("Apply")', '/store-messages', 'store=google');
    await waitForText(page, 'main .empty', /No store messages match/);
    await page.selectOption('#f-store', 'apple');
    await page.selectOption('#f-outcome', 'refused');
    await clickForApi(page, 'button:has-text("Apply")', '/store-messages', 'outcome=refused');
    await waitForRowCount(page, 2);

    await go(svc, page, `/apps/${appId}/store-messages?limit=1`);
    assert.match((await waitForRowCount(page, 1))[0]!, /onerror/);
    await clickForApi(page, 'button.next', '/store-messages', 'before=');
    assert.match((await waitForRowCount(page, 1))[0]!, /"type":"REFUND"/);
    await page.close();
  });

  it('a support operator sees the panel read-only; a write is refused by the API', async () => {
    const sam = await createOperator(svc, 'sam-support', 'support');
    const { page } = await browser.newPage();
    await signInAccount(svc, page, sam.name, sam.password, codeOf(sam));
    await waitForText(page, 'header.topbar .who', /\(support\)/);
    await appPage(page);
    await waitForText(page, '.app-stores .read-only', /Read-only/);
    assert.match(await page.locator('.app-stores').innerText(), /com\.example\.renamed/);
    assert.equal(await page.locator('.app-stores button:not(.copy)').count(), 0, 'no write control');
    // The request the console would make (the session cookie and its CSRF token), refused by the permission table.
    const write = await page.evaluate<{ status: number; body: { code: number; detail: string } }>(
      `fetch('/admin/v1/apps/${appId}/store-settings/google', {
        method: 'DELETE',
        headers: { 'x-csrf-token': sessionStorage.getItem('console.csrf') },
      }).then(async (res) => ({ status: res.status, body: await res.json() }))`,
    );
    assert.equal(write.status, 403);
    assert.deepEqual([write.body.code, write.body.detail], [40303, 'the role support lacks apps.write']);
    assert.notEqual((await settings()).google, null, 'nothing deleted');
    await go(svc, page, `/apps/${appId}/store-messages`);
    await waitForRowCount(page, 2);
    // A refusal shows its 403xx code and the permission it lacks (ErrorBox); an id that merely holds the digits 403 is none.
    assert.doesNotMatch(await mainText(page), /\b403\d\d\b|lacks /);
    await page.close();
  });
});
