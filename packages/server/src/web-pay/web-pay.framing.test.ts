import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/** A game's page on another loopback site (127.0.0.2, another port) that frames `?src=`. */
async function startParent(): Promise<{ origin: string; url: (src: string) => string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://parent').searchParams.get('src') ?? '';
    const attr = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Game</title><iframe id="pay" src="${attr}" width="400" height="900"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (src) => `${origin}/?src=${encodeURIComponent(src)}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `frame-ancestors` per app: a game's page on another site frames the page and buys; without the list, CSP blocks it. */
describe('web payment page: framed by a game page', () => {
  let f: WebPayFixture;
  let browser: TestBrowser;
  let parent: Awaited<ReturnType<typeof startParent>>;
  before(async () => {
    [f, browser, parent] = await Promise.all([startWebPay(), startBrowser(), startParent()]);
  });
  after(async () => {
    await browser?.close();
    await parent?.close();
    await f?.close();
  });

  it('refuses frame ancestors that are not https origins (loopback aside), or too many; writes nothing', async () => {
    for (const bad of [
      ['http://game.example.com'],
      ['https://game.example.com/shop'],
      ['https://*.example.com'],
      ['javascript:alert(1)'],
      ['https://user:pw@game.example.com'],
      Array.from({ length: 11 }, (_, i) => `https://g${i}.example.com`),
    ]) {
      const res = await f.svc.admin('PUT', `/apps/${f.mainland.appId}/web-pay`, { frameAncestors: bad });
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual((await f.svc.admin('GET', `/apps/${f.mainland.appId}/web-pay`)).body.frameAncestors, []);
    const ok = await f.svc.admin('PUT', `/apps/${f.mainland.appId}/web-pay`, {
      frameAncestors: ['https://Game.Example.com', 'https://game.example.com/', 'http://localhost:8080'],
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.frameAncestors, ['https://game.example.com', 'http://localhost:8080']);
    const servers = [{ serverId: 'm1', name: 'Main 1' }];
    const kept = await f.svc.admin('PUT', `/apps/${f.mainland.appId}/web-pay`, { servers });
    assert.deepEqual([kept.body.servers, kept.body.frameAncestors.length], [servers, 2], 'fields not given are kept');
    const cleared = await f.svc.admin('PUT', `/apps/${f.mainland.appId}/web-pay`, { frameAncestors: [] });
    assert.deepEqual([cleared.body.servers, cleared.body.frameAncestors], [servers, []]);
  });

  it('without a list: the page denies framing and the browser blocks the frame', async () => {
    const res = await f.svc.fetch(`/pay/${f.overseas.clientId}`);
    assert.match(res.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');

    const { page, consoleErrors } = await browser.newPage();
    await page.goto(parent.url(`${f.svc.url}/pay/${f.overseas.clientId}`));
    const frame = page.frameLocator('#pay');
    // The CSP report is the browser's own word that it refused the frame; the page never rendered inside it.
    for (let i = 0; i < 100 && !consoleErrors.some((e) => /frame-ancestors/.test(e)); i++)
      await page.waitForTimeout(50);
    assert.ok(
      consoleErrors.some((e) => /frame-ancestors 'none'/.test(e)),
      `no CSP refusal: ${consoleErrors.join(' | ')}`,
    );
    assert.equal(await frame.locator('#root').count(), 0);
    await page.close();
  });

  it("with the parent's origin listed: the framed page keeps its session and a purchase completes", async () => {
    const put = await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, { frameAncestors: [parent.origin] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const res = await f.svc.fetch(`/pay/${f.overseas.clientId}`);
    assert.match(res.headers.get('content-security-policy')!, new RegExp(`frame-ancestors ${parent.origin};`));
    assert.equal(res.headers.get('x-frame-options'), null);
    // The session cookie of a framed page: SameSite=None, Secure, Partitioned (CHIPS).
    const api = new PageClient(f.svc, f.overseas.clientId);
    const ctx = await api.request('GET', '/context');
    assert.match(ctx.headers.get('set-cookie')!, /SameSite=None; Max-Age=\d+; Secure; Partitioned/);
    // Other apps keep SameSite=Strict.
    const strict = await new PageClient(f.svc, f.mainland.clientId).request('GET', '/context');
    assert.match(String(strict.headers.get('set-cookie')), /SameSite=Strict/);

    const link = await launchLink(f, f.overseas, { roleId: 'framed', serverId: 's1' });
    f.state.roles.set('s1/framed', { userId: link.login.userId, name: 'Framed hero' });
    const { page, errors } = await browser.newPage();
    await page.goto(parent.url(link.url));
    const frame = page.frame({ url: /\/pay\// });
    const inner = frame ?? (await waitForFrame(page));
    await waitForText(inner, '#role-name', /Framed hero/);
    await inner.click('#lang-en');
    await inner.fill('.product[data-code="pass"] input', '1');
    await waitForText(inner, '#quote-total', /\$9\.90/);
    await inner.click('#btn-pay');
    await inner.click('#sandbox-pay');
    await waitForText(inner, '#result-status', /Paid/);
    const trxNo = Number(await inner.locator('#result-trx').innerText());
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

async function waitForFrame(page: import('playwright-core').Page) {
  for (let i = 0; i < 100; i++) {
    const frame = page.frames().find((fr) => fr.url().includes('/pay/'));
    if (frame) return frame;
    await page.waitForTimeout(50);
  }
  throw new Error('the payment frame never loaded');
}
