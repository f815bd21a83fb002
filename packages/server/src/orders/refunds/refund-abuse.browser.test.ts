import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { totpCode } from '../../identity/credentials.js';
import { createDeveloper, type TestDeveloper } from '../../testing/portal/portal.js';
import {
  go,
  signIn,
  startBrowser,
  waitForRoute,
  waitForRowCount,
  waitForText,
  type TestBrowser,
} from '../../testing/console/console.js';
import { anotherApp, refundedPurchase, startRefundWorld, type RefundWorld } from '../../testing/orders/refund-abuse.js';

/**
 * Refund abuse in the operator console and the studio portal, in headless Chromium, against refunds made through the
 * store refund flow: the figures shown, each player's link to its orders, paging, the order settings' option; a
 * player id that is markup is shown as text; a stranger studio's session sees none of it.
 */
describe('refund abuse (browser)', () => {
  let w: RefundWorld;
  let browser: TestBrowser;
  let appB: any;
  let devA: TestDeveloper;
  let devB: TestDeveloper;
  const hostile = '<img src=x onerror=alert(1)>';
  /** The orders of player 8001 in app A, newest first (trxNo). */
  let ordersOf8001: number[];
  /** Its refund orders (trxType 2), newest first. */
  let refundsOf8001: number[];

  before(async () => {
    [w, browser] = await Promise.all([startRefundWorld(), startBrowser()]);
    appB = await anotherApp(w, 'Stranger Studio game', 1, 'USD');
    // App A: 8001 refunds three times (USD and KWD), 8002 twice, a player whose id is markup once (never granted).
    await refundedPurchase(w.svc, w.app.appId, '8001');
    await refundedPurchase(w.svc, w.app.appId, '8001', { quantity: 2 });
    await refundedPurchase(w.svc, w.app.appId, '8001', { productCode: 'kwd_item', channel: 2 });
    await refundedPurchase(w.svc, w.app.appId, '8002', { quantity: 4 });
    await refundedPurchase(w.svc, w.app.appId, '8002');
    w.refusedUsers.add(hostile);
    await refundedPurchase(w.svc, w.app.appId, hostile, { granted: false });
    // App B (another studio): 8001 refunds there too, and 8003.
    await refundedPurchase(w.svc, appB.appId, '8001');
    await refundedPurchase(w.svc, appB.appId, '8003');
    ordersOf8001 = (await w.svc.admin('GET', `/orders?appId=${w.app.appId}&userId=8001`)).body.orders.map(
      (o: any) => o.trxNo,
    );
    assert.equal(ordersOf8001.length, 6, 'three payments and their refunds');
    refundsOf8001 = (await w.svc.admin('GET', `/orders?appId=${w.app.appId}&userId=8001&trxType=2`)).body.orders.map(
      (o: any) => o.trxNo,
    );
    devA = await createDeveloper(w.svc, 'studio-a.dev', [w.app.appId]);
    devB = await createDeveloper(w.svc, 'studio-b.dev', [appB.appId]);
  });
  after(async () => {
    await browser?.close();
    await w?.close();
  });

  it('console: shows the refunders of the app with their figures, each linking to its orders', async () => {
    const { page, errors, dialogs, consoleErrors } = await browser.newPage();
    await signIn(w.svc, page);
    await go(w.svc, page, `/apps/${w.app.appId}`);
    await page.click('main a:has-text("Refund abuse")');
    await waitForRoute(page, `/apps/${w.app.appId}/refunders`);
    const rows = await waitForRowCount(page, 3);
    assert.match(rows[0]!, /^8001\t3\t0 \/ 0\t1\.25 KWD \+ 20\.97 USD\t3\t\S/);
    assert.match(rows[1]!, /^8002\t2\t0 \/ 0\t34\.95 USD\t2\t\S/);
    assert.ok(rows[2]!.startsWith(`${hostile}\t1\t0 / 0\t6.99 USD\t0\t`), rows[2]);
    assert.equal(await page.locator('main img').count(), 0, 'the markup of a player id is text');
    assert.deepEqual(dialogs, []);
    assert.doesNotMatch(await page.locator('main').innerText(), /Stranger|8003/);

    // The player's link: the orders page filtered by the app and the player.
    await page.click('main tbody tr:first-child a.player-orders');
    await waitForRoute(page, '/orders');
    assert.deepEqual(
      new URLSearchParams(new URL(page.url()).hash.split('?')[1]).toString(),
      `appId=${w.app.appId}&userId=8001`,
    );
    const orderRows = await waitForRowCount(page, 6);
    assert.deepEqual(
      orderRows.map((r) => Number(r.split('\t')[0])),
      ordersOf8001,
    );
    assert.equal(await page.inputValue('#f-userId'), '8001');

    // The refunds count links to the refund orders alone; the pending count to the supplements owed.
    await page.goBack();
    await waitForRoute(page, `/apps/${w.app.appId}/refunders`);
    await waitForRowCount(page, 3);
    await page.click('main tbody tr:first-child a.refund-orders');
    await waitForRoute(page, '/orders');
    const refundRows = await waitForRowCount(page, 3);
    assert.deepEqual(
      refundRows.map((r) => Number(r.split('\t')[0])),
      refundsOf8001,
    );
    assert.ok(
      refundRows.every((r) => /\tsucceeded\t[0-9.]+ [A-Z]{3}\trefund\t/.test(r)),
      JSON.stringify(refundRows),
    );
    await page.goBack();
    await waitForRowCount(page, 3);
    await page.click('main tbody tr:first-child a.supplements');
    await waitForRoute(page, '/supplements');
    const owed = await waitForRowCount(page, 3);
    assert.ok(
      owed.every((r) => /\t8001\t/.test(r) && /pending/.test(r)),
      JSON.stringify(owed),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });

  it('console: pages the refunders with the window pinned, filters a currency and refuses a bad filter', async () => {
    const { page, errors } = await browser.newPage();
    await signIn(w.svc, page);
    await go(w.svc, page, `/apps/${w.app.appId}/refunders?limit=2`);
    assert.deepEqual(
      (await waitForRowCount(page, 2)).map((r) => r.split('\t')[0]),
      ['8001', '8002'],
    );
    await page.click('main nav.pager button.next');
    await waitForText(page, 'main tbody', /onerror/);
    const next = new URLSearchParams(new URL(page.url()).hash.split('?')[1]);
    assert.ok(next.get('cursor') && next.get('from') && next.get('to'), page.url());
    assert.deepEqual(
      (await waitForRowCount(page, 1)).map((r) => r.split('\t')[0]),
      [hostile],
    );
    await page.click('main nav.pager button:has-text("First page")');
    await waitForRowCount(page, 2);

    await page.fill('#f-currency', 'KWD');
    await page.click('form.filters button[type=submit]');
    await waitForText(page, 'main .window', /in KWD/);
    await waitForRowCount(page, 1);
    assert.match(await page.locator('main tbody tr').first().innerText(), /^8001\t1\t0 \/ 0\t1\.25 KWD\t3\t/);

    await page.fill('#f-currency', 'kwd');
    await page.click('form.filters button[type=submit]');
    await waitForText(page, 'main .error', /40000/);
    assert.match(await page.locator('main .error').innerText(), /currency/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("console: sets the app's option refusing store orders of players in arrears", async () => {
    const { page, errors } = await browser.newPage();
    await signIn(w.svc, page);
    await go(w.svc, page, `/apps/${w.app.appId}/orders`);
    await waitForText(page, '.order-settings', /Store orders in arrears\s+allowed/);
    await page.click('.order-settings button:has-text("Edit order settings")');
    assert.equal(await page.isChecked('#f-refuseStoreOrdersInArrears'), false);
    await page.check('#f-refuseStoreOrdersInArrears');
    await page.click('.order-settings button[type=submit]');
    await waitForText(page, '.order-settings', /Store orders in arrears\s+refused/);
    assert.deepEqual((await w.svc.admin('GET', `/apps/${w.app.appId}/order-settings`)).body, {
      appId: w.app.appId,
      webRegionLock: false,
      refuseStoreOrdersInArrears: true,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    // 8001 owes supplements: its next store order is refused.
    const refused = await w.svc.admin('POST', '/sandbox/orders', {
      appId: w.app.appId,
      userId: '8001',
      products: [{ productCode: 'gems_100', quantity: 1 }],
      game_server_id: 's1',
      game_role_id: 'r',
      platform: 1,
      channel: 1,
      paymentType: 0,
    });
    assert.equal(refused.body.code, 40945);
    await page.click('.order-settings button:has-text("Edit order settings")');
    await page.uncheck('#f-refuseStoreOrdersInArrears');
    await page.click('.order-settings button[type=submit]');
    await waitForText(page, '.order-settings', /Store orders in arrears\s+allowed/);
    assert.equal(
      (await w.svc.admin('GET', `/apps/${w.app.appId}/order-settings`)).body.refuseStoreOrdersInArrears,
      false,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  /** Signs a studio developer in to the portal in a new tab. */
  async function portalPage(dev: TestDeveloper) {
    const tab = await browser.newPage();
    await tab.page.goto(`${w.svc.url}/portal`);
    await tab.page.fill('#f-name', dev.name);
    await tab.page.fill('#f-password', dev.password);
    await tab.page.fill('#f-totp', dev.recoveryCodes.shift()!);
    await tab.page.click('form.portal-signin button[type=submit]');
    await waitForText(tab.page, 'header', new RegExp(`as ${dev.name.replace('.', '\\.')}`));
    return tab;
  }

  it("portal: the studio sees its app's refunders and a player's orders of its app, read-only", async () => {
    const { page, errors, dialogs, consoleErrors } = await portalPage(devA);
    await page.goto(`${w.svc.url}/portal#/apps/${w.app.appId}/overview`);
    await page.click(`main a[href="#/apps/${w.app.appId}/refunds"]`);
    await page.locator('table.refunders tbody tr').first().waitFor();
    const rows = await page.locator('table.refunders tbody tr').allInnerTexts();
    assert.equal(rows.length, 3);
    assert.match(rows[0]!, /^8001\t3\t0 \/ 0\t1\.25 KWD \+ 20\.97 USD\t3\t\S/);
    assert.match(rows[1]!, /^8002\t2\t0 \/ 0\t34\.95 USD\t2\t/);
    assert.ok(rows[2]!.startsWith(`${hostile}\t1\t0 / 0\t6.99 USD\t0\t`), rows[2]);
    assert.equal(await page.locator('main img').count(), 0);
    assert.deepEqual(dialogs, []);

    await page.click('tr[data-user="8001"] a.player-orders');
    await page.locator('table.orders tbody tr').first().waitFor();
    assert.match(new URL(page.url()).hash, new RegExp(`^#/apps/${w.app.appId}/player-orders\\?userId=8001$`));
    const orders = await page.locator('table.orders tbody tr').allInnerTexts();
    assert.deepEqual(
      orders.map((r) => Number(r.split('\t')[0])),
      ordersOf8001,
    );
    assert.match(orders[0]!, /\trefund\tsucceeded\t1\.25 KWD\t2\t/);
    assert.doesNotMatch(await page.locator('main').innerText(), /8003|Stranger/);
    // The hostile player's orders: its id goes into the query as text.
    await page.goto(`${w.svc.url}/portal#/apps/${w.app.appId}/refunds`);
    await page.locator('table.refunders tbody tr').nth(2).locator('a.player-orders').click();
    await waitForText(page, 'main .player-orders h2', /Orders of player <img/);
    // The heading comes before the list: wait for its rows.
    await page.locator('table.orders tbody tr').nth(1).waitFor();
    assert.equal(await page.locator('table.orders tbody tr').count(), 2);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });

  it("portal: a stranger studio's session sees none of it", async () => {
    const { page, errors } = await portalPage(devB);
    await page.goto(`${w.svc.url}/portal#/apps/${w.app.appId}/refunds`);
    await waitForText(page, 'main', /not one of yours/);
    assert.doesNotMatch(await page.locator('main').innerText(), /8001|8002|20\.97/);
    await page.goto(`${w.svc.url}/portal#/apps/${w.app.appId}/player-orders?userId=8001`);
    await waitForText(page, 'main', /not one of yours/);
    const answers = await page.evaluate(async (appId) => {
      const r1 = await fetch(`/portal/v1/apps/${appId}/refund-abuse`, { credentials: 'same-origin' });
      const r2 = await fetch(`/portal/v1/apps/${appId}/orders?userId=8001`, { credentials: 'same-origin' });
      const code = async (r: Response) => ((await r.json()) as { code: number }).code;
      return [
        [r1.status, await code(r1)],
        [r2.status, await code(r2)],
      ];
    }, w.app.appId);
    assert.deepEqual(answers, [
      [404, 40400],
      [404, 40400],
    ]);
    // Its own app: its own refunders, with the figures of its own app only.
    await page.goto(`${w.svc.url}/portal#/apps/${appB.appId}/refunds`);
    await page.locator('table.refunders tbody tr').first().waitFor();
    const rows = await page.locator('table.refunders tbody tr').allInnerTexts();
    assert.deepEqual(
      rows.map((r) => r.split('\t').slice(0, 4).join(' ')),
      ['8001 1 0 / 0 1 USD', '8003 1 0 / 0 1 USD'],
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});
