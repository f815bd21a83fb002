import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/**
 * Whose orders a page session sees (issue 28): a role id typed on the official page says whom the items go to, it is
 * no login (role ids are seen by other players). A session reads and acts on the orders it placed, and a logged-in
 * session (web view, mainland login) its user's; nothing else, also when it walks trxNo. In Chromium, as a player and
 * as a stranger who types the player's role id.
 */
describe("web payment page: a stranger sees and changes none of a player's orders (browser)", () => {
  let f: WebPayFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startWebPay(), startBrowser()]);
    f.state.roles.set('s1/victim', { userId: 'victim-user', name: 'Victim' });
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  const pageUrl = `/pay/${'{clientId}'}`;
  const official = (query = '') => `${f.svc.url}${pageUrl.replace('{clientId}', f.overseas.clientId)}${query}`;

  async function typeRole(page: Page, roleId: string) {
    await page.goto(official());
    await page.click('#lang-en');
    await page.fill('#f-server', 's1');
    await page.fill('#f-role', roleId);
    await page.click('#btn-check-role');
    await page.waitForSelector('#role-name');
  }

  async function buy(page: Page, pay: boolean): Promise<number> {
    await page.fill('.product[data-code="gems_100"] input', '1');
    await waitForText(page, '#quote-total', /\$4\.99/);
    await page.click('#btn-pay');
    await page.waitForSelector('#sandbox');
    const trxNo = await lastOrder();
    if (pay) {
      await page.click('#sandbox-pay');
      await waitForText(page, '#result-status', /Paid/);
    }
    return trxNo;
  }

  const lastOrder = async () =>
    Number(
      (
        await f.svc.services.database.db
          .selectFrom('orders')
          .select((eb) => eb.fn.max('trx_no').as('t'))
          .executeTakeFirstOrThrow()
      ).t,
    );

  /** The page API from inside the page (its cookie and CSRF token), as a script of the stranger would call it. */
  const apiFrom = (page: Page, method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ({ clientId, method, path, body }) => {
        const ctx = (await (await fetch(`/pay/api/${clientId}/context`)).json()) as any;
        const res = await fetch(`/pay/api/${clientId}${path}`, {
          method,
          headers: {
            'x-csrf-token': ctx.data.csrf,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as any };
      },
      { clientId: f.overseas.clientId, method, path, body },
    );

  let paid: number;
  let pending: number;

  it("the player's official-page session reads and acts on its own orders", async () => {
    await browser.context.clearCookies();
    const { page, errors } = await browser.newPage();
    await typeRole(page, 'victim');
    paid = await buy(page, true);
    await page.click('#btn-again');
    pending = await buy(page, false);
    const read = await apiFrom(page, 'GET', `/orders/${paid}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.data.status, 0);
    await page.goto(official(`?trxNo=${paid}`));
    await waitForText(page, '#result-status', /Paid/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a stranger who types the same role id reads, cancels and walks none of them', async () => {
    await browser.context.clearCookies();
    const { page, errors } = await browser.newPage();
    await typeRole(page, 'victim');
    assert.match(await page.locator('#role-name').innerText(), /Victim/, 'the game confirms the role for anyone');

    // The result view of the player's order, opened by its trxNo.
    await page.goto(official(`?trxNo=${paid}`));
    await waitForText(page, '#result-error', /.+/);
    assert.equal(await page.locator('#result-products').count(), 0);
    assert.doesNotMatch(await page.locator('main').innerText(), /100 gems|4\.99/);

    // The JSON API, walking every trxNo there is.
    for (let trxNo = 1; trxNo <= pending + 2; trxNo++) {
      const res = await apiFrom(page, 'GET', `/orders/${trxNo}`);
      assert.equal(res.status, 404, `order ${trxNo}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 40400);
    }
    // Cancelling the player's pending order (the sandbox's hosted step).
    const cancel = await apiFrom(page, 'POST', `/orders/${pending}/sandbox`, { outcome: 'cancel' });
    assert.equal(cancel.status, 404, JSON.stringify(cancel.body));
    const pay = await apiFrom(page, 'POST', `/orders/${pending}/sandbox`, { outcome: 'pay' });
    assert.equal(pay.status, 404, JSON.stringify(pay.body));
    assert.equal((await f.svc.admin('GET', `/orders/${pending}`)).body.order.status, 2, 'still awaiting payment');

    // The stranger's own order is the stranger's to see (it placed it).
    await page.goto(official());
    await page.waitForSelector('#role-name');
    const own = await buy(page, false);
    assert.equal((await apiFrom(page, 'GET', `/orders/${own}`)).status, 200);
    assert.equal((await apiFrom(page, 'GET', `/orders/${pending}`)).status, 404);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("a logged-in web-view session reads its user's orders, also from a later link; another player's reads none", async () => {
    await browser.context.clearCookies();
    const link = await launchLink(f, f.overseas, { roleId: 'owner', serverId: 's1' });
    f.state.roles.set('s1/owner', { userId: link.login.userId, name: 'Owner' });
    const { page, errors } = await browser.newPage();
    await page.goto(link.url);
    await page.click('#lang-en');
    await page.waitForSelector('#role-name');
    const mine = await buy(page, true);

    const later = await launchLink(f, f.overseas, { roleId: 'owner', serverId: 's1' }, link.login);
    await page.goto(later.url);
    await page.waitForSelector('#role-name');
    await page.goto(official(`?trxNo=${mine}`));
    await waitForText(page, '#result-status', /Paid/);

    await browser.context.clearCookies();
    const other = await launchLink(f, f.overseas, { roleId: 'other', serverId: 's1' });
    f.state.roles.set('s1/other', { userId: other.login.userId, name: 'Other' });
    await page.goto(other.url);
    await page.waitForSelector('#role-name');
    for (const trxNo of [mine, paid, pending])
      assert.equal((await apiFrom(page, 'GET', `/orders/${trxNo}`)).status, 404, `order ${trxNo}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
