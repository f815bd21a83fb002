import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDeveloper } from '../testing/portal/portal.js';
import { go, signIn, startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { refundNotesOf, startCase, type RefundCase } from '../testing/payment-providers/refunds.js';

/**
 * The refund button of the console's order page and of the portal's player orders, in headless Chromium at 1280 px,
 * against the fake Stripe: a double click is one refund at the provider and one 2.5; the provider's refusal shows
 * its error and leaves the order paid.
 */
describe('refunds (browser)', () => {
  let c: RefundCase;
  let browser: TestBrowser;
  before(async () => {
    [c, browser] = await Promise.all([startCase('stripe'), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await c?.close();
  });

  it("console: the order page refunds part of a web order once on a double click, and shows the provider's refusal", async () => {
    const { trxNo } = await c.paidOrder('console-1', 2);
    const { page, errors, dialogs } = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(c.f.svc, page);
    await go(c.f.svc, page, `/orders/${trxNo}`);
    await waitForText(page, 'main .refund-requests h2', /Refunds through stripe/);
    await page.fill('.refund-form #f-amount', '2.00');
    await page.fill('.refund-form #f-reason', 'one item never arrived');
    await page.dblclick('#refund-submit');
    await waitForText(page, 'main .refund-form .ok', /succeeded, 2 USD at stripe/);
    await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length > 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(c.refundCalls().length, 1, 'one call at the provider');
    assert.equal(refundNotesOf(c.f, trxNo).length, 1, 'one 2.5');
    await waitForText(page, 'main .refund-requests table', /one item never arrived/);
    assert.equal(await page.locator('main .refund-requests tbody tr').count(), 1);

    c.refuse('charge_disputed');
    try {
      await page.fill('.refund-form #f-reason', 'goodwill');
      await page.click('#refund-submit');
      await waitForText(page, 'main .refund-form .error', /40956[\s\S]*charge_disputed/);
    } finally {
      c.refuse(null);
    }
    assert.equal((await c.f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 0, 'still paid');
    assert.equal(refundNotesOf(c.f, trxNo).length, 1);
    const fits = await page.evaluate(() => {
      const g = globalThis as any;
      return g.document.documentElement.scrollWidth <= g.innerWidth;
    });
    assert.ok(fits, 'no horizontal scrolling at 1280 px');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("portal: a developer granted refunds of the app refunds a player's paid order once", async () => {
    const { trxNo } = await c.paidOrder('portal-1', 1);
    const order = (await c.f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
    const dev = await createDeveloper(c.f.svc, 'refund.dev', [c.appId]);
    const ordersUrl = `${c.f.svc.url}/portal#/apps/${c.appId}/player-orders?userId=${encodeURIComponent(order.userId)}`;
    const portalTab = async () => {
      const tab = await browser.newPage();
      await tab.page.setViewportSize({ width: 1280, height: 900 });
      await tab.page.goto(`${c.f.svc.url}/portal`);
      await tab.page.fill('#f-name', dev.name);
      await tab.page.fill('#f-password', dev.password);
      await tab.page.fill('#f-totp', dev.recoveryCodes.shift()!);
      await tab.page.click('form.portal-signin button[type=submit]');
      await waitForText(tab.page, 'header', /as refund\.dev/);
      await tab.page.goto(ordersUrl);
      await tab.page.locator(`table.orders tbody tr[data-trx="${trxNo}"]`).waitFor();
      return tab;
    };
    // Without the grant: the order, no refund button.
    const before = await portalTab();
    assert.equal(await before.page.locator('button.refund-open').count(), 0);
    await before.page.close();

    // An operator grants the developer refunds of the app on its console page.
    const consoleTab = await browser.newPage();
    await signIn(c.f.svc, consoleTab.page);
    await go(c.f.svc, consoleTab.page, '/people/developers/refund.dev');
    await consoleTab.page.fill('#f-developerRefundAppIds', String(c.appId));
    await consoleTab.page.click('button.save-apps');
    await waitForText(consoleTab.page, '.developer-detail .details', new RegExp(`refunds: ${c.appId}`));
    assert.deepEqual((await c.f.svc.admin('GET', '/studio-developers/refund.dev')).body.refundAppIds, [c.appId]);
    assert.deepEqual(consoleTab.errors, []);
    await consoleTab.page.close();
    const { page, errors, dialogs } = await portalTab();
    const row = page.locator(`table.orders tbody tr[data-trx="${trxNo}"]`);
    await row.waitFor();
    const calls = c.refundCalls().length;
    await row.locator('button.refund-open').click();
    await page.fill('.refund #f-reason', 'the player asked the studio');
    await page.dblclick('#refund-submit');
    await waitForText(page, 'main .refund-form .ok', /succeeded, 4\.99 USD at stripe/);
    await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length > 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(c.refundCalls().length, calls + 1);
    assert.equal(refundNotesOf(c.f, trxNo).length, 1);
    const refunds = (await c.f.svc.admin('GET', `/orders/${trxNo}/refunds`)).body.refunds;
    assert.deepEqual(
      refunds.map((r: any) => [r.requestedBy, r.state]),
      [['studio:refund.dev', 'succeeded']],
    );
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
