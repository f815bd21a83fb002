import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '../testing/service.js';
import { guestLogin } from '../accounts/accounts.testlib.js';
import { createGame, postReport, reportBody, uploadEvidence, type GameApp } from '../reporting/reporting.testlib.js';
import { FAST, waitForEvent } from '../delivery/delivery.testlib.js';
import { go, mainText, signIn, startBrowser, waitForText, type TestBrowser } from './console.testlib.js';

/** The operator console in headless Chromium against a real service: the everyday flows. */
describe('operator console (happy paths)', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let game: GameApp;
  let gameServer: http.Server;
  let gameStatus = 500;
  let gameUrl: string;

  before(async () => {
    gameServer = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.statusCode = gameStatus; res.end(gameStatus === 200 ? 'ok' : 'down'); }); });
    await new Promise<void>((resolve) => gameServer.listen(0, '127.0.0.1', resolve));
    gameUrl = `http://127.0.0.1:${(gameServer.address() as AddressInfo).port}`;
    [svc, browser] = await Promise.all([startTestService(FAST), startBrowser()]);
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
    await page.waitForSelector('main table');
    assert.match(await mainText(page), /Dragon Saga/);
    assert.match(await page.locator('header').innerText(), /as mod-test/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('creates an app, shows its secret once, edits it and rotates the secret after confirming', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
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
    assert.deepEqual(created.callbackUrls, { default: 'https://game.example/pay/callback', s1: 'https://s1.game.example/pay/callback' });
    assert.deepEqual(created.allowedIps, ['203.0.113.7', '198.51.100.0/24']);
    assert.equal(created.roleQueryUrl, 'https://game.example/role');
    const record = await svc.services.apps.resolveByClientId(created.clientId);
    assert.equal(record?.secrets[0], secret, 'the secret shown is the app secret');

    // The detail page never shows it again.
    await page.click('a:has-text("Open the app")');
    await page.waitForSelector('h1:has-text("Console Created")');
    assert.equal(await page.locator('.secret').count(), 0);
    assert.doesNotMatch(await mainText(page), new RegExp(secret));

    // Edit: rename and clear the role query URL.
    await page.click('button:has-text("Edit")');
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
    const posted = await postReport(svc, game, reportBody(game, {
      reportee: { svcid: cheater.userId, role_id: 'r9', server_code: 's1', role_name: 'Speedy', extra: '' },
      user_description: 'flies across the map',
      evidence: [{ name: 'clip.png', size_byte: '14', uri }],
    }));
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
    assert.equal((await svc.admin('GET', `/reports/${reportId}`)).body.status, 'open', 'nothing is decided before the confirmation');
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
      const res = await postReport(svc, game, reportBody(game, { reporter: { svcid: reporter }, reportee: { svcid: '777001', role_name: 'Repeat' }, reasons: [{ id: 3 }] }));
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
    await page.waitForSelector('main tbody tr');
    assert.equal(await page.locator('main tbody tr').count(), 2);
    await page.close();
  });

  it('pages through reports with the API cursor', async () => {
    const other = await createGame(svc, { name: 'Paged' });
    for (const reporter of ['p1', 'p2', 'p3']) {
      const res = await postReport(svc, other, reportBody(other, { reporter: { svcid: reporter }, reportee: { svcid: '555', role_name: 'Paged target' }, reasons: [{ id: 1 }] }));
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
    const { body: { eventId } } = await svc.admin('POST', `/apps/${game.appId}/test-events`, { type: 'payment' });
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

  it('finds one player\'s game calls by role id', async () => {
    const app = (await svc.services.apps.resolveByClientId(game.clientId))!;
    const target = { ...app, roleQueryUrl: `${gameUrl}/role`, roleListUrl: `${gameUrl}/roles` };
    await svc.services.gameCalls.roleQuery(target, { roleId: 'r-9', serverId: 's-2' });
    await svc.services.gameCalls.roleList(target, { userId: 'u-7' });
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${game.appId}/game-calls`);
    await waitForText(page, 'main table', /user u-7/);
    await page.fill('#f-roleId', 'r-9');
    await page.click('button:has-text("Apply")');
    await waitForText(page, 'main', /role r-9, server s-2/);
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
});
