import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { FAST, waitForEvent } from '../testing/delivery/delivery.js';
import { SANDBOX, appWithProducts, payOk, placeOk, storeOrder } from '../testing/orders/orders.js';
import { adminAs, completeInvitation, operatorToken } from '../testing/operators.js';
import { totpCode } from '../identity/credentials.js';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { PAGE_CSP } from '../http/static-page.js';

/**
 * The studio portal page in headless Chromium (issue 22): an admin invites a developer of app A; the developer signs
 * in, resends a payment notification that failed at the game server and sees the attempt succeed, and is refused
 * app B by the page and by the API.
 */
describe('studio portal (browser)', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let game: GameServer;
  let gameStatus = 500;
  let appA: any;
  let appB: any;
  let developer: { name: string; password: string; totpSecret: string; recoveryCodes: string[] };

  before(async () => {
    [svc, browser] = await Promise.all([startTestService({ ...FAST, ...SANDBOX }), startBrowser()]);
    game = await startGameServer(await platformPublicKeys(svc.services), () => ({
      status: gameStatus,
      body: gameStatus === 200 ? 'ok' : 'down for maintenance',
    }));
    appA = await appWithProducts(svc, { name: 'Studio A Saga', callbackUrls: { default: `${game.url}/pay/callback` } });
    appB = await svc.createApp({ name: 'Studio B Quest' });
    // An admin operator (its own API token, as a script or the CLI would) invites the developer for app A only.
    const adminToken = await operatorToken(svc, 'portal-admin', 'admin');
    const made = await adminAs(svc, adminToken, 'POST', '/studio-developers', {
      name: 'alice.studio-a',
      appIds: [appA.appId],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.developer.appIds, [appA.appId]);
    // The developer completes its invitation link itself (its own password and authenticator).
    developer = { name: 'alice.studio-a', ...(await completeInvitation(svc, '/portal/v1', made.body.link)) };
  });
  after(async () => {
    await browser?.close();
    await game?.close();
    await svc?.close();
  });

  it('serves the page with a strict CSP and no inline script', async () => {
    const res = await svc.fetch('/portal');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), PAGE_CSP);
    assert.doesNotMatch(await res.text(), /<script(?![^>]*\bsrc=)/);
    assert.equal((await svc.fetch('/portal/vendor/preact.module.js')).status, 200);
    assert.equal((await svc.fetch('/portal/no-such-file.js')).status, 404);
  });

  it('lets the developer resend a failed payment notification of its app and see it delivered', async () => {
    const order = await placeOk(svc, storeOrder(appA.appId));
    await payOk(svc, order.trxNo);
    const events = (await svc.admin('GET', `/events?appId=${appA.appId}&type=payment`)).body.events;
    assert.equal(events.length, 1);
    const eventId = events[0].eventId as number;
    await waitForEvent(svc, eventId, (e) => e.state === 'dead');

    const { page, errors, consoleErrors } = await browser.newPage();
    await page.goto(`${svc.url}/portal`);
    await page.fill('#f-name', developer.name);
    await page.fill('#f-password', developer.password);
    await page.fill('#f-totp', totpCode(developer.totpSecret, Date.now()));
    await page.click('form.portal-signin button[type=submit]');
    await waitForText(page, 'header', /as alice\.studio-a/);
    await waitForText(page, 'main', /Studio A Saga/);
    assert.doesNotMatch(await page.locator('main').innerText(), /Studio B Quest/);
    // SANDBOX_PAYMENTS is on in this service: the portal says so on every page (issue 41).
    await waitForText(page, '.sandbox-banner', /Sandbox: sandbox payments \(orders are paid without money\) is on/);

    // The app opens on its overview; its Events tab lists the events.
    await page.click(`main a[href="#/apps/${appA.appId}/overview"]`);
    await page.locator('figure[data-chart="notifications"]').waitFor();
    await page.click(`main a[href="#/apps/${appA.appId}/events"]`);
    await page.locator(`tr[data-event="${eventId}"]`).waitFor();
    assert.match(await page.locator(`tr[data-event="${eventId}"]`).innerText(), /payment\s+dead/);
    await page.click(`tr[data-event="${eventId}"] a`);
    await waitForText(page, '.event-detail', /dead/);
    const failedAttempts = await page.locator('table.attempts').innerText();
    assert.equal((failedAttempts.match(/http_status/g) ?? []).length, 3, failedAttempts);
    assert.match(failedAttempts, /down for maintenance/, 'the answer excerpt is shown');

    gameStatus = 200;
    const before = game.requests.length;
    await page.click('.event-detail button.resend');
    await waitForText(page, '.event-detail', /Queued for delivery/);
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    await page.click('.event-detail button:has-text("Refresh attempts")');
    await waitForText(page, '.event-detail dd.state-delivered', /delivered/);
    const attempts = await page.locator('table.attempts tbody tr').allInnerTexts();
    assert.equal(attempts.length, 4);
    assert.match(attempts[3]!, /delivered\s+200/);
    // The game got the same notification, signed by the platform and verified with its public keys.
    const got = game.requests.slice(before);
    assert.equal(got.length, 1);
    assert.ok(got[0]!.verified, got[0]!.verifyError);
    assert.equal(JSON.parse(got[0]!.body).notifyId, eventId);

    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });

  it("refuses app B in the page and in the API, with the developer's own session", async () => {
    const { page, errors } = await browser.newPage();
    await page.goto(`${svc.url}/portal`);
    await page.fill('#f-name', developer.name);
    await page.fill('#f-password', developer.password);
    // The TOTP code of this 30 s step may be used already (a code is good once): a recovery code instead.
    await page.fill('#f-totp', developer.recoveryCodes[0]!);
    await page.click('form.portal-signin button[type=submit]');
    await waitForText(page, 'header', /as alice\.studio-a/);

    await page.goto(`${svc.url}/portal#/apps/${appB.appId}/events`);
    await waitForText(page, 'main', /not one of yours/);
    assert.match(await page.locator('main .error').innerText(), /40400/);
    assert.doesNotMatch(await page.locator('main').innerText(), /Studio B Quest/);

    const answers: { status: number; body: any }[] = await page.evaluate(async (appId) => {
      const read = await fetch(`/portal/v1/apps/${appId}/events`, { credentials: 'same-origin' });
      const csrf = sessionStorage.getItem('portal.csrf') ?? '';
      const write = await fetch(`/portal/v1/apps/${appId}/rotate-secret`, {
        method: 'POST',
        headers: { 'x-csrf-token': csrf },
        credentials: 'same-origin',
      });
      const admin = await fetch('/admin/v1/apps', { credentials: 'same-origin' });
      return [
        { status: read.status, body: await read.json() },
        { status: write.status, body: await write.json() },
        { status: admin.status, body: await admin.json() },
      ];
    }, appB.appId);
    assert.equal(answers[0]!.status, 404);
    assert.equal(answers[0]!.body.code, 40400);
    assert.equal(answers[1]!.status, 404);
    assert.equal(answers[2]!.status, 401, 'the portal session opens no admin route');
    assert.equal((await svc.admin('GET', `/apps/${appB.appId}`)).body.secretRotatedAt, appB.secretRotatedAt);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
