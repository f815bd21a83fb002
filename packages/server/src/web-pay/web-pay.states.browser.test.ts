import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/**
 * What the page says and shows while it works (issue 28): a refusal follows the language switch, the form is
 * aria-busy while the role check or the order is in flight, a game that fails is told as the game's failure (and
 * logged in the game-call log), quantities start at a number and a greyed Pay says why, regions by name and prices in
 * the player's locale. In Chromium against the real service and a game fixture.
 */
describe('web payment page: states, languages and formats (browser)', () => {
  let f: WebPayFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startWebPay(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  const official = () => `${f.svc.url}/pay/${f.overseas.clientId}`;

  async function webView(roleId: string): Promise<Page> {
    const link = await launchLink(f, f.overseas, { roleId, serverId: 's1' });
    f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
    const { page } = await browser.newPage();
    await page.goto(link.url);
    await page.click('#lang-en');
    await page.waitForSelector('#role-name');
    return page;
  }

  it("a pre-order refusal follows the language switch, also a custom code with the game's texts", async () => {
    await f.svc.admin('PUT', `/apps/${f.overseas.appId}/precheck-messages/9100/en`, { text: 'Reach level 10 first.' });
    await f.svc.admin('PUT', `/apps/${f.overseas.appId}/precheck-messages/9100/zh-CN`, { text: '请先达到 10 级。' });
    const page = await webView('lang-switch');
    await page.fill('.product[data-code="pass"] input', '1');
    await waitForText(page, '#quote-total', /\$9\.90/);
    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 105, msg: 'limit', detail: 'd' }) });
    await page.click('#btn-pay');
    await waitForText(page, '#block', /purchase limit for this product has been reached/);
    await page.click('#lang-zh-CN');
    await waitForText(page, '#block', /该商品已达到购买上限/);
    await page.click('#lang-en');
    await waitForText(page, '#block', /purchase limit/);

    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 9100, msg: 'level', detail: 'd' }) });
    await page.click('#btn-pay');
    await waitForText(page, '#block', /^Reach level 10 first\.$/);
    await page.click('#lang-zh-CN');
    await waitForText(page, '#block', /^请先达到 10 级。$/);
    f.state.preOrder = () => ({ status: 200, body: '' });
    await page.close();
  });

  it('sets aria-busy on the form while the role check and the order are in flight', async () => {
    await browser.context.clearCookies();
    f.state.roles.set('s1/busy', { userId: 'busy-user', name: 'Busy' });
    const { page } = await browser.newPage();
    const hold = (pattern: string) => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      void page.route(pattern, async (route) => {
        await held;
        await route.continue();
      });
      return release;
    };
    await page.goto(official());
    await page.click('#lang-en');
    await page.fill('#f-server', 's1');
    await page.fill('#f-role', 'busy');
    assert.equal(await page.getAttribute('#role-form', 'aria-busy'), 'false');
    const releaseRole = hold('**/pay/api/*/role');
    await page.click('#btn-check-role');
    await page.waitForSelector('#role-form[aria-busy="true"]');
    releaseRole();
    await page.waitForSelector('#role-name');

    await page.fill('.product[data-code="gems_100"] input', '1');
    await waitForText(page, '#quote-total', /\$4\.99/);
    assert.equal(await page.getAttribute('#shop', 'aria-busy'), 'false');
    const releaseOrder = hold('**/pay/api/*/orders');
    await page.click('#btn-pay');
    await page.waitForSelector('#shop[aria-busy="true"]');
    releaseOrder();
    await page.waitForSelector('#sandbox');
    await page.close();
  });

  it("tells the game's failure as the game's (500, garbage, no userId), logs it, and a 4xx as a wrong role id", async () => {
    await browser.context.clearCookies();
    const { page } = await browser.newPage();
    await page.goto(official());
    await page.click('#lang-en');
    const check = async (roleId: string) => {
      await page.fill('#f-server', 's1');
      await page.fill('#f-role', roleId);
      await page.click('#btn-check-role');
    };
    for (const [roleId, reply] of [
      ['r-500', { status: 500, body: '{"oops":true}' }],
      ['r-garbage', { status: 200, body: '<html>not a role</html>' }],
      ['r-no-user', { status: 200, body: JSON.stringify({ roleId: 'r-no-user', name: 'N', avatar: '' }) }],
    ] as const) {
      f.state.roleReply = reply;
      await check(roleId);
      await waitForText(page, '#role-error', /The game could not confirm the role\. Retry later\./);
      assert.doesNotMatch(await page.locator('#role-error').innerText(), /correct role id/);
      const calls = await f.svc.admin('GET', `/apps/${f.overseas.appId}/game-calls?failed=true&roleId=${roleId}`);
      assert.equal(calls.status, 200, JSON.stringify(calls.body));
      assert.ok(calls.body.calls.length >= 1, `${roleId}: the failed call is in the game-call log`);
      await page.click('#lang-zh-CN');
      await waitForText(page, '#role-error', /游戏无法确认角色/);
      await page.click('#lang-en');
    }
    f.state.roleReply = null;
    await check('nobody-here');
    await waitForText(page, '#role-error', /Enter a correct role id/);
    await page.close();
  });

  it('starts quantities at 0 and says why Pay is greyed; regions by name; prices in the locale currency format', async () => {
    await browser.context.clearCookies();
    const page = await webView('formats');
    const boxes = page.locator('.product input');
    assert.deepEqual(await boxes.evaluateAll((els) => els.map((e) => (e as any).value)), ['0', '0']);
    assert.equal(await page.locator('#btn-pay').isDisabled(), true);
    await waitForText(page, '#pay-hint', /Set the quantity of at least one product to pay/);
    assert.equal(await page.getAttribute('#btn-pay', 'aria-describedby'), 'pay-hint');
    assert.match(await page.locator('.product[data-code="gems_100"] .price').innerText(), /^\$4\.99$/);

    const options = await page.locator('#f-region option').allInnerTexts();
    assert.ok(!options.includes('—'), options.join());
    assert.ok(options.includes('United States') && options.includes('Japan'), options.join());
    assert.ok(!options.some((o) => /^[A-Z]{2}$/.test(o)), `no bare codes: ${options.join()}`);
    await page.selectOption('#f-region', 'JP');

    await page.fill('.product[data-code="gems_100"] input', '2');
    await waitForText(page, '#quote-total', /\$9\.98/);
    assert.equal(await page.locator('#pay-hint').count(), 0);
    await page.click('#lang-zh-CN');
    await waitForText(page, '#quote-total', /US\$9\.98/);
    assert.ok((await page.locator('#f-region option').allInnerTexts()).includes('日本'));
    await page.close();
  });
});
