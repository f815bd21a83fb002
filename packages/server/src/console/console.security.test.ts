import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { signMd5, startTestService, type TestService } from '../testing/service.js';
import { createGame, postReport, reportBody, type GameApp } from '../testing/reporting/reporting.js';
import { CONSOLE_CSP } from './console.routes.js';
import { go, mainText, signIn, startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';

/** A GET with the path sent exactly as written (fetch would normalise `..`). */
function rawGet(
  base: string,
  path: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    http
      .get({ host: hostname, port, path }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

const XSS_APP = '<img src=x onerror=alert("app")>';
const XSS_DESCRIPTION = '<script>alert("description")</script><b>bold?</b>';
const XSS_ROLE = '"><svg onload=alert("role")>';
const XSS_PRODUCT = '<img src=x onerror=alert("product")>';
const XSS_NOTE = '<b onmouseover=alert("note")>note</b>';

describe('operator console (security)', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let game: GameApp;

  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
    game = await createGame(svc, { name: XSS_APP, partnerUrl: 'https://partner.example/consume' });
    const res = await postReport(
      svc,
      game,
      reportBody(game, {
        reportee: { svcid: '4242', role_id: 'r42', server_code: 's1', role_name: XSS_ROLE, extra: '' },
        user_description: XSS_DESCRIPTION,
      }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Game-supplied text on the newer pages: a product name, a consumption notice's role and product, a moderator note.
    const product = await svc.admin('POST', `/apps/${game.appId}/products`, {
      productCode: 'xss',
      name: XSS_PRODUCT,
      price: 1,
      currency: 'USD',
    });
    assert.equal(product.status, 201, JSON.stringify(product.body));
    const notice = signMd5(
      { userId: '4242', roleId: XSS_ROLE, serverId: 's1', productCode: XSS_PRODUCT, appId: game.appId },
      game.secret,
      { timestamp: Math.floor(Date.now() / 1000) },
    );
    const noticed = await svc.fetch('/order/v1/game/pay/notify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notice),
    });
    assert.equal(noticed.status, 200, await noticed.text());
    const reportId = (await svc.admin('GET', `/reports?appId=${game.appId}`)).body.reports[0].reportId;
    const decided = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: XSS_ROLE,
      status: 'dismissed',
      note: XSS_NOTE,
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('answers the page and every asset with the CSP and the other security headers', async () => {
    for (const path of [
      '/console',
      '/console/',
      '/console/app.js',
      '/console/api.js',
      '/console/pages/reports.js',
      '/console/pages/products.js',
      '/console/pages/apptools.js',
      '/console/pages/audit.js',
      '/console/pages/consumption.js',
      '/console/console.css',
      '/console/vendor/preact.module.js',
      '/console/vendor/hooks.module.js',
      '/console/vendor/htm.module.js',
      '/console/no-such-file.js',
    ]) {
      const res = await svc.fetch(path);
      await res.arrayBuffer();
      assert.equal(res.headers.get('content-security-policy'), CONSOLE_CSP, path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      if (path === '/console/no-such-file.js') assert.equal(res.status, 404);
      else assert.equal(res.status, 200, path);
    }
    assert.equal(
      CONSOLE_CSP,
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    const page = await svc.fetch('/console');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline script');
    assert.doesNotMatch(html, /<style|\sstyle=/i, 'no inline style');
    const js = await svc.fetch('/console/vendor/hooks.module.js');
    assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.doesNotMatch(await js.text(), /from\s*"preact"/, 'the bare specifier is rewritten');
  });

  it('keeps the console out of the OpenAPI document', async () => {
    const doc = (await (await svc.fetch('/openapi.json')).json()) as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/console')),
      [],
    );
  });

  it('refuses path traversal and unknown paths with 404', async () => {
    for (const path of [
      '/console/../package.json',
      '/console/../../package.json',
      '/console/vendor/..%2f..%2fpackage.json',
      '/console/..%2f..%2fpackage.json',
      '/console/%2e%2e/%2e%2e/package.json',
      '/console/pages/../../package.json',
      '/console/vendor/../../../package.json',
      '/console/pages/',
      '/console/.gitignore',
      '/console/vendor/',
      '/console/vendor/preact.mjs',
    ]) {
      const res = await rawGet(svc.url, path);
      assert.equal(res.status, 404, `${path}: ${res.status} ${res.body.slice(0, 100)}`);
      assert.doesNotMatch(res.body, /"dependencies"|"workspaces"/, path);
      assert.equal(res.headers['content-security-policy'], CONSOLE_CSP, path);
    }
  });

  it('never answers 5xx to odd console paths', async () => {
    for (const path of [
      '/console/%00',
      '/console/vendor/%00',
      '/console/%E0%A4%A',
      '/console/vendor/%E0%A4%A',
      '/console/app.js%00',
      '/console//app.js',
      '/console/APP.JS',
      '/console/app.js/',
      `/console/vendor/${'x'.repeat(300)}`,
    ]) {
      const res = await rawGet(svc.url, path);
      assert.ok([400, 404, 414].includes(res.status), `${path}: ${res.status} ${res.body.slice(0, 100)}`);
    }
  });

  it('runs under its CSP without violations and keeps the token out of localStorage, cookies and URLs', async () => {
    const { page, consoleErrors, requests, errors } = await browser.newPage();
    await signIn(svc, page);
    await page.waitForSelector('main table');
    for (const route of [
      '/reports',
      '/reports/reportees',
      '/reports/audit',
      '/users',
      '/events',
      '/keys',
      '/orders',
      '/supplements',
      '/consumption',
      '/admin-actions',
      `/apps/${game.appId}`,
      `/apps/${game.appId}/products`,
      `/apps/${game.appId}/products/xss`,
      `/apps/${game.appId}/new-product`,
      `/apps/${game.appId}/game-calls`,
    ]) {
      await go(svc, page, route);
      await page.waitForSelector('main h1');
    }
    assert.deepEqual(
      consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e)),
      [],
    );
    assert.deepEqual(errors, []);
    assert.equal(await page.evaluate('localStorage.length'), 0);
    assert.equal(await page.evaluate("sessionStorage.getItem('console.adminToken')"), svc.adminToken);
    assert.deepEqual(await browser.context.cookies(), []);
    assert.ok(
      requests.some((u) => u.includes('/admin/v1/')),
      'the console called the admin API',
    );
    for (const url of [...requests, page.url()]) assert.ok(!url.includes(svc.adminToken), `token in ${url}`);
    await page.close();
  });

  it('renders attacker-controlled app names, report descriptions and role names as text', async () => {
    const { page, dialogs, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/apps');
    await page.waitForSelector('main table');
    assert.match(await mainText(page), new RegExp(XSS_APP.replace(/[()[\]]/g, '\\$&')));
    await go(svc, page, '/reports');
    await page.waitForSelector('main tbody tr');
    const list = await mainText(page);
    assert.ok(list.includes(XSS_ROLE), list);
    await page.click('main tbody a');
    await waitForText(page, 'main h1', /Report #/); // not 'Description': the list has that column too
    const detail = await mainText(page);
    assert.ok(detail.includes(XSS_DESCRIPTION), detail);
    assert.ok(detail.includes(XSS_ROLE), detail);
    await go(svc, page, `/apps/${game.appId}`);
    await waitForText(page, 'h1', /onerror/);
    assert.ok((await page.locator('h1').innerText()).includes(XSS_APP));
    await page.waitForTimeout(200);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.equal(
      await page.locator('main img, main svg, main script, main b').count(),
      0,
      'no element from the payloads',
    );
    await page.close();
  });

  it('renders game-supplied product names, consumption notices and moderator notes as text', async () => {
    const { page, dialogs, errors } = await browser.newPage();
    await signIn(svc, page);
    const noElements = async (where: string) =>
      assert.equal(
        await page.locator('main img, main svg, main script, main b').count(),
        0,
        `no element from the payloads on ${where}`,
      );
    await go(svc, page, `/apps/${game.appId}/products`);
    await waitForText(page, 'main tbody', /onerror/);
    assert.ok((await mainText(page)).includes(XSS_PRODUCT));
    await noElements('the product list');
    await go(svc, page, `/apps/${game.appId}/products/xss`);
    await waitForText(page, 'h1', /onerror/);
    assert.ok((await page.locator('h1').innerText()).includes(XSS_PRODUCT));
    await noElements('the product page');
    await go(svc, page, `/consumption?appId=${game.appId}`);
    await waitForText(page, 'main tbody', /onerror/);
    const notices = await mainText(page);
    assert.ok(notices.includes(XSS_ROLE) && notices.includes(XSS_PRODUCT), notices);
    await noElements('the consumption notices');
    await go(svc, page, '/reports/audit?action=set_status');
    await waitForText(page, 'main tbody', /onmouseover/);
    const audit = await mainText(page);
    assert.ok(audit.includes(XSS_NOTE) && audit.includes(XSS_ROLE), audit);
    await noElements('the audit log');
    await page.waitForTimeout(200);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a wrong token stays on the sign-in screen with a message and stores nothing', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page, 'not-the-admin-token');
    const message = await waitForText(page, '.error', /40100|401/);
    assert.match(message, /admin token/i);
    assert.equal(await page.locator('header.topbar').count(), 0);
    assert.equal(await page.evaluate('sessionStorage.length'), 0);
    assert.equal(await page.evaluate('localStorage.length'), 0);
    await page.close();
  });

  it('a 401 during a session returns to the sign-in screen with a message; sign out clears the token', async () => {
    const { page } = await browser.newPage();
    await signIn(svc, page);
    await page.waitForSelector('main table');
    await page.evaluate("sessionStorage.setItem('console.adminToken', 'revoked-token')");
    await go(svc, page, '/keys');
    const notice = await waitForText(page, '.notice', /refused the admin token/);
    assert.match(notice, /Sign in again/);
    assert.equal(await page.evaluate("sessionStorage.getItem('console.adminToken')"), null);

    await signIn(svc, page);
    await page.click('button.signout');
    await waitForText(page, '.notice', /signed out/);
    assert.equal(await page.locator('#f-token').count(), 1);
    assert.equal(await page.evaluate('sessionStorage.length'), 0);
    await page.reload();
    assert.equal(await page.locator('#f-token').count(), 1, 'still signed out after a reload');
    await page.close();
  });
});
