import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { createGame, postReport, reportBody } from '../testing/reporting/reporting.js';
import { go, signIn, startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';

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
    const api = await svc.admin('POST', '/apps', {
      name: 'Bad URLs',
      callbackUrls: { default: 'ftp://game.example/callback' },
    });
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
    for (const [route, what] of [
      ['/apps/999999', 'App'],
      ['/reports/999999', 'Report'],
      ['/users/999999', 'User'],
      ['/orders/999999', 'Order'],
      ['/events/999999', 'Event'],
    ] as const) {
      await go(svc, page, route);
      const message = await waitForText(page, '.notfound', /not found/);
      assert.equal(message, `${what} 999999 was not found.`);
      assert.match(await page.locator('.error').innerText(), /40400/);
    }
    const game = await createGame(svc);
    await go(svc, page, `/apps/${game.appId}/products/no-such-product`);
    assert.equal(await waitForText(page, '.notfound', /not found/), 'Product no-such-product was not found.');
    assert.match(await page.locator('.error').innerText(), /40400/);
    await go(svc, page, '/no-such-page');
    await waitForText(page, 'main', /Not found: there is no page \/no-such-page/);
    await page.close();
  });

  it('shows validation errors of list filters and refused moderation decisions', async () => {
    const game = await createGame(svc);
    const res = await postReport(
      svc,
      game,
      reportBody(game, { reportee: { role_id: 'r77', server_code: 's1', role_name: 'No account' } }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const reportId = (await svc.admin('GET', `/reports?appId=${game.appId}`)).body.reports[0].reportId;

    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/users?userId=not-a-number');
    const invalid = await waitForText(page, '.error', /40000/);
    assert.match(invalid, /userId/);

    await go(svc, page, '/reports?appId=abc');
    assert.match(await waitForText(page, '.error', /40000/), /appId/);

    await go(svc, page, '/reports/audit?cursor=not-a-cursor');
    assert.match(await waitForText(page, '.error', /40000/), /cursor/);

    await go(svc, page, '/consumption?appId=abc');
    assert.match(await waitForText(page, '.error', /40000/), /appId/);

    // A decision the API refuses: the report changed meanwhile (expectedStatus no longer holds).
    await go(svc, page, `/reports/${reportId}`);
    await page.waitForSelector('#f-note');
    assert.match(await page.locator('main').innerText(), /cannot be banned from here/);
    const changed = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: 'other',
      status: 'dismissed',
      note: 'meanwhile',
    });
    assert.equal(changed.status, 200);
    await page.fill('#f-note', 'too late');
    await page.click('button:has-text("Save decision")');
    const again = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: 'x',
      status: 'actioned',
      note: 'n',
      expectedStatus: 'open',
    });
    assert.ok(again.status >= 400, JSON.stringify(again.body));
    const shown = await waitForText(page, '.moderation .error', new RegExp(String(again.body.code)));
    assert.ok(shown.includes(again.body.msg), shown);
    await page.close();
  });

  it('shows refused products (a bad price, a duplicate code) with the code, message and detail the API answered', async () => {
    const game = await createGame(svc);
    const dup = await svc.admin('POST', `/apps/${game.appId}/products`, {
      productCode: 'dup',
      name: 'First',
      price: 1,
      currency: 'USD',
    });
    assert.equal(dup.status, 201, JSON.stringify(dup.body));
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${game.appId}/new-product`);
    await page.fill('#f-productCode', 'gems');
    await page.fill('#f-name', 'Gems');
    await page.fill('#f-price', '6.999');
    await page.fill('#f-currency', 'USD');
    await page.click('button:has-text("Create product")');
    const badPrice = await svc.admin('POST', `/apps/${game.appId}/products`, {
      productCode: 'gems',
      name: 'Gems',
      price: '6.999',
      currency: 'USD',
      channelSkus: {},
    });
    assert.equal(badPrice.status, 400, JSON.stringify(badPrice.body));
    let shown = await waitForText(page, '.error', new RegExp(String(badPrice.body.code)));
    assert.ok(shown.includes(badPrice.body.msg) && shown.includes(badPrice.body.detail), shown);
    assert.match(shown, /HTTP 400/);
    assert.match(badPrice.body.detail, /price/);

    await page.fill('#f-productCode', 'dup');
    await page.fill('#f-price', '2');
    await page.click('button:has-text("Create product")');
    const again = await svc.admin('POST', `/apps/${game.appId}/products`, {
      productCode: 'dup',
      name: 'Gems',
      price: '2',
      currency: 'USD',
      channelSkus: {},
    });
    assert.equal(again.status, 409, JSON.stringify(again.body));
    shown = await waitForText(page, '.error', /HTTP 409/);
    assert.ok(shown.includes(String(again.body.code)) && shown.includes(again.body.detail), shown);
    assert.equal(
      (await svc.admin('GET', `/apps/${game.appId}/products/dup`)).body.name,
      'First',
      'the existing product is unchanged',
    );
    assert.equal(page.url().endsWith(`/apps/${game.appId}/new-product`), true, 'still on the form');

    // A bad price on edit: the edit form stays, with the error.
    await go(svc, page, `/apps/${game.appId}/products/dup`);
    await page.waitForSelector('h1:has-text("First")');
    await page.click('button:text-is("Edit")');
    await page.fill('#f-price', '1.2.3');
    await page.click('button:has-text("Save changes")');
    const patched = await svc.admin('PATCH', `/apps/${game.appId}/products/dup`, {
      name: 'First',
      channelSkus: {},
      price: '1.2.3',
    });
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    shown = await waitForText(page, '.error', new RegExp(String(patched.body.code)));
    assert.ok(shown.includes(patched.body.detail), shown);
    assert.equal(await page.locator('#f-price').inputValue(), '1.2.3');
    assert.equal((await svc.admin('GET', `/apps/${game.appId}/products/dup`)).body.priceMinor, 100);
    await page.close();
  });

  it('shows the 409 CONFLICT detail when retiring the signing key is refused', async () => {
    const signing = (await svc.admin('GET', '/platform-keys')).body.keys.find((k: any) => k.status === 'signing');
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/keys');
    await page.click(`main tbody tr:has-text("${signing.kid}") button:has-text("Retire")`);
    await waitForText(page, '.confirm', /is the signing key/);
    await page.click('.confirm button.confirm-yes');
    const refused = await svc.admin('POST', `/platform-keys/${signing.kid}/retire`);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 40900);
    const shown = await waitForText(page, '.error', /40900/);
    assert.match(shown, /HTTP 409/);
    assert.ok(shown.includes(refused.body.msg), shown);
    assert.ok(shown.includes(refused.body.detail), shown);
    assert.match(refused.body.detail, /signing key; rotate before retiring it/);
    assert.equal(await page.locator('p.ok').count(), 0);
    await waitForText(page, `main tbody tr:has-text("${signing.kid}")`, /signing/);
    assert.equal(
      (await svc.admin('GET', '/platform-keys')).body.keys.find((k: any) => k.kid === signing.kid).status,
      'signing',
    );
    await page.close();
  });

  it('shows refused delivery tools: recovery without a time, a test event with a bad server id', async () => {
    const game = await createGame(svc);
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${game.appId}/delivery`);
    await page.waitForSelector('#f-since');
    await page.fill('#f-since', '');
    await page.click('button:has-text("Recover dead events")');
    await page.click('.confirm button.confirm-yes');
    const recover = await svc.admin('POST', `/apps/${game.appId}/events/recover`, { since: '' });
    assert.equal(recover.status, 400, JSON.stringify(recover.body));
    const shown = await waitForText(page, '.recover .error', new RegExp(String(recover.body.code)));
    assert.ok(shown.includes(recover.body.detail), shown);
    assert.match(shown, /since/);

    await page.fill('#f-testServerId', 'not a server id!');
    await page.click('button:has-text("Send test event")');
    await page.click('.confirm button.confirm-yes');
    assert.match(await waitForText(page, '.test-event .error', /40000/), /serverId/);
    assert.equal(await page.locator('.test-event .test-result').count(), 0);
    assert.deepEqual((await svc.admin('GET', `/events?appId=${game.appId}`)).body.events, [], 'no event was sent');
    await page.close();
  });
});
