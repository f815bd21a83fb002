import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { mintSandbox } from '../../testing/accounts/accounts.js';
import { startBrowser, waitForText, type TestBrowser } from '../../testing/console/console.js';
import { launchLink } from '../../testing/web-pay/web-pay.js';
import { assertNoHorizontalScroll, notificationsOf } from '../../testing/payment-providers/payment-providers.js';
import { startAlipay, type AlipayFixture } from '../../testing/payment-providers/alipay.js';

/**
 * A mainland player buys with Alipay through the fake's cashier in headless Chromium, at phone width (wap.pay) and
 * desktop width (page.pay), in the game's web view (English) and on the official page (logged in, Simplified
 * Chinese): the game receives one verified 2.4 per order with channel 4 and Alipay's trade_no as bankTrxNo, and the
 * result view shows the order paid. A player who leaves the cashier comes back to an unpaid order.
 */
describe('Alipay in the browser: payments through the cashier', () => {
  let f: AlipayFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startAlipay({ PROVIDER_LATE_QUERY_SECONDS: '1' }), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  /** From the shop to the result: Alipay chosen, the fake's cashier, Pay, back to the page showing `paid`. */
  async function buyWithAlipay(page: Page, width: number, paid: RegExp): Promise<number> {
    await page.fill('.product[data-code="gems_60"] input', '2');
    await waitForText(page, '#quote-total', /12\.00/);
    await page.check('input[name="method"][value="alipay"]');
    await page.click('#btn-pay');
    await page.waitForURL(/\/gateway\.do\?/);
    const method = new URL(page.url()).searchParams.get('method');
    assert.equal(method, width < 768 ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay');
    assert.equal(await page.locator('#amount').innerText(), '12.00');
    assert.equal(await page.locator('#subject').innerText(), '60 宝石 × 2');
    await page.fill('#account', 'player@example.com');
    await page.click('#btn-alipay-pay');
    await page.waitForURL(/\/pay\/[^/]+\?trxNo=\d+&.*trade_no=\d+/);
    const trxNo = Number(new URL(page.url()).searchParams.get('trxNo'));
    await waitForText(page, '#result-status', paid);
    assert.equal(await page.locator('#result-trx').innerText(), String(trxNo));
    assert.match(await page.locator('#result-amount').innerText(), /12\.00/);
    return trxNo;
  }

  async function checkGame(trxNo: number, userId: string) {
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const notes = notificationsOf(f, trxNo);
    assert.equal(notes.length, 1, 'one 2.4 per order');
    const trade = f.alipay.trade(trxNo);
    assert.equal(trade.status, 'TRADE_SUCCESS');
    assert.equal(notes[0].channel, 4);
    assert.equal(notes[0].bankTrxNo, trade.tradeNo);
    assert.equal(notes[0].userId, userId);
    assert.equal(notes[0].totalAmount, 12);
    assert.equal(notes[0].currency, 'CNY');
  }

  for (const width of [360, 1280]) {
    it(`in the web view at ${width} px, in English`, async () => {
      await browser.context.clearCookies();
      const roleId = `wv-${width}`;
      const link = await launchLink(f, f.mainland, { roleId, serverId: 's1' });
      f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: `Hero ${roleId}` });
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(link.url);
      await page.click('#lang-en');
      await waitForText(page, '#role-name', new RegExp(`Hero ${roleId}`));
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['Alipay']);
      const trxNo = await buyWithAlipay(page, width, /Paid/);
      await checkGame(trxNo, link.login.userId);
      await assertNoHorizontalScroll(page);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`on the official page at ${width} px, in Simplified Chinese; leaving the cashier pays nothing`, async () => {
      await browser.context.clearCookies();
      const openId = `alipay-official-${width}`;
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${f.svc.url}/pay/${f.mainland.clientId}`);
      await page.click('#lang-zh-CN');
      await page.fill('#f-credential', await mintSandbox(f.svc, { loginType: 2, openId }));
      await page.click('#btn-login');
      await page.waitForSelector('#server-form');
      const { user_id: userId } = await f.svc.services.database.db
        .selectFrom('login_methods')
        .select('user_id')
        .where('open_id', '=', openId)
        .executeTakeFirstOrThrow();
      f.state.roles.set(`m1/off-${width}`, { userId: String(userId), name: `官方 ${width}` });
      await page.fill('#f-server', 'm1');
      await page.click('#btn-roles');
      await page.click(`#role-list button[data-role="off-${width}"]`);
      await waitForText(page, '#role-name', new RegExp(`官方 ${width}`));
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['支付宝']);

      // Left at the cashier: back on the page, the order still awaits payment.
      await page.fill('.product[data-code="vip"] input', '1');
      await page.click('#btn-pay');
      await page.waitForURL(/\/gateway\.do\?/);
      await page.click('#quit-link');
      await page.waitForURL(/\/pay\/[^/]+\?trxNo=\d+$/);
      await waitForText(page, '#result-status', /等待支付/);
      const unpaid = Number(new URL(page.url()).searchParams.get('trxNo'));
      assert.equal(f.alipay.trade(unpaid).status, 'WAIT_BUYER_PAY');
      assert.equal(notificationsOf(f, unpaid).length, 0);

      // Back to the shop (the session keeps the role), and paid this time.
      await page.goto(`${f.svc.url}/pay/${f.mainland.clientId}`);
      await waitForText(page, '#role-name', new RegExp(`官方 ${width}`));
      const trxNo = await buyWithAlipay(page, width, /支付成功/);
      await checkGame(trxNo, String(userId));
      await assertNoHorizontalScroll(page);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
