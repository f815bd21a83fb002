#!/usr/bin/env node
// Screenshots of the studio portal for docs/portal.md (`npm run build && node scripts/portal-screenshots.mjs`): a real
// service and the tests' fixture game server on loopback, a developer of one app, a payment notification that failed
// and is resent; headless Chromium writes docs/portal/<step>.png.
import './check-node.mjs';
import path from 'node:path';
import { dist, docsFolder, pageAt, screenshotsIn } from './lib/screenshots.mjs';

const { startTestService } = await import(dist('testing/service.js'));
const { platformPublicKeys, startGameServer } = await import(dist('testing/game-server.js'));
const { appWithProducts, payOk, placeOk, storeOrder } = await import(dist('testing/orders/orders.js'));
const { waitForEvent } = await import(dist('testing/delivery/delivery.js'));
const { createDeveloper } = await import(dist('testing/portal/portal.js'));
const out = docsFolder('portal');

const svc = await startTestService({
  DELIVERY_SCHEDULE: '0,100ms,100ms',
  DELIVERY_JITTER: '0',
  DELIVERY_POLL_MS: '50',
  SANDBOX_PAYMENTS: 'true',
});
let status = 502;
const game = await startGameServer(await platformPublicKeys(svc.services), () => ({
  status,
  body: status === 200 ? 'ok' : 'bad gateway',
}));
await screenshotsIn(out, [game, svc], async (browser) => {
  const app = await appWithProducts(svc, {
    name: 'Dragon Saga',
    callbackUrls: { default: `${game.url}/pay/callback` },
    roleQueryUrl: `${game.url}/role`,
  });
  const other = await svc.createApp({ name: 'Another studio game' });
  const dev = await createDeveloper(svc, 'alice.dragon-studio', [app.appId]);
  const order = await placeOk(svc, storeOrder(app.appId));
  await payOk(svc, order.trxNo);
  const eventId = (await svc.admin('GET', `/events?appId=${app.appId}&type=payment`)).body.events[0].eventId;
  await waitForEvent(svc, eventId, (e) => e.state === 'dead');

  const { page, shot } = await pageAt(browser, 1280, (name) => path.join(out, `${name}.png`));
  await page.goto(`${svc.url}/portal`);
  await page.fill('#f-name', dev.name);
  await shot('01-sign-in');
  await page.fill('#f-password', dev.password);
  await page.fill('#f-totp', dev.recoveryCodes[0]);
  await page.click('form.portal-signin button[type=submit]');
  await page.locator('main table').waitFor();
  await shot('02-apps');
  await page.goto(`${svc.url}/portal#/apps/${app.appId}/events?event=${eventId}`);
  await page.locator('table.attempts tbody tr').first().waitFor();
  await shot('03-failed-event');
  status = 200;
  await page.click('.event-detail button.resend');
  await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
  await page.click('.event-detail button:has-text("Refresh attempts")');
  await page.locator('.event-detail dd.state-delivered').waitFor();
  await shot('04-resent-delivered');
  await page.goto(`${svc.url}/portal#/apps/${app.appId}/settings`);
  await page.locator('form.settings').waitFor();
  await shot('05-settings');
  await page.goto(`${svc.url}/portal#/apps/${other.appId}/events`);
  await page.locator('section.refused').waitFor();
  await shot('06-another-studio-refused');
});
