import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { createGame, postReport, reportBody } from '../reporting/reporting.testlib.js';
import { go, signIn, startBrowser, waitForText, type TestBrowser } from './console.testlib.js';

/** API errors reach the operator: code, message and detail of the 2.3 envelope, and plain not-found messages. */
describe('operator console (errors)', () => {
  let svc: TestService;
  let browser: TestBrowser;

  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('shows a refused app creation with the code, message and detail the API answered', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/apps/new');
    await page.fill('#f-name', 'Bad URLs');
    await page.fill('#f-callbackUrls', 'ftp://game.example/callback');
    await page.click('button:has-text("Create app")');
    const api = await svc.admin('POST', '/apps', { name: 'Bad URLs', callbackUrls: { default: 'ftp://game.example/callback' } });
    assert.equal(api.status, 400);
    const shown = await waitForText(page, '.error', new RegExp(String(api.body.code)));
    assert.ok(shown.includes(api.body.msg), shown);
    assert.ok(shown.includes(api.body.detail), shown);
    assert.match(shown, /HTTP 400/);
    assert.equal(await page.locator('.secret').count(), 0);
    await page.close();
  });

  it('shows a not-found message for an unknown app, report, user, order and event', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    for (const [route, what] of [['/apps/999999', 'App'], ['/reports/999999', 'Report'], ['/users/999999', 'User'], ['/orders/999999', 'Order'], ['/events/999999', 'Event']] as const) {
      await go(svc, page, route);
      const message = await waitForText(page, '.notfound', /not found/);
      assert.equal(message, `${what} 999999 was not found.`);
      assert.match(await page.locator('.error').innerText(), /40400/);
    }
    await go(svc, page, '/no-such-page');
    await waitForText(page, 'main', /Not found: there is no page \/no-such-page/);
    await page.close();
  });

  it('shows validation errors of list filters and refused moderation decisions', async () => {
    const game = await createGame(svc);
    const res = await postReport(svc, game, reportBody(game, { reportee: { role_id: 'r77', server_code: 's1', role_name: 'No account' } }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const reportId = (await svc.admin('GET', `/reports?appId=${game.appId}`)).body.reports[0].reportId;

    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/users?userId=not-a-number');
    const invalid = await waitForText(page, '.error', /40000/);
    assert.match(invalid, /userId/);

    await go(svc, page, '/reports?appId=abc');
    assert.match(await waitForText(page, '.error', /40000/), /appId/);

    // A decision the API refuses: the report changed meanwhile (expectedStatus no longer holds).
    await go(svc, page, `/reports/${reportId}`);
    await page.waitForSelector('#f-note');
    assert.match(await page.locator('main').innerText(), /cannot be banned from here/);
    const changed = await svc.admin('POST', `/reports/${reportId}/moderation`, { moderator: 'other', status: 'dismissed', note: 'meanwhile' });
    assert.equal(changed.status, 200);
    await page.fill('#f-note', 'too late');
    await page.click('button:has-text("Save decision")');
    const again = await svc.admin('POST', `/reports/${reportId}/moderation`, { moderator: 'x', status: 'actioned', note: 'n', expectedStatus: 'open' });
    assert.ok(again.status >= 400, JSON.stringify(again.body));
    const shown = await waitForText(page, '.moderation .error', new RegExp(String(again.body.code)));
    assert.ok(shown.includes(again.body.msg), shown);
    await page.close();
  });
});
