import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encode } from 'uqr';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { FAST } from '../testing/delivery/delivery.js';
import { clickNav, startBrowser, waitForRoute, type TestBrowser } from '../testing/console/console.js';

/**
 * A newcomer's first five minutes (issue 34): a fresh service, a browser opened on `/`, the break-glass token, the
 * first admin, then the getting-started checklist alone up to a test event delivered to a real game server, at a
 * desktop and a phone width, with no console errors.
 */
describe('operator console: first run and getting started', () => {
  const opened: { svc?: TestService; game?: GameServer; browser?: TestBrowser }[] = [];
  after(async () => {
    for (const o of opened) {
      await o.browser?.close();
      await o.svc?.close();
      await o.game?.close();
    }
  });

  for (const width of [1280, 360]) {
    it(`goes from / to a delivered test event through the first-run path and the checklist at ${width} px`, async () => {
      const svc = await startTestService({ ...FAST });
      const game = await startGameServer(await platformPublicKeys(svc.services));
      const browser = await startBrowser();
      opened.push({ svc, game, browser });
      const { page, errors, consoleErrors, dialogs } = await browser.newPage();
      await page.setViewportSize({ width, height: 900 });
      const noSideScroll = async (where: string) =>
        assert.ok(
          await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'),
          `${where}: no horizontal scroll at ${width} px`,
        );

      // `/` sends the browser to the console's sign-in, and the break-glass token signs in.
      await page.goto(`${svc.url}/`);
      assert.equal(new URL(page.url()).pathname, '/console/');
      assert.match(await page.locator('.first-time').innerText(), /break-glass admin token/);
      await page.click('details.break-glass summary');
      await page.fill('#f-token', svc.adminToken);
      await page.click('form.token-signin button[type=submit]');

      // No operator yet: the overview offers to create the first admin, and shows its second factor once.
      await page.locator('section.first-run').waitFor();
      await noSideScroll('first run');
      await page.fill('#f-firstAdminName', 'alice');
      await page.click('form.first-admin button[type=submit]');
      await page.locator('.second-factor').waitFor();
      const created = (await svc.admin('GET', '/operators/alice')).body;
      assert.equal(created.role, 'admin');
      assert.equal(created.recoveryCodesLeft, await page.locator('.recovery-codes li').count());
      const secret = await page.locator('.totp-secret').innerText();
      assert.match(secret, /^[A-Z2-7]+=*$/);
      // The QR code is the otpauth URI of that secret: the same modules as the URI encoded here.
      const label = await page.locator('svg.qr').getAttribute('aria-label');
      assert.equal(label, 'Authenticator QR code for alice');
      const uri = (await page.locator('a.totp-uri').getAttribute('href'))!;
      assert.match(uri, new RegExp(`^otpauth://totp/.*secret=${secret}`));
      const dark = encode(uri, { ecc: 'M', border: 2 }).data.flat().filter(Boolean).length;
      assert.equal(await page.locator('svg.qr g rect').count(), dark);
      assert.match(await page.locator('.second-factor .password').innerText(), /^\S{12,}$/);
      await noSideScroll('second factor');
      await page.click('button.first-run-done');

      // The checklist: nothing done yet, each step a link to where it is done.
      const step = (key: string) => page.locator(`.getting-started li.${key}`);
      await step('create-app').waitFor();
      assert.equal(await page.locator('section.first-run').count(), 0, 'the first admin exists: no offer again');
      for (const key of ['create-app', 'callback-url', 'test-event', 'invite-developer'])
        assert.equal(await step(key).getAttribute('data-done'), 'false', key);
      await noSideScroll('checklist');

      // 1 and 2: an app with the game server as its payment callback URL.
      await step('create-app').locator('a').click();
      await waitForRoute(page, '/apps/new');
      await page.fill('#f-name', 'First Game');
      await page.fill('#f-callbackUrls', `${game.url}/pay/callback`);
      await page.click('form.stacked button[type=submit]');
      await page.locator('.secret-value').waitFor();
      await clickNav(page, '#/overview');
      await page.locator('.getting-started li.callback-url[data-done="true"]').waitFor();
      assert.equal(await step('create-app').getAttribute('data-done'), 'true');

      // 3: the step links to the app's delivery tab with the send button focused; the test event is shown delivered
      // in place (state, latency and the game's answer), and the step ticks.
      const appId = (await svc.admin('GET', '/apps')).body.apps[0].appId;
      await step('test-event').locator('a').click();
      await waitForRoute(page, `/apps/${appId}/delivery`);
      await page.locator('.test-event .no-test-event').waitFor();
      assert.equal(await page.evaluate('document.activeElement?.id'), 'send-test-event', 'the send button is focused');
      await page.click('#send-test-event');
      await page.click('.test-event button.confirm-yes');
      const result = page.locator('.test-result[data-state="delivered"]');
      await result.waitFor();
      await game.waitFor(() => game.requests.length > 0, 10_000, 'the test event');
      assert.equal(game.requests[0]!.verified, true, game.requests[0]!.verifyError);
      const delivered = (await svc.admin('GET', `/events/${await result.getAttribute('data-event')}`)).body;
      const last = delivered.attemptLog.at(-1);
      assert.equal(await result.locator('.attempt-result').innerText(), 'delivered (HTTP 200)');
      assert.equal(await result.locator('.attempt-latency').innerText(), `${last.latencyMs} ms`);
      assert.equal(await result.locator('.attempt-answer').innerText(), last.responseBody);
      assert.match(await result.innerText(), /delivered at the first attempt/);
      await noSideScroll('delivery tab');
      await clickNav(page, '#/overview');
      await page.locator('.getting-started li.test-event[data-done="true"]').waitFor();

      // 4: a studio developer invited for the app; then the checklist is done and leaves the overview.
      await step('invite-developer').locator('a').click();
      await waitForRoute(page, '/people/developers/new');
      await page.fill('#f-developerName', 'studio-dev');
      await page.fill('#f-developerApps', String(appId));
      await page.click('form.developer-invite button[type=submit]');
      await page.locator('.invitation-issued .copy-value').waitFor();
      await noSideScroll('invitation');
      await clickNav(page, '#/overview');
      await page.locator('figure.chart').first().waitFor();
      await page.waitForTimeout(300);
      assert.equal(await page.locator('.getting-started').count(), 0, 'every step done: no checklist');

      assert.deepEqual(errors, []);
      assert.deepEqual(consoleErrors, []);
      assert.deepEqual(dialogs, []);
      await page.close();
    });
  }
});
