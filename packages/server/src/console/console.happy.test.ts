import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '../testing/service.js';
import { guestLogin } from '../testing/accounts/accounts.js';
import { createGame, postReport, reportBody, uploadEvidence, type GameApp } from '../testing/reporting/reporting.js';
import { FAST, waitForEvent } from '../testing/delivery/delivery.js';
import { SANDBOX, appWithProducts, payOk, placeOk, storeOrder } from '../testing/orders/orders.js';
import { signMd5 } from '../testing/service.js';
import { codeOf, createOperator } from '../testing/operators.js';
import {
  clickForApi,
  go,
  mainText,
  signIn,
  signInAccount,
  startBrowser,
  waitForRoute,
  waitForRowCount,
  waitForText,
  type TestBrowser,
} from '../testing/console/console.js';

/** The operator console in headless Chromium against a real service: the everyday flows. */
describe('operator console (happy paths)', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let game: GameApp;
  let gameServer: http.Server;
  let gameStatus = 500;
  let gameUrl: string;

  before(async () => {
    gameServer = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = gameStatus;
        res.end(gameStatus === 200 ? 'ok' : 'down');
      });
    });
    await new Promise<void>((resolve) => gameServer.listen(0, '127.0.0.1', resolve));
    gameUrl = `http://127.0.0.1:${(gameServer.address() as AddressInfo).port}`;
    [svc, browser] = await Promise.all([startTestService({ ...FAST, ...SANDBOX }), startBrowser()]);
    game = await createGame(svc, { name: 'Dragon Saga', callbackUrls: { default: `${gameUrl}/pay/callback` } });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    gameServer?.close();
  });

  it('signs in and lists the apps', async () => {
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/apps');
    await page.waitForSelector('main table');
    assert.match(await mainText(page), /Dragon Saga/);
    assert.match(await page.locator('header').innerText(), /as mod-test/);
    // SANDBOX_PAYMENTS is on in this service: a banner says so above the top bar (issue 41).
    assert.match(
      await page.locator('.sandbox-banner').innerText(),
      /Sandbox: sandbox payments .* is on\. Never in production/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('creates an app, shows its secret once, edits it and rotates the secret after confirming', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/apps');
    await page.click('a.button[href="#/apps/new"]');
    await page.fill('#f-name', 'Console Created');
    await page.fill('#f-callbackUrls', 'https://game.example/pay/callback\ns1 = https://s1.game.example/pay/callback');
    await page.fill('#f-roleQueryUrl', 'https://game.example/role');
    await page.fill('#f-allowedIps', '203.0.113.7, 198.51.100.0/24');
    await page.click('button:has-text("Create app")');
    const secret = await page.locator('.secret-value').innerText();
    assert.match(secret, /^\S{32,}$/);
    assert.match(await page.locator('.secret').innerText(), /shown only this once/);

    const created = (await svc.admin('GET', '/apps')).body.apps.find((a: any) => a.name === 'Console Created');
    assert.ok(created);
    assert.deepEqual(created.callbackUrls, {
      default: 'https://game.example/pay/callback',
      s1: 'https://s1.game.example/pay/callback',
    });
    assert.deepEqual(created.allowedIps, ['203.0.113.7', '198.51.100.0/24']);
    assert.equal(created.roleQueryUrl, 'https://game.example/role');
    const record = await svc.services.apps.resolveByClientId(created.clientId);
    assert.equal(record?.secrets[0], secret, 'the secret shown is the app secret');

    // The detail page never shows it again.
    await page.click('a:has-text("Open the app")');
    await page.waitForSelector('h1:has-text("Console Created")');
    assert.equal(await page.locator('.secret').count(), 0);
    assert.doesNotMatch(await mainText(page), new RegExp(secret));

    // Edit (the Settings tab): rename and clear the role query URL.
    await page.click('.app-tabs a[data-tab="settings"]');
    await page.click('button:text-is("Edit")');
    await page.fill('#f-name', 'Console Renamed');
    await page.fill('#f-roleQueryUrl', '');
    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('h1:has-text("Console Renamed")');
    const patched = (await svc.admin('GET', `/apps/${created.appId}`)).body;
    assert.equal(patched.name, 'Console Renamed');
    assert.equal(patched.roleQueryUrl, null);

    // Rotate: nothing happens until confirmed.
    await page.click('button:has-text("Rotate secret")');
    assert.equal(await page.locator('.secret').count(), 0);
    await page.click('.confirm button.confirm-no');
    await page.click('button:has-text("Rotate secret")');
    await page.click('.confirm button.confirm-yes');
    const rotated = await page.locator('.secret-value').innerText();
    assert.notEqual(rotated, secret);
    assert.equal((await svc.services.apps.resolveByClientId(created.clientId))?.secrets[0], rotated);
    await page.close();
  });

  it('opens a report with evidence, decides it with a ban, and shows the history', async () => {
    const cheater = await guestLogin(svc, game.clientId, 'console-cheater-device');
    const { uri } = await uploadEvidence(svc, game, Buffer.from('evidence bytes'), 'clip.png');
    const posted = await postReport(
      svc,
      game,
      reportBody(game, {
        reportee: { svcid: cheater.userId, role_id: 'r9', server_code: 's1', role_name: 'Speedy', extra: '' },
        user_description: 'flies across the map',
        evidence: [{ name: 'clip.png', size_byte: '14', uri }],
      }),
    );
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const reportId = (await svc.admin('GET', `/reports?reportee=${cheater.userId}`)).body.reports[0].reportId;

    const { page } = await browser.newPage();
    await signIn(svc, page, svc.adminToken, 'mod-ann');
    await page.click('nav a:has-text("Reports")');
    await page.waitForSelector(`a:has-text("#${reportId}")`);
    await page.click(`a:has-text("#${reportId}")`);
    await page.waitForSelector('h1:has-text("Report #")');
    const text = await mainText(page);
    assert.match(text, /flies across the map/);
    assert.match(text, /Speedy/);
    assert.match(text, /No status changes yet/);
    const href = await page.locator('a:has-text("download")').getAttribute('href');
    assert.ok(href, 'an evidence download link');
    const download = await fetch(href);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'evidence bytes');

    await page.selectOption('#f-status', 'actioned');
    await page.fill('#f-note', 'speed hack confirmed');
    await page.check('#f-ban');
    await page.fill('#f-banReason', 'cheating');
    await page.check('#f-permanent');
    await page.click('button:has-text("Save decision and ban")');
    await waitForText(page, '.moderation .confirm', /Ban the reportee's account\?/);
    assert.equal(
      (await svc.admin('GET', `/reports/${reportId}`)).body.status,
      'open',
      'nothing is decided before the confirmation',
    );
    await page.click('.moderation .confirm-yes');
    await waitForText(page, 'h1', /actioned/);
    const history = await page.locator('table').last().innerText();
    assert.match(history, /open\s+actioned\s+mod-ann\s+speed hack confirmed/);

    const user = (await svc.admin('GET', `/users/${cheater.userId}`)).body;
    assert.equal(user.banned, true);
    assert.equal(user.bans[0].reason, 'cheating');
    assert.equal(user.bans[0].until, null);
    await page.close();
  });

  it('shows the reportee counts, repeat offenders first', async () => {
    for (const reporter of ['c1', 'c2']) {
      const res = await postReport(
        svc,
        game,
        reportBody(game, {
          reporter: { svcid: reporter },
          reportee: { svcid: '777001', role_name: 'Repeat' },
          reasons: [{ id: 3 }],
        }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/reports/reportees?appId=${game.appId}`);
    await page.waitForSelector('main table');
    const firstRow = await page.locator('main tbody tr').first().innerText();
    assert.match(firstRow, /Repeat/);
    assert.match(firstRow, /\b2\b/);
    await page.click('main tbody tr >> nth=0 >> a:has-text("See reports")');
    await waitForRoute(page, '/reports');
    await page.waitForSelector('main tbody tr');
    assert.equal(await page.locator('main tbody tr').count(), 2);
    await page.close();
  });

  it('pages through reports with the API cursor', async () => {
    const other = await createGame(svc, { name: 'Paged' });
    for (const reporter of ['p1', 'p2', 'p3']) {
      const res = await postReport(
        svc,
        other,
        reportBody(other, {
          reporter: { svcid: reporter },
          reportee: { svcid: '555', role_name: 'Paged target' },
          reasons: [{ id: 1 }],
        }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/reports?appId=${other.appId}&limit=2`);
    await page.waitForSelector('main tbody tr');
    assert.equal(await page.locator('main tbody tr').count(), 2);
    const ids = async () => page.locator('main tbody tr td:first-child').allInnerTexts();
    const firstPage = await ids();
    await page.click('button.next');
    await waitForText(page, '.pager', /Last page/);
    const secondPage = await ids();
    assert.equal(secondPage.length, 1);
    assert.ok(!firstPage.includes(secondPage[0]!), `${secondPage} is not on the first page ${firstPage}`);
    assert.match(page.url(), /cursor=/);
    // Back returns to the first page (the cursor lives in the hash).
    await page.goBack();
    await waitForText(page, '.pager', /Next page/);
    assert.equal(await page.locator('main tbody tr').count(), 2);
    await page.close();
  });

  it('finds a user and revokes their tokens after confirming', async () => {
    const player = await guestLogin(svc, game.clientId, 'console-player-device');
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await page.click('nav a:has-text("Users")');
    await page.fill('#f-value', player.userId);
    await page.click('button:has-text("Search")');
    await page.click(`main tbody a:has-text("${player.userId}")`);
    await page.waitForSelector(`h1:has-text("User ${player.userId}")`);
    assert.match(await mainText(page), /guest/);
    assert.match(await page.locator('main table').nth(1).innerText(), /live/);
    await page.click('button:has-text("Revoke tokens")');
    await page.click('.confirm button.confirm-yes');
    await waitForText(page, 'p.ok', /Revoked 1 token/);
    await waitForText(page, 'main table >> nth=1', /revoked/);
    const detail = (await svc.admin('GET', `/users/${player.userId}`)).body;
    assert.ok(detail.sessions.every((s: any) => !s.live));

    // Search by user code finds the same user.
    await go(svc, page, '/users');
    await page.selectOption('#f-by', 'userCode');
    await page.fill('#f-value', player.userCode);
    await page.click('button:has-text("Search")');
    await waitForText(page, 'main tbody', new RegExp(player.userId));
    await page.close();
  });

  it('shows a dead event with its attempts and resends it after confirming', async () => {
    gameStatus = 500;
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${game.appId}/test-events`, { type: 'payment' });
    await waitForEvent(svc, eventId, (e) => e.state === 'dead');
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await page.click('nav a:has-text("Delivery")');
    await page.selectOption('#f-state', 'dead');
    await page.click('button:has-text("Apply")');
    await page.waitForSelector(`main tbody a:has-text("${eventId}")`);
    assert.match(page.url(), /state=dead/);
    await page.click(`main tbody a:has-text("${eventId}")`);
    await waitForText(page, 'h1', /dead/);
    const attempts = await page.locator('main table').innerText();
    assert.equal((attempts.match(/http_status/g) ?? []).length, 3, attempts);

    gameStatus = 200;
    await page.click('button:has-text("Resend")');
    await page.click('.confirm button.confirm-yes');
    await waitForText(page, 'p.ok', /Queued for delivery/);
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    await page.click('button:has-text("Refresh")');
    await waitForText(page, 'h1', /delivered/);
    await page.close();
  });

  it("finds one player's game calls by role id", async () => {
    const app = (await svc.services.apps.resolveByClientId(game.clientId))!;
    const target = { ...app, roleQueryUrl: `${gameUrl}/role`, roleListUrl: `${gameUrl}/roles` };
    await svc.services.gameCalls.roleQuery(target, { roleId: 'r-9', serverId: 's-2' });
    await svc.services.gameCalls.roleList(target, { userId: 'u-7' });
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${game.appId}/game-calls`);
    await waitForText(page, 'main table', /user u-7/);
    await page.fill('#f-roleId', 'r-9');
    await clickForApi(page, 'button:has-text("Apply")', 'roleId=r-9');
    // Until the filtered answer renders, the unfiltered rows (r-9's among them) are still on screen.
    await waitForText(page, 'main', /^(?![\s\S]*user u-7)[\s\S]*role r-9, server s-2/);
    assert.match(page.url(), /roleId=r-9/);
    assert.doesNotMatch(await mainText(page), /user u-7/);
    await page.close();
  });

  it('shows the game-call log with the failed filter, the platform keys and the orders page', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${game.appId}`);
    await page.click('a:has-text("Failed game calls")');
    await page.waitForSelector('h1:has-text("Game-call log")');
    assert.match(page.url(), /failed=true/);
    await waitForText(page, 'main table', /role_query/);
    // Wait for the keys page itself: the game-call log's table is still on screen until it renders.
    const keys = (await svc.admin('GET', '/platform-keys')).body.keys;
    await page.click('nav a:has-text("Platform keys")');
    await page.waitForSelector('h1:has-text("Platform keys")');
    await waitForText(page, 'main table', new RegExp(keys[0].kid));
    await page.click('nav a:has-text("Orders")');
    await waitForText(page, 'main', /No orders match/);
    await page.click('nav a:has-text("Supplements")');
    await waitForText(page, 'main', /No supplements/);
    await page.close();
  });

  it("lists an app's products, creates one, edits it, and disables and enables it after confirming", async () => {
    const shop = await createGame(svc, { name: 'Product Shop' });
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${shop.appId}`);
    await page.click('main a:has-text("Products")');
    await waitForRoute(page, `/apps/${shop.appId}/products`);
    await waitForText(page, 'main', /No products yet/);
    await page.click('a.button:has-text("New product")');
    await page.waitForSelector('h1:has-text("New product")');
    await page.fill('#f-productCode', 'gems_100');
    await page.fill('#f-name', '100 gems');
    await page.fill('#f-price', '6.99');
    await page.fill('#f-currency', 'USD');
    await page.fill('#f-ios', 'com.game.gems100');
    await page.click('button:has-text("Create product")');
    await page.waitForSelector('h1:has-text("100 gems")');
    assert.match(await mainText(page), /6\.99 USD[\s\S]*699[\s\S]*com\.game\.gems100/);
    const created = (await svc.admin('GET', `/apps/${shop.appId}/products/gems_100`)).body;
    assert.deepEqual(
      [created.name, created.priceMinor, created.currency, created.channelSkus, created.status],
      ['100 gems', 699, 'USD', { 1: 'com.game.gems100' }, 'active'],
    );

    // Edit: new name and price, the iOS SKU moved to an Android one.
    await page.click('button:text-is("Edit")');
    await page.fill('#f-name', '120 gems');
    await page.fill('#f-price', '7.49');
    await page.fill('#f-ios', '');
    await page.fill('#f-android', 'gems_120_android');
    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('h1:has-text("120 gems")');
    const edited = (await svc.admin('GET', `/apps/${shop.appId}/products/gems_100`)).body;
    assert.deepEqual(
      [edited.name, edited.priceMinor, edited.channelSkus],
      ['120 gems', 749, { 2: 'gems_120_android' }],
    );

    // Disable: nothing happens until confirmed.
    await page.click('button:has-text("Disable product")');
    await waitForText(page, '.confirm', /New orders can no longer include it/);
    assert.equal((await svc.admin('GET', `/apps/${shop.appId}/products/gems_100`)).body.status, 'active');
    await page.click('.confirm button.confirm-yes');
    await waitForText(page, 'p.ok', /now disabled/);
    assert.equal((await svc.admin('GET', `/apps/${shop.appId}/products/gems_100`)).body.status, 'disabled');
    await page.click('a:has-text("All products of the app")');
    await waitForRoute(page, `/apps/${shop.appId}/products`);
    await waitForText(page, 'main tbody', /gems_100\s+120 gems\s+7\.49 USD\s+-\s+gems_120_android\s+disabled/);
    await page.click('main tbody a:has-text("gems_100")');
    await page.waitForSelector('h1:has-text("120 gems")');
    await page.click('button:has-text("Enable product")');
    await page.click('.confirm button.confirm-yes');
    await waitForText(page, 'p.ok', /now active/);
    assert.equal((await svc.admin('GET', `/apps/${shop.appId}/products/gems_100`)).body.status, 'active');
    await page.close();
  });

  it("shows and edits an app's order settings on the app page", async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${game.appId}/orders`);
    await waitForText(page, '.order-settings', /Web region lock\s+off/);
    await waitForText(page, '.order-settings', /Store account binding\s+when_present: a store purchase bound/);
    await waitForText(page, '.order-settings', /Apple consumption information\s+off/);
    // The studio's statement is shown as text.
    const consent = '<b>Players consented</b> in the terms of service, clause 7.';
    assert.equal(
      (await svc.admin('PUT', `/apps/${game.appId}/order-settings`, { consumptionConsent: consent })).status,
      200,
    );
    await page.reload();
    await waitForText(
      page,
      '.order-settings',
      /Apple consumption information\s+on since [^\n]+, studio's statement: <b>Players/,
    );
    assert.equal(await page.locator('.order-settings b').count(), 0);
    assert.equal(
      (await svc.admin('PUT', `/apps/${game.appId}/order-settings`, { consumptionConsent: null })).status,
      200,
    );
    await page.reload();
    await waitForText(page, '.order-settings', /Apple consumption information\s+off/);
    await page.click('button:has-text("Edit order settings")');
    await page.check('#f-webRegionLock');
    await page.click('button:has-text("Save order settings")');
    await waitForText(page, '.order-settings', /Web region lock\s+on/);
    assert.deepEqual((await svc.admin('GET', `/apps/${game.appId}/order-settings`)).body, {
      appId: game.appId,
      webRegionLock: true,
      refuseStoreOrdersInArrears: false,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    // And back off.
    await page.click('button:has-text("Edit order settings")');
    assert.equal(await page.isChecked('#f-webRegionLock'), true);
    await page.uncheck('#f-webRegionLock');
    await page.click('button:has-text("Save order settings")');
    await waitForText(page, '.order-settings', /Web region lock\s+off/);
    assert.equal((await svc.admin('GET', `/apps/${game.appId}/order-settings`)).body.webRegionLock, false);
    await page.close();
  });

  it("sends a test event and recovers the app's dead events after confirming, showing what the API answered", async () => {
    const target = await createGame(svc, { name: 'Recovering', callbackUrls: { default: `${gameUrl}/pay/callback` } });
    gameStatus = 500;
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${target.appId}/delivery`);
    await page.selectOption('#f-testType', 'refund');
    await page.click('button:has-text("Send test event")');
    await waitForText(page, '.test-event .confirm', /Send a test refund event/);
    await page.click('.confirm button.confirm-yes');
    // The event is shown in place, retrying while the game answers 500, then dead.
    const shown = page.locator('.test-result');
    await shown.waitFor();
    const eventId = Number(await shown.getAttribute('data-event'));
    const event = (await svc.admin('GET', `/events/${eventId}`)).body;
    assert.deepEqual([event.appId, event.type, JSON.parse(event.body).trxType], [target.appId, 'test', 2]);
    await waitForEvent(svc, eventId, (e) => e.state === 'dead');
    await waitForText(page, '.test-result[data-state="dead"]', /dead: given up after \d+ attempts?[\s\S]*HTTP 500/);

    gameStatus = 200;
    await page.click('button:has-text("Recover dead events")');
    await waitForText(page, '.recover .confirm', /Deliver every dead event/);
    await page.click('.confirm button.confirm-yes');
    await waitForText(page, '.recover p.ok', /Recovered 1 dead event:/);
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    // The test event shown is read again after the recovery: delivered, in place.
    await page.locator(`.test-result[data-event="${eventId}"][data-state="delivered"]`).waitFor();
    await page.click(`.test-result a:has-text("${eventId}")`);
    await waitForText(page, 'h1', new RegExp(`Event ${eventId} delivered`));
    await page.close();
  });

  it('shows the moderation audit log, filtered by moderator and action, with cursor paging', async () => {
    const { uri } = await uploadEvidence(svc, game, Buffer.from('audited bytes'), 'audit.png');
    const res = await postReport(
      svc,
      game,
      reportBody(game, {
        reporter: { svcid: 'a1' },
        reportee: { svcid: '888001', role_name: 'Audited' },
        reasons: [{ id: 5 }],
        evidence: [{ name: 'audit.png', size_byte: '13', uri }],
      }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const reportId = (await svc.admin('GET', '/reports?reportee=888001')).body.reports[0].reportId;
    for (const [status, note] of [
      ['actioned', 'first look'],
      ['open', 'reopened'],
      ['dismissed', 'not cheating'],
    ]) {
      const decided = await svc.admin('POST', `/reports/${reportId}/moderation`, {
        moderator: 'mod-audit',
        status,
        note,
      });
      assert.equal(decided.status, 200, JSON.stringify(decided.body));
    }
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await page.click('nav a:has-text("Reports")');
    await page.waitForSelector('h1:has-text("Reports")');
    await page.click('.tabs a:has-text("Audit log")');
    await page.waitForSelector('h1:has-text("Moderation audit log")');
    await page.fill('#f-moderator', 'mod-audit');
    await clickForApi(page, 'button:has-text("Apply")', '/moderation/audit', 'moderator=mod-audit');
    const rows = await waitForRowCount(page, 3);
    assert.match(page.url(), /moderator=mod-audit/);
    assert.match(
      rows[0]!,
      new RegExp(`set_status\\s+#${reportId}\\s+${game.appId}\\s+mod-audit\\s+open \u2192 dismissed\\s+not cheating`),
    );
    assert.match(rows[2]!, /open \u2192 actioned\s+first look/);

    // Two a page: the API's cursor, then back to the first page.
    await go(svc, page, `/reports/audit?moderator=mod-audit&limit=2`);
    await waitForText(page, '.pager', /Next page/);
    assert.equal(await page.locator('main tbody tr').count(), 2);
    await page.click('button.next');
    await waitForText(page, '.pager', /Last page/);
    assert.match(await page.locator('main tbody').innerText(), /first look/);
    assert.equal(await page.locator('main tbody tr').count(), 1);
    assert.match(page.url(), /cursor=/);
    await page.click('.pager button:has-text("First page")');
    await waitForText(page, '.pager', /Next page/);
    assert.match(await page.locator('main tbody').innerText(), /not cheating/);

    // By action: the evidence view the report page logs for its moderator.
    await go(svc, page, `/reports/${reportId}`);
    await page.waitForSelector('h1:has-text("Report #")');
    await page.click('a:has-text("Audit log of this report")');
    await page.waitForSelector('h1:has-text("Moderation audit log")');
    await page.selectOption('#f-action', 'view_evidence');
    await clickForApi(page, 'button:has-text("Apply")', '/moderation/audit', 'action=view_evidence');
    await waitForText(page, 'main tbody', /^(?![\s\S]*set_status)[\s\S]*view_evidence/);
    assert.match(
      page.url(),
      new RegExp(`reportId=${reportId}.*action=view_evidence|action=view_evidence.*reportId=${reportId}`),
    );
    assert.doesNotMatch(await page.locator('main tbody').innerText(), /set_status/);
    await page.close();
  });

  it('rotates the platform keys and retires the old one after confirming', async () => {
    const before = (await svc.admin('GET', '/platform-keys')).body.keys;
    const old = before.find((k: any) => k.status === 'signing');
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/keys');
    await waitForText(page, 'main table', new RegExp(`${old.kid}[\\s\\S]*signing`));
    await page.click('button:has-text("Rotate keys")');
    await waitForText(page, '.confirm', /Add a new key pair/);
    assert.equal(
      (await svc.admin('GET', '/platform-keys')).body.keys.length,
      before.length,
      'nothing happens before the confirmation',
    );
    await page.click('.confirm button.confirm-yes');
    const added = await waitForText(page, 'p.ok', /New signing key \S+ added/);
    const keys = (await svc.admin('GET', '/platform-keys')).body.keys;
    const signing = keys.find((k: any) => k.status === 'signing');
    assert.equal(keys.length, before.length + 1);
    assert.notEqual(signing.kid, old.kid);
    assert.ok(added.includes(signing.kid), added);
    await waitForText(page, `main tbody tr:has-text("${old.kid}")`, /published/);

    await page.click(`main tbody tr:has-text("${old.kid}") button:has-text("Retire")`);
    await waitForText(page, '.confirm', new RegExp(`Retire ${old.kid}\\?`));
    await page.click('.confirm button.confirm-yes');
    await waitForText(page, 'p.ok', new RegExp(`^Key ${old.kid} retired`));
    await waitForText(page, `main tbody tr:has-text("${old.kid}")`, /retired/);
    assert.equal(
      await page.locator(`main tbody tr:has-text("${old.kid}") button`).count(),
      0,
      'a retired key has no Retire button',
    );
    assert.equal(
      (await svc.admin('GET', '/platform-keys')).body.keys.find((k: any) => k.kid === old.kid).status,
      'retired',
    );
    await page.close();
  });

  it('lists consumption notices (4.6) by app and user, linked to their partner forwards', async () => {
    const shop = await createGame(svc, { name: 'Consuming', partnerUrl: `${gameUrl}/partner` });
    const other = await createGame(svc, { name: 'Other consumer', partnerUrl: `${gameUrl}/partner` });
    const timestamp = Math.floor(Date.now() / 1000);
    const send = async (app: GameApp, userId: string, productCode: string) => {
      const body = signMd5({ userId, roleId: 'r-5', serverId: 's-3', productCode, appId: app.appId }, app.secret, {
        timestamp,
      });
      const res = await svc.fetch('/order/v1/game/pay/notify', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, await res.text());
    };
    await send(shop, '3001', 'potion_small');
    await send(shop, '3002', 'potion_large');
    await send(other, '3001', 'elsewhere');
    const notices = (await svc.admin('GET', `/consumption-notices?appId=${shop.appId}`)).body.notices;
    assert.equal(notices.length, 2);

    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${shop.appId}`);
    await page.click('main a:has-text("Consumption notices")');
    await page.waitForSelector('h1:has-text("Consumption notices")');
    await waitForText(page, 'main tbody', /potion_large/);
    assert.match(page.url(), new RegExp(`appId=${shop.appId}`));
    const rows = await page.locator('main tbody tr').allInnerTexts();
    assert.equal(rows.length, 2, rows.join('\n'));
    assert.match(
      rows[0]!,
      new RegExp(
        `${notices[0].noticeId}\\s.*${shop.appId}\\s+3002\\s+r-5\\s+s-3\\s+potion_large\\s.*${timestamp}\\s+event ${notices[0].eventId}`,
      ),
    );
    assert.doesNotMatch(await mainText(page), /elsewhere/);

    // One a page: the API's nextBefore, then back to the first page.
    await go(svc, page, `/consumption?appId=${shop.appId}&limit=1`);
    await waitForText(page, '.pager', /Next page/);
    assert.match(await page.locator('main tbody').innerText(), /potion_large/);
    await clickForApi(page, 'button.next', '/consumption-notices', `before=${notices[0].noticeId}`);
    await waitForText(page, 'main tbody', /potion_small/);
    assert.equal(await page.locator('main tbody tr').count(), 1);
    await page.click('.pager button:has-text("First page")');
    await waitForText(page, 'main tbody', /potion_large/);
    await go(svc, page, `/consumption?appId=${shop.appId}`);
    await waitForText(page, 'main tbody', /potion_small/);

    await page.fill('#f-userId', '3001');
    await clickForApi(page, 'button:has-text("Apply")', '/consumption-notices', 'userId=3001');
    await waitForRowCount(page, 1);
    assert.match(await page.locator('main tbody').innerText(), /potion_small/);
    assert.match(page.url(), /userId=3001/);
    await page.click(`main tbody a:has-text("event ${notices[1].eventId}")`);
    await waitForText(page, 'h1', new RegExp(`Event ${notices[1].eventId}`));
    assert.match(await mainText(page), /consumption/);
    await page.close();
  });

  it("shows an order's status history after it was placed and paid", async () => {
    const shop = await appWithProducts(svc, { name: 'History Shop' });
    const order = await placeOk(svc, storeOrder(shop.appId));
    await payOk(svc, order.trxNo);
    const api = (await svc.admin('GET', `/orders/${order.trxNo}`)).body;
    assert.ok(Array.isArray(api.statusHistory), 'GET /admin/v1/orders/{trxNo} gives statusHistory');
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/orders/${order.trxNo}`);
    await waitForText(page, 'h1', new RegExp(`Order ${order.trxNo} succeeded`));
    const history = page.locator('main h2:has-text("Status history") + table tbody tr');
    const rows = await history.allInnerTexts();
    assert.equal(rows.length, 3, rows.join('\n'));
    assert.match(rows[0]!, /\(created\)\s+created/);
    assert.match(rows[1]!, /created\s+awaiting payment/);
    assert.match(rows[2]!, /awaiting payment\s+succeeded/);
    await page.close();
  });

  it('signs an operator account in (name, password, TOTP) and names it in the audit trail; the cookie is out of reach of scripts', async () => {
    const zoe = await createOperator(svc, 'zoe', 'operator');
    const { page } = await browser.newPage();
    await signInAccount(svc, page, 'zoe', zoe.password, codeOf(zoe));
    await waitForText(page, 'header.topbar .who', /as zoe \(operator\)/);
    assert.equal(await page.evaluate('document.cookie'), '', 'the session cookie is HttpOnly');
    await go(svc, page, '/apps');
    await page.click('a.button[href="#/apps/new"]');
    await page.fill('#f-name', 'Audited in the console');
    await page.click('button:has-text("Create app")');
    await page.waitForSelector('.secret-value');
    const trail = (await svc.admin('GET', '/admin-actions?operator=zoe')).body.actions;
    assert.deepEqual(
      trail.map((a: any) => [a.event, a.method, a.path]),
      [
        [null, 'POST', '/admin/v1/apps'],
        ['login', 'POST', '/admin/v1/session'],
      ],
    );
    await page.click('nav a:has-text("Audit")');
    await waitForRoute(page, '/admin-actions');
    await page.fill('#f-operator', 'zoe');
    await clickForApi(page, 'button:has-text("Apply")', '/admin-actions', 'operator=');
    const rows = await waitForRowCount(page, 2);
    assert.match(rows[0]!, /zoe\s+POST \/admin\/v1\/apps\s/);
    assert.match(rows[1]!, /zoe\s+POST \/admin\/v1\/session\s+login/);
    await page.click('button.signout');
    await waitForText(page, '.notice', /signed out/);
    assert.equal((await svc.admin('GET', '/admin-actions?operator=zoe')).body.actions[0].event, 'logout');
    await page.close();
  });

  it('a moderator account opens the report queue but is refused the platform keys, in the page', async () => {
    const mod = await createOperator(svc, 'mod-account', 'moderator');
    const { page } = await browser.newPage();
    await signInAccount(svc, page, 'mod-account', mod.password, mod.recoveryCodes[0]!);
    await waitForText(page, 'header.topbar .who', /as mod-account \(moderator\)/);
    await go(svc, page, '/keys');
    await waitForText(page, 'main', /40303[\s\S]*keys\.read/);
    await go(svc, page, '/reports');
    await page.waitForSelector('main table, main .empty, main p');
    assert.doesNotMatch(await mainText(page), /40303/);
    await page.close();
  });

  it("finds an app's orders by status and type", async () => {
    const shop = await appWithProducts(svc, { name: 'Filter Shop' });
    const paid = await placeOk(svc, storeOrder(shop.appId));
    await payOk(svc, paid.trxNo);
    const waiting = await placeOk(svc, storeOrder(shop.appId));
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/orders?appId=${shop.appId}`);
    await waitForText(page, 'main table', new RegExp(`${waiting.trxNo}[\\s\\S]*${paid.trxNo}`));
    await page.selectOption('#f-status', '2');
    await page.selectOption('#f-trxType', '0');
    await clickForApi(page, 'button:has-text("Apply")', '/admin/v1/orders?', 'status=2');
    assert.match(page.url(), /status=2/);
    const rows = await waitForRowCount(page, 1);
    assert.match(rows[0]!, new RegExp(`^${waiting.trxNo}\\b[\\s\\S]*awaiting payment`));
    await page.close();
  });
});
