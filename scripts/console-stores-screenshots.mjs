#!/usr/bin/env node
// Screenshots of the console's App stores panel and Store messages view for docs/stores.md
// (`npm run build && node scripts/console-stores-screenshots.mjs`). It runs the console against a real test service
// on loopback in headless Chromium, sets an app's store settings through the panel, forges a notification, and writes
// docs/console/<name>.png.
import './check-node.mjs';
import path from 'node:path';
import { dist, docsFolder, screenshotsIn } from './lib/screenshots.mjs';

const { startTestService } = await import(dist('testing/service.js'));
const { makeApiKey } = await import(dist('testing/apple-fixture.js'));
const { makeServiceAccount } = await import(dist('testing/google-fixture.js'));
const out = docsFolder('console');

const svc = await startTestService();
await screenshotsIn(out, [svc], async (browser) => {
  const { appId } = await svc.createApp({ name: 'Dragon Saga' });
  const apiKey = await makeApiKey();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(10_000);
  const shot = async (name, selector) => {
    await page.waitForTimeout(150);
    await page.locator(selector).screenshot({ path: path.join(out, `${name}.png`) });
  };

  await page.goto(`${svc.url}/console`);
  await page.click('details.break-glass summary');
  await page.fill('#f-token', svc.adminToken);
  await page.fill('#f-moderator', 'alice');
  await page.click('form.token-signin button[type=submit]');
  await page.waitForSelector('header.topbar');
  await page.goto(`${svc.url}/console#/apps/${appId}/stores`);
  await page.waitForSelector('.app-stores .store-google');
  await page.locator('.app-stores').scrollIntoViewIfNeeded();

  await page.click('button:has-text("Set up App Store")');
  await page.fill('#f-appleBundleId', 'com.example.dragonsaga');
  await page.fill('#f-appleAppAppleId', '1234567890');
  await page.fill('#f-appleApiIssuerId', apiKey.issuerId);
  await page.fill('#f-appleApiKeyId', apiKey.keyId);
  await page.fill('#f-appleSecret', '-----BEGIN PRIVATE KEY-----\n(the .p8 file of App Store Connect)\n...');
  await shot('01-app-store-form', '.app-stores');
  await page.fill('#f-appleSecret', apiKey.privateKeyPem);
  await page.click('button:has-text("Save App Store (channel 1) settings")');
  await page.locator('.store-apple .ok').waitFor();

  await page.click('button:has-text("Set up Google Play")');
  await page.fill('#f-googlePackageName', 'com.example.dragonsaga');
  await page.fill('#f-googleSecret', JSON.stringify(makeServiceAccount('play-api')));
  await page.fill('#f-googlePushAudience', `${svc.url}/notify/v1/google/${appId}`);
  await page.fill('#f-googlePushServiceAccountEmail', 'pubsub-push@dragon-saga.iam.gserviceaccount.com');
  await page.click('button:has-text("Save Google Play (channel 2) settings")');
  await page.locator('.store-google .ok').waitFor();
  await shot('02-app-stores-panel', '.app-stores');

  // A forged notification, refused and recorded for operators.
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const signedPayload = `${b64({ alg: 'ES256' })}.${b64({ notificationType: 'REFUND', notificationUUID: crypto.randomUUID() })}.AAAA`;
  await svc.fetch(`/notify/v1/apple/${appId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signedPayload }),
  });
  await page.goto(`${svc.url}/console#/apps/${appId}/store-messages`);
  await page.waitForSelector('main tbody tr');
  await shot('03-store-messages', 'main');
  await page.close();
});
