import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/** The page's JSON API over HTTP: the web-view flow to a paid order and the game's 2.4 notification. */
describe('web payment page API', () => {
  let f: WebPayFixture;
  before(async () => {
    f = await startWebPay();
  });
  after(async () => {
    await f?.close();
  });

  it('opens a launch link once, places a two-product web order and pays it in the sandbox', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'r-1', serverId: 's1', gameExt: '{"vip":2}' });
    assert.equal(link.status, 200, JSON.stringify(link.body));
    assert.match(link.url, new RegExp(`/pay/${f.overseas.clientId}/link/[A-Za-z0-9_-]{43}$`));
    f.state.roles.set('s1/r-1', { userId: link.login.userId, name: 'Aria', roleLv: 42 });
    const page = new PageClient(f.svc, f.overseas.clientId);
    const opened = await page.open(link.url);
    assert.equal(opened.status, 303);
    assert.equal(opened.location, `/pay/${f.overseas.clientId}`);
    assert.match(opened.setCookie!, /HttpOnly/);
    assert.match(opened.setCookie!, /SameSite=Strict/);
    assert.match(opened.setCookie!, /Path=\/pay/);
    const ctx = await page.context();
    assert.equal(ctx.entry, 'web_view');
    assert.equal(ctx.blocked, null);
    assert.deepEqual(ctx.role, {
      roleId: 'r-1',
      serverId: 's1',
      name: 'Aria',
      avatar: '',
      roleLv: 42,
      serverName: null,
    });
    assert.deepEqual(
      ctx.products.map((p: any) => [p.productCode, p.price, p.currency]),
      [
        ['gems_100', 4.99, 'USD'],
        ['pass', 9.9, 'USD'],
      ],
    );
    const lines = [
      { productCode: 'gems_100', quantity: 2 },
      { productCode: 'pass', quantity: 1 },
    ];
    const quote = await page.request('POST', '/quote', { products: lines });
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    assert.equal(quote.body.data.totalAmount, 19.88);
    const placed = await page.request('POST', '/orders', { products: lines, region: 'DE' });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const order = placed.body.data.order;
    assert.equal(order.status, 2);
    assert.equal(order.totalAmount, 19.88);
    assert.equal(order.region, 'DE');
    const checks = f.game.requests.filter((r) => r.url === '/pre-order').map((r) => JSON.parse(r.body));
    assert.deepEqual(
      checks.map((c) => [c.productSkuCode, c.quantity]),
      [
        ['gems_100', 2],
        ['pass', 1],
      ],
    );
    const paid = await page.request('POST', `/orders/${order.trxNo}/sandbox`, { outcome: 'pay' });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.data.status, 0);
    await f.game.waitFor(() => f.game.requests.some((r) => r.url === '/cb'), 10_000, 'the 2.4 notification');
    const cb = f.game.requests.find((r) => r.url === '/cb')!;
    assert.ok(cb.verified, cb.verifyError);
    const note = JSON.parse(cb.body);
    assert.equal(note.trxNo, order.trxNo);
    assert.equal(note.userId, link.login.userId);
    assert.equal(note.platform, 3);
    assert.match(note.outTrxNo, /^[0-9a-f]{32}$/);
    assert.deepEqual(note.attach, { gameServerId: 's1', gameRoleId: 'r-1', gameExt: '{"vip":2}' });
    assert.deepEqual(
      note.products.map((p: any) => [p.productCode, p.quantity]),
      [
        ['gems_100', 2],
        ['pass', 1],
      ],
    );
    // The link is single-use.
    const again = await new PageClient(f.svc, f.overseas.clientId).open(link.url);
    assert.equal(again.status, 303);
    assert.equal(again.location, `/pay/${f.overseas.clientId}?link=refused`);
    assert.match(again.setCookie!, /Max-Age=0/);
  });

  /** A web-view page session whose role the game confirms. */
  async function webView(roleId: string, lang?: string) {
    const link = await launchLink(f, f.overseas, { roleId, serverId: 's1', ...(lang ? { lang } : {}) });
    f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
    const page = new PageClient(f.svc, f.overseas.clientId);
    await page.open(link.url);
    return { page, ctx: await page.context(), link };
  }
  const one = { products: [{ productCode: 'pass', quantity: 1 }] };

  it('fails or cancels in the sandbox step, and shows an order only to its own session', async () => {
    const { page } = await webView('steps');
    const failed = (await page.request('POST', '/orders', one)).body.data.order;
    const cancelled = (await page.request('POST', '/orders', one)).body.data.order;
    assert.equal(
      (await page.request('POST', `/orders/${failed.trxNo}/sandbox`, { outcome: 'fail' })).body.data.status,
      3,
    );
    assert.equal(
      (await page.request('POST', `/orders/${cancelled.trxNo}/sandbox`, { outcome: 'cancel' })).body.data.status,
      4,
    );
    // A final order does not change again.
    const again = await page.request('POST', `/orders/${failed.trxNo}/sandbox`, { outcome: 'pay' });
    assert.equal(again.body.data.status, 3);
    assert.equal((await page.request('GET', `/orders/${cancelled.trxNo}`)).body.data.statusName, 'cancelled');
    const other = (await webView('stranger')).page;
    for (const res of [
      await other.request('GET', `/orders/${failed.trxNo}`),
      await other.request('POST', `/orders/${cancelled.trxNo}/sandbox`, { outcome: 'pay' }),
    ]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.code, 40400);
    }
  });

  it('takes the registration region under the web region lock, the chosen one without (2.4 rule 8)', async () => {
    const lock = await f.svc.admin('PUT', `/apps/${f.overseas.appId}/order-settings`, { webRegionLock: true });
    assert.equal(lock.status, 200, JSON.stringify(lock.body));
    try {
      const { page, ctx } = await webView('locked');
      // The guest logged in without an edge country: its registration region is DF (2.2).
      assert.deepEqual(ctx.region, { locked: true, value: 'DF' });
      const order = (await page.request('POST', '/orders', { ...one, region: 'JP' })).body.data.order;
      assert.equal(order.region, 'DF');
    } finally {
      await f.svc.admin('PUT', `/apps/${f.overseas.appId}/order-settings`, { webRegionLock: false });
    }
    const { page, ctx } = await webView('picked');
    assert.equal(ctx.region.locked, false);
    assert.equal((await page.request('POST', '/orders', { ...one, region: 'JP' })).body.data.order.region, 'JP');
  });

  it("speaks the link's language, else Accept-Language", async () => {
    assert.equal((await webView('zh-link', 'zh-CN')).ctx.lang, 'zh-CN');
    const page = new PageClient(f.svc, f.overseas.clientId);
    const zh = await page.request('GET', '/context', undefined, { 'accept-language': 'zh-TW,zh;q=0.9,en;q=0.5' });
    assert.equal(zh.body.data.lang, 'zh-CN');
    const en = await new PageClient(f.svc, f.overseas.clientId).request('GET', '/context', undefined, {
      'accept-language': 'de-DE,de;q=0.9',
    });
    assert.equal(en.body.data.lang, 'en');
  });
});
