import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { mintSandbox } from '../../testing/accounts/accounts.js';
import { startBrowser, waitForText, type TestBrowser } from '../../testing/console/console.js';
import { launchLink } from '../../testing/web-pay/web-pay.js';
import { assertNoHorizontalScroll, notificationsOf } from '../../testing/payment-providers/payment-providers.js';
import { startWechatpay, type WechatpayFixture } from '../../testing/payment-providers/wechatpay.js';

/**
 * A mainland player buys with WeChat Pay in headless Chromium, in the game's web view and on the official page: at
 * 1280 px the page draws the Native payment's QR code and the test "scans" it (reads the code the page shows and has
 * the fake pay it, as WeChat would); at 360 px the phone browser goes to the fake's H5 step and back. The game
 * receives one verified 2.4 per order with channel 3 and the transaction_id; the result view shows it paid.
 */
describe('WeChat Pay in the browser: Native QR on a desktop, H5 on a phone', () => {
  let f: WechatpayFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startWechatpay({ PROVIDER_LATE_QUERY_SECONDS: '1' }), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  /** From the shop to the result: WeChat Pay chosen, the QR scanned or the H5 step paid, the result paid. */
  async function buyWithWechat(page: Page, width: number, zh = false): Promise<{ trxNo: number; outTradeNo: string }> {
    await page.fill('.product[data-code="gems_cny"] input', '2');
    await waitForText(page, '#quote-total', /12\.00/);
    await page.check('input[name="method"][value="wechatpay"]');
    await page.click('#btn-pay');
    let trxNo: number;
    if (width >= 768) {
      // Native: the page shows the code; WeChat on the player's phone scans it and pays.
      const qr = page.locator('#qr-image');
      await qr.waitFor();
      await waitForText(page, '#qr', zh ? /微信扫一扫/ : /Scan the code with WeChat/);
      assert.ok(await qr.evaluate((img: any) => img.complete && img.naturalWidth >= 100), 'the code is drawn');
      const code = (await qr.getAttribute('data-code'))!;
      assert.match(code, /^weixin:\/\/wxpay\/bizpayurl\?pr=/);
      const t = await f.wechat.scan(code);
      trxNo = Number(t.attach);
    } else {
      // H5: the phone browser goes to WeChat Pay's step, pays there, and is sent back to the page.
      await page.waitForURL(/\/h5pay\?prepay_id=/);
      assert.equal(await page.locator('#amount').innerText(), '12.00');
      await page.click('#btn-pay');
      await page.waitForURL(/\/pay\/[^/]+\?trxNo=\d+$/);
      trxNo = Number(new URL(page.url()).searchParams.get('trxNo'));
    }
    await waitForText(page, '#result-status', zh ? /支付成功|已支付/ : /Paid/);
    assert.equal(await page.locator('#result-trx').innerText(), String(trxNo));
    assert.match(await page.locator('#result-amount').innerText(), /12\.00/);
    return { trxNo, outTradeNo: `GP${String(trxNo).padStart(12, '0')}` };
  }

  async function checkGame(o: { trxNo: number; outTradeNo: string }, userId: string) {
    await f.game.waitFor(() => notificationsOf(f, o.trxNo).length > 0);
    const notes = notificationsOf(f, o.trxNo);
    assert.equal(notes.length, 1, 'one 2.4 per order');
    const t = f.wechat.transactions.get(o.outTradeNo)!;
    assert.equal(t.trade_state, 'SUCCESS');
    assert.equal(notes[0].channel, 3);
    assert.equal(notes[0].bankTrxNo, t.transaction_id);
    assert.match(notes[0].bankTrxNo, /^4200[0-9]{24}$/);
    assert.equal(notes[0].userId, userId);
    assert.equal(notes[0].totalAmount, 12);
    assert.equal(notes[0].currency, 'CNY');
  }

  for (const width of [360, 1280]) {
    it(`in the web view at ${width} px (${width < 768 ? 'H5' : 'Native QR'})`, async () => {
      await browser.context.clearCookies();
      const roleId = `wv-${width}`;
      const link = await launchLink(f, f.mainland, { roleId, serverId: 's1' });
      f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: `Hero ${roleId}` });
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(link.url);
      await page.click('#lang-en');
      await waitForText(page, '#role-name', new RegExp(`Hero ${roleId}`));
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['WeChat Pay', 'Sandbox (test)']);
      const o = await buyWithWechat(page, width);
      await checkGame(o, link.login.userId);
      assert.equal(f.wechat.transactions.get(o.outTradeNo)!.trade_type, width < 768 ? 'MWEB' : 'NATIVE');
      await assertNoHorizontalScroll(page);
      assert.deepEqual(errors, []);
      await page.close();
    });

    it(`on the official page at ${width} px, in Simplified Chinese`, async () => {
      await browser.context.clearCookies();
      const openId = `official-wx-${width}`;
      const credential = await mintSandbox(f.svc, { loginType: 2, openId });
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${f.svc.url}/pay/${f.mainland.clientId}`);
      await page.click('#lang-zh-CN');
      await page.fill('#f-credential', credential);
      await page.click('#btn-login');
      await page.waitForSelector('#server-form');
      const found = await f.svc.services.database.db
        .selectFrom('login_methods')
        .select('user_id')
        .where('open_id', '=', openId)
        .executeTakeFirstOrThrow();
      f.state.roles.set(`m1/wx-${width}`, { userId: String(found.user_id), name: `微信 ${width}` });
      await page.fill('#f-server', 'm1');
      await page.click('#btn-roles');
      await page.click(`#role-list button[data-role="wx-${width}"]`);
      await waitForText(page, '#role-name', new RegExp(`微信 ${width}`));
      assert.deepEqual(await page.locator('#methods .method').allInnerTexts(), ['微信支付', '沙盒（测试）']);
      const o = await buyWithWechat(page, width, true);
      await checkGame(o, String(found.user_id));
      await assertNoHorizontalScroll(page);
      assert.deepEqual(errors, []);
      await page.close();
    });
  }
});
