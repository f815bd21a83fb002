import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { mintSandbox } from '../testing/accounts/accounts.js';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/** The web payment page in Debian's headless Chromium against the real service and a real game fixture. */
describe('web payment page (browser)', () => {
  let f: WebPayFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startWebPay(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  const pageUrl = (app: any) => `${f.svc.url}/pay/${app.clientId}`;

  /** Sets the quantity of each product and waits for the service's total. */
  async function choose(page: Page, qty: Record<string, number>, total: RegExp) {
    for (const [code, n] of Object.entries(qty)) await page.fill(`.product[data-code="${code}"] input`, String(n));
    await waitForText(page, '#quote-total', total);
  }

  async function payInSandbox(page: Page): Promise<number> {
    await page.click('#btn-pay');
    await page.click('#sandbox-pay');
    await waitForText(page, '#result-status', /Paid/);
    return Number(await page.locator('#result-trx').innerText());
  }

  it('in the web view: launch link, role shown, two products, sandbox payment, result and the 2.4 notification', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'hero-1', serverId: 's1', gameExt: 'ext-1' });
    f.state.roles.set('s1/hero-1', {
      userId: link.login.userId,
      name: 'Aria',
      roleLv: 42,
      serverName: 'Asia 1',
      avatar: 'https://cdn.example.invalid/a.png',
    });
    const { page, errors } = await browser.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    const res = await page.goto(link.url);
    assert.equal(res!.status(), 200);
    const csp = await res!.headerValue('content-security-policy');
    assert.match(csp!, /script-src 'self'/);
    assert.doesNotMatch(csp!, /unsafe-inline/);
    const htmlText = await res!.text();
    assert.doesNotMatch(htmlText, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    await waitForText(page, '#role-name', /^Aria$/);
    assert.match(await page.locator('#role-card').innerText(), /Level 42/);
    assert.match(await page.locator('#role-card').innerText(), /Asia 1/);
    assert.equal(await page.locator('.sandbox-banner').innerText(), 'Sandbox: test payments, no money is taken.');
    await choose(page, { gems_100: 2, pass: 1 }, /\$19\.88/);
    const trxNo = await payInSandbox(page);
    assert.match(await page.locator('#result-products').innerText(), /100 gems × 2/);
    assert.match(await page.locator('#result-amount').innerText(), /\$19\.88/);
    await f.game.waitFor(() => f.game.requests.some((r) => r.url === '/cb' && JSON.parse(r.body).trxNo === trxNo));
    const note = JSON.parse(f.game.requests.find((r) => r.url === '/cb' && JSON.parse(r.body).trxNo === trxNo)!.body);
    assert.equal(note.userId, link.login.userId);
    assert.match(note.outTrxNo, /^[0-9a-f]{32}$/);
    assert.deepEqual(note.attach, { gameServerId: 's1', gameRoleId: 'hero-1', gameExt: 'ext-1' });
    assert.deepEqual(
      note.products.map((p: any) => [p.productCode, p.quantity]),
      [
        ['gems_100', 2],
        ['pass', 1],
      ],
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('refuses a used and an expired launch link', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'hero-2', serverId: 's1' });
    f.state.roles.set('s1/hero-2', { userId: link.login.userId, name: 'Bo' });
    const { page } = await browser.newPage();
    await page.goto(link.url);
    await waitForText(page, '#role-name', /Bo/);
    await page.goto(link.url);
    await waitForText(page, '#page-error', /already used or has expired/);
    assert.equal(await page.locator('#shop').count(), 0);

    const expiring = await launchLink(f, f.overseas, { roleId: 'hero-2', serverId: 's1' });
    await f.svc.services.database.db
      .updateTable('pay_links')
      .set({ expires_at: Date.now() - 1 })
      .where('used_at', 'is', null)
      .execute();
    await page.goto(expiring.url);
    await waitForText(page, '#page-error', /already used or has expired/);
    await page.close();
  });

  it('shows a hostile role name as text', async () => {
    const hostile = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
    const link = await launchLink(f, f.overseas, { roleId: 'evil', serverId: 's1' });
    f.state.roles.set('s1/evil', { userId: link.login.userId, name: hostile, avatar: 'javascript:alert(1)' });
    const { page, errors } = await browser.newPage();
    await page.goto(link.url);
    await waitForText(page, '#role-name', /onerror/);
    assert.equal(await page.locator('#role-name').innerText(), hostile);
    assert.equal(await page.locator('#role-card img').count(), 0, 'no image: the avatar is not an http(s) URL');
    assert.equal(await page.evaluate(() => (globalThis as any).__xss), undefined);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('blocks payment when the role query names another user', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'stolen', serverId: 's1' });
    f.state.roles.set('s1/stolen', { userId: '999999', name: 'Other' });
    const { page } = await browser.newPage();
    await page.goto(link.url);
    await waitForText(page, '#blocked', /does not belong to your account/);
    assert.equal(await page.locator('#shop').count(), 0);
    await page.close();
  });

  it('shows pre-order blocks: a built-in code in English and Chinese, a custom code, no code, an unreachable game', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'hero-3', serverId: 's1' });
    f.state.roles.set('s1/hero-3', { userId: link.login.userId, name: 'Cy' });
    const put = await f.svc.admin('PUT', `/apps/${f.overseas.appId}/precheck-messages/9001/en`, {
      text: 'Finish the tutorial first.',
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const { page } = await browser.newPage();
    await page.goto(link.url);
    await waitForText(page, '#role-name', /Cy/);
    await page.click('#lang-en');
    await choose(page, { pass: 1 }, /\$9\.90/);

    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 105, msg: 'limit', detail: 'd' }) });
    await page.click('#btn-pay');
    await waitForText(page, '#block', /purchase limit for this product has been reached/);
    await page.click('#lang-zh-CN');
    await page.click('#btn-pay');
    await waitForText(page, '#block', /该商品已达到购买上限/);
    await page.click('#lang-en');

    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 9001, msg: 'tutorial', detail: 'd' }) });
    await page.click('#btn-pay');
    await waitForText(page, '#block', /Finish the tutorial first\./);

    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 9002, msg: 'Game says no', detail: 'd' }) });
    await page.click('#btn-pay');
    await waitForText(page, '#block', /^Game says no$/);

    f.state.preOrder = () => ({ status: 403, body: JSON.stringify({ msg: 'secret reason', detail: 'd' }) });
    await page.click('#btn-pay');
    await waitForText(page, '#block', /^The game refused this order\.$/);

    // An unreachable game: tried twice (8), then a clean message and no order.
    f.state.preOrder = () => ({ destroy: true });
    await page.click('#btn-pay');
    await waitForText(page, '#shop-error', /game server cannot be reached/);
    assert.equal(await page.locator('#sandbox').count(), 0);
    f.state.preOrder = () => ({ status: 200, body: '' });
    await page.close();
  });

  it('official overseas page: a wrong role id is refused, a right one buys', async () => {
    await browser.context.clearCookies(); // the web-view sessions of the tests above
    await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, { servers: [{ serverId: 's9', name: 'Europe 9' }] });
    f.state.roles.set('s9/knight', { userId: '424242', name: 'Knight', roleLv: 7 });
    const { page, errors } = await browser.newPage();
    await page.goto(pageUrl(f.overseas));
    await page.click('#lang-en');
    await page.selectOption('#f-server', 's9');
    await page.fill('#f-role', 'nobody');
    await page.click('#btn-check-role');
    await waitForText(page, '#role-error', /Enter a correct role id/);
    await page.fill('#f-role', 'knight');
    await page.click('#btn-check-role');
    await waitForText(page, '#role-name', /Knight/);
    // The game's answer names no server: the card names it as the operator did (web-pay settings), not by its id.
    assert.equal(await page.locator('#role-server').innerText(), 'Server Europe 9');
    await choose(page, { gems_100: 1 }, /\$4\.99/);
    const trxNo = await payInSandbox(page);
    const order = await f.svc.admin('GET', `/orders/${trxNo}`);
    assert.equal(order.body.order.userId, '424242');
    assert.equal(order.body.order.origin, 'web_page');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('official mainland page: login, server, role list, buy; no role on a server is the 401 path', async () => {
    await browser.context.clearCookies();
    const credential = await mintSandbox(f.svc, { loginType: 2, openId: 'mainland-player' });
    const { page, errors } = await browser.newPage();
    await page.goto(pageUrl(f.mainland));
    await page.click('#lang-en');
    await page.fill('#f-credential', credential);
    await page.click('#btn-login');
    await page.waitForSelector('#server-form');
    await page.fill('#f-server', 'empty-server');
    await page.click('#btn-roles');
    await waitForText(page, '#role-error', /You have no role on this server/);

    const found = await f.svc.services.database.db
      .selectFrom('login_methods')
      .select('user_id')
      .where('open_id', '=', 'mainland-player')
      .executeTakeFirstOrThrow();
    f.state.roles.set('m1/mage', { userId: String(found.user_id), name: 'Mage', roleLv: 3 });
    await page.fill('#f-server', 'm1');
    await page.click('#btn-roles');
    await page.click('#role-list button[data-role="mage"]');
    await waitForText(page, '#role-name', /Mage/);
    await choose(page, { pass: 2 }, /\$19\.80/);
    const trxNo = await payInSandbox(page);
    const order = await f.svc.admin('GET', `/orders/${trxNo}`);
    assert.equal(order.body.order.userId, String(found.user_id));
    assert.equal(order.body.order.channel, 4);

    f.state.roleListReply = {
      status: 503,
      body: JSON.stringify({ code: 503, msg: 'Server under maintenance', detail: 'SECRET-DETAIL', results: [] }),
    };
    await page.close();
    await browser.context.clearCookies();
    const second = await browser.newPage();
    await second.page.goto(pageUrl(f.mainland));
    await second.page.click('#lang-en');
    await second.page.fill('#f-credential', await mintSandbox(f.svc, { loginType: 2, openId: 'mainland-player' }));
    await second.page.click('#btn-login');
    await second.page.fill('#f-server', 'm1');
    await second.page.click('#btn-roles');
    await waitForText(second.page, '#role-error', /^Server under maintenance$/);
    assert.doesNotMatch(await second.page.locator('main').innerText(), /SECRET-DETAIL/);
    f.state.roleListReply = null;
    assert.deepEqual(errors, []);
    await second.page.close();
  });
});
