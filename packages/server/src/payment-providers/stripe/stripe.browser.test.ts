import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowser, waitForText, type TestBrowser } from '../../testing/console/console.js';
import { launchLink } from '../../testing/web-pay/web-pay.js';
import { notificationsOf, startStripe, type StripeFixture } from '../../testing/payment-providers/payment-providers.js';

/**
 * A player buys with a card through Stripe Checkout (the fake's hosted page) in headless Chromium, at phone and
 * desktop width, in the game's web view and on the official page: the game receives one verified 2.4 per order with
 * channel 6 and the PaymentIntent as bankTrxNo, and the result view shows the order paid.
 */
describe('Stripe in the browser: card payments through the hosted checkout page', () => {
  let f: StripeFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startStripe(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  /** From the shop to the result: card chosen, the fake's page, the card, back to the page. */
  async function buyWithCard(page: Page): Promise<number> {
    await page.fill('.product[data-code="gems_100"] input', '2');
    await waitForText(page, '#quote-total', /\$9\.98/);
    await page.check('input[name="method"][value="stripe"]');
    await page.click('#btn-pay');
    await page.waitForURL(/\/c\/pay\/cs_test_/);
    assert.match(await page.locator('#amount').innerText(), /^9\.98$/);
    await page.fill('#cardNumber', '4242 4242 4242 4242');
    await page.click('#submit');
    await page.waitForURL(/\/pay\/[^/]+\?trxNo=\d+$/);
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
    const session = [...f.stripe.sessions.values()].find((s) => s.client_reference_id === String(trxNo))!;
    assert.equal(notes[0].channel, 6);
    assert.equal(notes[0].bankTrxNo, session.payment_intent);
    assert.match(notes[0].bankTrxNo, /^pi_/);
    assert.equal(notes[0].userId, userId);
    assert.equal(notes[0].totalAmount, 9.98);
  }

  for (const width of [360, 1280]) {
    it(`in the web view at ${width} px`, async () => {
      await browser.context.clearCookies();
      const link = await launchLink(f, f.overseas, { roleId: `wv-${width}`, serverId: 's1' });
      f.state.roles.set(`s1/wv-${width}`, { userId: link.login.userId, name: `Hero ${width}` });
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(link.url);
      await page.click('#lang-en');
      await waitForText(page, '#role-name', new RegExp(`Hero ${width}`));
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['Card', 'Sandbox (test)']);
      const trxNo = await buyWithCard(page);
      await checkGame(trxNo, link.login.userId);
      const scroll = await page.evaluate(() => {
        const g = globalThis as any;
        return g.document.documentElement.scrollWidth <= g.innerWidth;
      });
      assert.ok(scroll, 'no horizontal scrolling');
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`on the official page at ${width} px, in Simplified Chinese`, async () => {
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
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['银行卡', '沙盒（测试）']);
      await page.click('#lang-en');
      const trxNo = await buyWithCard(page);
      await checkGame(trxNo, `official-${width}`);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
