import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { count } from '../testing/orders/orders.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/** The page's defences: CSRF, sealed sessions bound to one app, single-use links, cookie flags, headers, rate limit. */
describe('web payment page: security', () => {
  let f: WebPayFixture;
  before(async () => {
    f = await startWebPay({ WEB_PAY_ROLE_CHECKS_PER_MINUTE: '3' });
  });
  after(async () => {
    await f?.close();
  });

  async function webView(roleId: string) {
    const link = await launchLink(f, f.overseas, { roleId, serverId: 's1' });
    f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
    const page = new PageClient(f.svc, f.overseas.clientId);
    await page.open(link.url);
    await page.context();
    return { page, link };
  }
  const lines = { products: [{ productCode: 'pass', quantity: 1 }] };

  it('refuses a state-changing call without the CSRF token of the session, writing nothing', async () => {
    const { page } = await webView('csrf');
    const before = await count(f.svc, 'orders');
    for (const token of ['', 'x'.repeat(32), page.csrf.slice(1)]) {
      const res = await page.request('POST', '/orders', lines, { 'x-csrf-token': token });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 40304);
    }
    assert.equal(await count(f.svc, 'orders'), before);
    const ok = await page.request('POST', '/orders', lines);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('refuses an altered session cookie, and a session of another app', async () => {
    const { page } = await webView('tamper');
    const value = page.cookie.split('=')[1]!;
    const altered = new PageClient(f.svc, f.overseas.clientId);
    altered.cookie = `pay_session=${value.slice(0, -4)}AAAA`;
    altered.csrf = page.csrf;
    assert.equal((await altered.request('GET', '/orders/1')).body.code, 40109);
    const other = new PageClient(f.svc, f.mainland.clientId);
    other.cookie = page.cookie;
    other.csrf = page.csrf;
    const res = await other.request('POST', '/orders', lines);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 40109);
  });

  it('opens a launch link once, even when opened twice at once, and not under another app', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'race', serverId: 's1' });
    f.state.roles.set('s1/race', { userId: link.login.userId, name: 'race' });
    const opens = await Promise.all([1, 2, 3].map(() => new PageClient(f.svc, f.overseas.clientId).open(link.url)));
    assert.deepEqual(
      opens.map((o) => o.location).sort(),
      [`/pay/${f.overseas.clientId}`, ...Array(2).fill(`/pay/${f.overseas.clientId}?link=refused`)].sort(),
    );
    const other = await launchLink(f, f.overseas, { roleId: 'race', serverId: 's1' });
    const moved = other.url.replace(f.overseas.clientId, f.mainland.clientId);
    const res = await new PageClient(f.svc, f.mainland.clientId).open(moved);
    assert.equal(res.location, `/pay/${f.mainland.clientId}?link=refused`);
    const forged = await new PageClient(f.svc, f.overseas.clientId).open(
      `${f.svc.url}/pay/${f.overseas.clientId}/link/${'A'.repeat(43)}`,
    );
    assert.equal(forged.location, `/pay/${f.overseas.clientId}?link=refused`);
  });

  it('keeps only the hash of a launch link', async () => {
    const link = await launchLink(f, f.overseas, { roleId: 'hash', serverId: 's1' });
    const token = link.url.split('/').pop()!;
    const rows = await f.svc.services.database.db.selectFrom('pay_links').select('link_hash').execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.link_hash !== token && /^[0-9a-f]{64}$/.test(r.link_hash)));
  });

  it('sets the cookie HttpOnly, SameSite=Strict, Path=/pay; Secure when not served on loopback', async () => {
    const loopback = await new PageClient(f.svc, f.overseas.clientId).request('GET', '/context');
    const set = loopback.headers.get('set-cookie')!;
    assert.match(set, /^pay_session=[^;]+; Path=\/pay; HttpOnly; SameSite=Strict; Max-Age=1800$/);
    const secure = await new Promise<string>((resolve, reject) => {
      const u = new URL(`${f.svc.url}/pay/api/${f.overseas.clientId}/context`);
      http
        .get({ host: u.hostname, port: u.port, path: u.pathname, headers: { host: 'pay.example.com' } }, (res) => {
          res.resume();
          resolve(String(res.headers['set-cookie']));
        })
        .on('error', reject);
    });
    assert.match(secure, /; Secure/);
  });

  it('sends a strict CSP and no-framing headers on the page, its files and its API', async () => {
    for (const path of [
      `/pay/${f.overseas.clientId}`,
      '/pay/assets/app.js',
      `/pay/api/${f.overseas.clientId}/context`,
    ]) {
      const res = await f.svc.fetch(path);
      assert.equal(res.status, 200, path);
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe/, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
    const page = await (await f.svc.fetch(`/pay/${f.overseas.clientId}`)).text();
    assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.doesNotMatch(page, new RegExp(f.svc.adminToken));
    for (const path of ['/pay/assets/../src/web-pay/session.ts', '/pay/assets/vendor/x.js', '/pay/assets/.env'])
      assert.equal((await f.svc.fetch(path)).status, 404, path);
  });

  it('rate-limits role checks per IP (no enumeration of role ids)', async () => {
    const page = new PageClient(f.svc, f.overseas.clientId);
    await page.context();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await page.request('POST', '/role', { serverId: 's1', roleId: `guess-${i}` })).status);
    assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
  });
});
