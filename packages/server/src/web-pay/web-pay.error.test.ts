import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guestLogin, macRequest, mintSandbox } from '../testing/accounts/accounts.js';
import { count } from '../testing/orders/orders.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/** Bad input and failing games at the page API: the documented envelope, never a 500, nothing written. */
describe('web payment page API: errors', () => {
  let f: WebPayFixture;
  before(async () => {
    f = await startWebPay();
  });
  after(async () => {
    await f?.close();
  });

  /** A web-view page session whose role the game confirms. */
  async function webView(roleId: string) {
    const link = await launchLink(f, f.overseas, { roleId, serverId: 's1' });
    f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
    const page = new PageClient(f.svc, f.overseas.clientId);
    await page.open(link.url);
    await page.context();
    return page;
  }

  function envelope(res: { status: number; body: any }, status: number, code: number) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.code, code, JSON.stringify(res.body));
    assert.equal(typeof res.body.msg, 'string');
    assert.equal(typeof res.body.detail, 'string');
  }

  it('answers 401 without a page session and 401 for an unknown client id', async () => {
    const page = new PageClient(f.svc, f.overseas.clientId);
    envelope(await page.request('GET', '/orders/1'), 401, 40109);
    envelope(await page.request('GET', '/roles?serverId=s1'), 401, 40109);
    envelope(await new PageClient(f.svc, 'nope').request('GET', '/context'), 401, 40105);
  });

  it('refuses bad order input with 400 and writes nothing', async () => {
    const page = await webView('bad-input');
    const before = await count(f.svc, 'orders');
    for (const body of [
      { products: [] },
      { products: [{ productCode: 'pass', quantity: 0 }] },
      { products: [{ productCode: 'pass', quantity: 1.5 }] },
      { products: [{ productCode: 'pass', quantity: 1 }], extra: 1 },
      { products: [{ productCode: 'pass', quantity: 1 }], region: 'germany' },
      { products: [{ productCode: 'pass', quantity: 1 }], lang: 'x\u0000' },
      {
        products: [
          { productCode: 'pass', quantity: 1 },
          { productCode: 'pass', quantity: 2 },
        ],
      },
    ]) {
      envelope(await page.request('POST', '/orders', body), 400, 40000);
    }
    envelope(await page.request('POST', '/orders', { products: [{ productCode: 'nope', quantity: 1 }] }), 400, 40010);
    envelope(await page.request('POST', '/quote', { products: [{ productCode: 'nope', quantity: 1 }] }), 400, 40010);
    envelope(await page.request('POST', '/orders/abc/sandbox', { outcome: 'pay' }), 400, 40000);
    envelope(await page.request('POST', '/orders/1/sandbox', { outcome: 'steal' }), 400, 40000);
    assert.equal(await count(f.svc, 'orders'), before);
  });

  it('an unreachable game: the web view is blocked (4.8), the pre-order check fails cleanly after one retry (4.10)', async () => {
    f.state.roleQueryDown = true;
    const link = await launchLink(f, f.overseas, { roleId: 'down', serverId: 's1' });
    const blocked = new PageClient(f.svc, f.overseas.clientId);
    await blocked.open(link.url);
    f.state.roleQueryDown = false;
    const ctx = await blocked.context();
    assert.equal(ctx.blocked, 'role_query_failed');
    envelope(
      await blocked.request('POST', '/orders', { products: [{ productCode: 'pass', quantity: 1 }] }),
      403,
      40333,
    );

    const page = await webView('pre-down');
    f.state.preOrder = () => ({ destroy: true });
    const tries = f.game.requests.filter((r) => r.url === '/pre-order').length;
    const before = await count(f.svc, 'orders');
    envelope(await page.request('POST', '/orders', { products: [{ productCode: 'pass', quantity: 1 }] }), 502, 50201);
    assert.equal(f.game.requests.filter((r) => r.url === '/pre-order').length - tries, 2, 'tried twice (8)');
    assert.equal(await count(f.svc, 'orders'), before);
    f.state.preOrder = () => ({ status: 200, body: '' });
  });

  it("a pre-order block answers the game's code and msg, never its detail", async () => {
    const page = await webView('limited');
    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 105, msg: 'limit', detail: 'SECRET-105' }) });
    const res = await page.request('POST', '/orders', { products: [{ productCode: 'pass', quantity: 3 }] });
    envelope(res, 409, 40920);
    assert.deepEqual(res.body.data, { code: 105, msg: 'limit', text: null, texts: {}, productCode: 'pass' });
    assert.doesNotMatch(JSON.stringify(res.body), /SECRET-105/);
    f.state.preOrder = () => ({ status: 200, body: '' });
  });

  it("mainland: the role list's 401 is no role, another status shows the game's msg, never its detail", async () => {
    const page = new PageClient(f.svc, f.mainland.clientId);
    await page.context();
    envelope(await page.request('POST', '/role', { serverId: 'm1', roleId: 'x' }), 401, 40109);
    const credential = await mintSandbox(f.svc, { loginType: 2, openId: 'err-player' });
    envelope(await page.request('POST', '/login', { provider: 'sandbox', credential: 'sbx.forged' }), 401, 40107);
    const login = await page.request('POST', '/login', { provider: 'sandbox', credential });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    envelope(await page.request('GET', '/roles?serverId=none'), 404, 40411);
    f.state.roleListReply = {
      status: 500,
      body: JSON.stringify({ code: 7, msg: 'Maintenance until 18:00', detail: 'SECRET-DETAIL', results: [] }),
    };
    const refused = await page.request('GET', '/roles?serverId=m1');
    envelope(refused, 409, 40921);
    assert.equal(refused.body.msg, 'Maintenance until 18:00');
    assert.doesNotMatch(JSON.stringify(refused.body), /SECRET-DETAIL/);
    f.state.roleListReply = null;
  });

  it('the launch link needs a MAC token and a role', async () => {
    const uri = `/order/v1/client/pay-links?clientId=${f.overseas.clientId}`;
    const res = await f.svc.fetch(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ game_role_id: 'r', game_server_id: 's' }),
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as any).code, 40300);
    const player = await guestLogin(f.svc, f.overseas.clientId);
    const bad = await macRequest(f.svc, 'POST', uri, player, { body: { game_server_id: 's' } });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.code, 40000);
  });

  it('custom pre-order texts: a built-in code is refused (section 7); set, list, delete', async () => {
    const base = `/apps/${f.overseas.appId}/precheck-messages`;
    const refused = await f.svc.admin('PUT', `${base}/105/en`, { text: 'mine' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, /built-in/);
    assert.equal((await f.svc.admin('PUT', `${base}/7001/zh-CN`, { text: '先完成新手教程' })).status, 200);
    assert.equal((await f.svc.admin('PUT', `${base}/7001/en`, { text: 'Tutorial first' })).status, 200);
    assert.equal((await f.svc.admin('PUT', `${base}/7001/EN!`, { text: 'x' })).status, 400);
    const listed = await f.svc.admin('GET', base);
    assert.deepEqual(
      listed.body.items.filter((i: any) => i.code === 7001).map((i: any) => [i.lang, i.text]),
      [
        ['en', 'Tutorial first'],
        ['zh-CN', '先完成新手教程'],
      ],
    );
    assert.equal((await f.svc.admin('DELETE', `${base}/7001/en`)).status, 204);
    assert.equal((await f.svc.admin('DELETE', `${base}/7001/en`)).status, 404);
    assert.equal((await f.svc.admin('DELETE', `${base}/7001`)).status, 204);
    assert.equal((await f.svc.admin('GET', `/apps/999999/precheck-messages`)).status, 404);
  });
});
