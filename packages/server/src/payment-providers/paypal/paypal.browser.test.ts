import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowser, waitForText, type TestBrowser } from '../../testing/console/console.js';
import {
  assertNoHorizontalScroll,
  notificationsOf,
  webViewPage,
} from '../../testing/payment-providers/payment-providers.js';
import { startPaypal, type PaypalFixture } from '../../testing/payment-providers/paypal.js';

/**
 * A player buys with PayPal through the fake's approval page in headless Chromium, at phone and desktop width, in the
 * game's web view and on the official page: the service captures the approved order when the player is back (the
 * return itself pays nothing), the game receives one verified 2.4 per order with channel 5 and the capture id as
 * bankTrxNo, and the result view shows the order paid. A player who cancels at PayPal comes back to an unpaid order.
 */
describe('PayPal in the browser: payments through the approval page', () => {
  let f: PaypalFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startPaypal({ PROVIDER_LATE_QUERY_SECONDS: '1' }), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  /** From the shop to the result: PayPal chosen, the fake's approval page, Pay Now, back to the page. */
  async function buyWithPaypal(page: Page): Promise<number> {
    await page.fill('.product[data-code="gems_100"] input', '2');
    await waitForText(page, '#quote-total', /\$9\.98/);
    await page.check('input[name="method"][value="paypal"]');
    await page.click('#btn-pay');
    await page.waitForURL(/\/checkoutnow\?token=[A-Z0-9]+$/);
    assert.equal(await page.locator('#amount').innerText(), '9.98');
    assert.deepEqual(await page.locator('.line').allInnerTexts(), ['100 gems × 2']);
    await page.fill('#email', 'player@example.com');
    await page.click('#btn-approve');
    await page.waitForURL(/\/pay\/[^/]+\?trxNo=\d+&token=[A-Z0-9]+&PayerID=[A-Z0-9]+$/);
    const trxNo = Number(new URL(page.url()).searchParams.get('trxNo'));
    await waitForText(page, '#result-status', /Paid/);
    assert.equal(await page.locator('#result-trx').innerText(), String(trxNo));
    assert.match(await page.locator('#result-amount').innerText(), /\$9\.98/);
    return trxNo;
  }

  async function checkGame(trxNo: number, userId: string) {
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const notes = notificationsOf(f, trxNo);
    assert.equal(notes.length, 1, 'one 2.4 per order');
    const order = [...f.paypal.orders.values()].find((o) => o.purchase_units[0].custom_id === String(trxNo))!;
    assert.equal(order.status, 'COMPLETED', 'captured by the service');
    assert.equal(notes[0].channel, 5);
    assert.equal(notes[0].bankTrxNo, f.paypal.captureOf(order.id).id);
    assert.match(notes[0].bankTrxNo, /^[A-Z0-9]{17}$/);
    assert.equal(notes[0].userId, userId);
    assert.equal(notes[0].totalAmount, 9.98);
  }

  for (const width of [360, 1280]) {
    it(`in the web view at ${width} px`, async () => {
      const { page, errors, link } = await webViewPage(f, browser, `wv-${width}`, width);
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['PayPal']);
      const trxNo = await buyWithPaypal(page);
      await checkGame(trxNo, link.login.userId);
      await assertNoHorizontalScroll(page);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`on the official page at ${width} px, in Simplified Chinese; a cancel at PayPal pays nothing`, async () => {
      await browser.context.clearCookies();
      f.state.roles.set(`s1/off-${width}`, { userId: `official-${width}`, name: `Official ${width}` });
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${f.svc.url}/pay/${f.overseas.clientId}`);
      await page.click('#lang-zh-CN');
      await page.fill('#f-server', 's1');
      await page.fill('#f-role', `off-${width}`);
      await page.click('#btn-check-role');
      await waitForText(page, '#role-name', new RegExp(`Official ${width}`));
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['PayPal']);

      // Cancelled at PayPal: back on the page, the order still awaits payment and nothing was captured.
      await page.fill('.product[data-code="pass"] input', '1');
      await page.click('#btn-pay');
      await page.waitForURL(/\/checkoutnow\?token=/);
      const cancelled = new URL(page.url()).searchParams.get('token')!;
      await page.click('#cancel-link');
      await page.waitForURL(/\/pay\/[^/]+\?trxNo=\d+&token=[A-Z0-9]+$/);
      await waitForText(page, '#result-status', /等待支付/);
      assert.equal(f.paypal.orders.get(cancelled)!.status, 'PAYER_ACTION_REQUIRED');
      const unpaid = Number(new URL(page.url()).searchParams.get('trxNo'));
      assert.equal(notificationsOf(f, unpaid).length, 0);

      // Back to the shop (the session keeps the confirmed role), and paid this time.
      await page.goto(`${f.svc.url}/pay/${f.overseas.clientId}`);
      await page.click('#lang-en');
      await waitForText(page, '#role-name', new RegExp(`Official ${width}`));
      const trxNo = await buyWithPaypal(page);
      await checkGame(trxNo, `official-${width}`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
