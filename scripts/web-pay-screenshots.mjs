#!/usr/bin/env node
// Screenshots of every step of the web payment page at phone (360 px) and desktop (1280 px) width, for
// docs/web-payment.md (`npm run build && node scripts/web-pay-screenshots.mjs`). It runs the page against a real service
// and the tests' fixture game on loopback (packages/server/dist/testing/web-pay/web-pay.js) in headless Chromium and
// writes docs/web-payment/<step>-<width>.png.
import './check-node.mjs';
import http from 'node:http';
import path from 'node:path';
import { dist, docsFolder, pageAt, screenshotsIn } from './lib/screenshots.mjs';

const { startWebPay, launchLink } = await import(dist('testing/web-pay/web-pay.js'));
const { mintSandbox } = await import(dist('testing/accounts/accounts.js'));
const out = docsFolder('web-payment');

const f = await startWebPay();
// A game's own web page on another loopback site that frames the payment page (docs/web-payment.md, "Embedding").
const parent = http.createServer((req, res) => {
  const src = new URL(req.url ?? '/', 'http://parent').searchParams.get('src') ?? '';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><title>Dragon Saga</title><body style="margin:0;background:#1e293b;color:#fff;font:16px sans-serif">' +
      '<p style="margin:12px">Dragon Saga - shop (the game\'s page)</p>' +
      `<iframe src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" title="Payment" ` +
      'style="border:0;display:block;width:100%;max-width:480px;height:640px;margin:0 auto;background:#fff"></iframe>',
  );
});
await new Promise((resolve) => parent.listen(0, '127.0.0.2', resolve));
const parentOrigin = `http://127.0.0.2:${parent.address().port}`;
await screenshotsIn(out, [f, parent], async (browser) => {
  await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, {
    servers: [
      { serverId: 's1', name: 'Asia 1' },
      { serverId: 's2', name: 'Europe 2' },
    ],
  });
  await f.svc.admin('PUT', `/apps/${f.mainland.appId}/web-pay`, {
    servers: [
      { serverId: 'm1', name: '华东一区' },
      { serverId: 'm2', name: '华南二区' },
    ],
  });
  for (const width of [360, 1280]) {
    const { context, page, shot, text } = await pageAt(browser, width, (name) =>
      path.join(out, `${name}-${width}.png`),
    );

    // In the game's web view: the role, two products, the service's total.
    const link = await launchLink(f, f.overseas, { roleId: `hero-${width}`, serverId: 's1', lang: 'en' });
    f.state.roles.set(`s1/hero-${width}`, {
      userId: link.login.userId,
      name: 'Aria',
      roleLv: 42,
      serverName: 'Asia 1',
    });
    await page.goto(link.url);
    await text('#role-name', /Aria/);
    await page.fill('.product[data-code="gems_100"] input', '2');
    await page.fill('.product[data-code="pass"] input', '1');
    await text('#quote-total', /\d\.\d\d/);
    await shot('01-web-view');
    // Pre-order blocks: a built-in code in English and Chinese.
    f.state.preOrder = () => ({ status: 400, body: JSON.stringify({ code: 105, msg: 'limit', detail: 'd' }) });
    await page.click('#btn-pay');
    await text('#block', /purchase limit/);
    await shot('02-block-105-en');
    // The switch alone re-words the block (the page keeps its code): no second order is asked for.
    await page.click('#lang-zh-CN');
    await text('#block', /购买上限/);
    await shot('03-block-105-zh');
    await page.click('#lang-en');
    f.state.preOrder = () => ({ status: 200, body: '' });
    // The sandbox's hosted step, then the result.
    await page.click('#btn-pay');
    await page.locator('#sandbox').waitFor();
    await shot('04-sandbox-step');
    await page.click('#sandbox-pay');
    await page.locator('#result-status[data-status="0"]').waitFor();
    await shot('05-result');
    // The same link again.
    await page.goto(link.url);
    await page.locator('#page-error').waitFor();
    await shot('06-link-refused');
    await context.clearCookies();

    // The official overseas page: a wrong role id, then the right one.
    f.state.roles.set(`s2/knight-${width}`, { userId: '424242', name: 'Knight', roleLv: 7, serverName: 'Europe 2' });
    await page.goto(`${f.svc.url}/pay/${f.overseas.clientId}`);
    await page.click('#lang-en');
    await page.selectOption('#f-server', 's2');
    await page.fill('#f-role', 'nobody');
    await page.click('#btn-check-role');
    await page.locator('#role-error').waitFor();
    await shot('07-overseas-wrong-role');
    await page.fill('#f-role', `knight-${width}`);
    await page.click('#btn-check-role');
    await text('#role-name', /Knight/);
    await shot('08-overseas-role');
    await context.clearCookies();

    // The official mainland page: login, no role on a server, the role list.
    const openId = `mainland-${width}`;
    await page.goto(`${f.svc.url}/pay/${f.mainland.clientId}`);
    await page.click('#lang-zh-CN');
    await page.locator('#login-form').waitFor();
    await shot('09-mainland-login');
    await page.fill('#f-credential', await mintSandbox(f.svc, { loginType: 2, openId }));
    await page.click('#btn-login');
    await page.selectOption('#f-server', 'm2');
    await page.click('#btn-roles');
    await page.locator('#role-error').waitFor();
    await shot('10-mainland-no-role');
    const user = await f.svc.services.database.db
      .selectFrom('login_methods')
      .select('user_id')
      .where('open_id', '=', openId)
      .executeTakeFirstOrThrow();
    f.state.roles.set(`m1/mage-${width}`, {
      userId: String(user.user_id),
      name: '法师',
      roleLv: 3,
      serverName: '华东一区',
    });
    f.state.roles.set(`m1/archer-${width}`, {
      userId: String(user.user_id),
      name: '弓箭手',
      roleLv: 12,
      serverName: '华东一区',
    });
    await page.selectOption('#f-server', 'm1');
    await page.click('#btn-roles');
    await page.locator('#role-list').waitFor();
    await shot('11-mainland-roles');
    await context.clearCookies();

    // Framed by the game's own page on another site, the app listing that origin (frameAncestors).
    await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, { frameAncestors: [parentOrigin] });
    const framed = await launchLink(f, f.overseas, { roleId: `framed-${width}`, serverId: 's1', lang: 'en' });
    f.state.roles.set(`s1/framed-${width}`, { userId: framed.login.userId, name: 'Aria', roleLv: 42 });
    await page.goto(`${parentOrigin}/?src=${encodeURIComponent(framed.url)}`);
    const frame = page.frameLocator('iframe');
    await frame.locator('#role-name', { hasText: /Aria/ }).waitFor();
    await frame.locator('.product[data-code="pass"] input').fill('1');
    await frame.locator('#quote-total', { hasText: /\d\.\d\d/ }).waitFor();
    await shot('12-framed');
    await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, { frameAncestors: [] });
    await context.close();
  }
});
