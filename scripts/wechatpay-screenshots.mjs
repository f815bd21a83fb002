#!/usr/bin/env node
// Screenshots of WeChat Pay on the web payment page for docs/web-payment.md (`npm run build && node
// scripts/wechatpay-screenshots.mjs`): the mainland web view with WeChat Pay offered, the Native QR code at 1280 px,
// the fake's H5 step at 360 px and the paid result, against a real service, the tests' fixture game and the fake
// WeChat Pay on loopback (packages/server/dist/testing/payment-providers/wechatpay.js), in headless
// Chromium. Writes docs/web-payment/wechat-<step>-<width>.png.
import './check-node.mjs';
import path from 'node:path';
import { dist, docsFolder, pageAt, screenshotsIn } from './lib/screenshots.mjs';

const { startWechatpay } = await import(dist('testing/payment-providers/wechatpay.js'));
const { launchLink } = await import(dist('testing/web-pay/web-pay.js'));
const out = docsFolder('web-payment');

const f = await startWechatpay();
await screenshotsIn(out, [f], async (browser) => {
  for (const width of [360, 1280]) {
    const { context, page, shot, text } = await pageAt(browser, width, (name) =>
      path.join(out, `wechat-${name}-${width}.png`),
    );
    const link = await launchLink(f, f.mainland, { roleId: `wx-${width}`, serverId: 'm1', lang: 'zh-CN' });
    f.state.roles.set(`m1/wx-${width}`, { userId: link.login.userId, name: '弓箭手', roleLv: 12 });
    await page.goto(link.url);
    await page.click('#lang-zh-CN');
    await text('#role-name', /弓箭手/);
    await page.fill('.product[data-code="gems_cny"] input', '2');
    await text('#quote-total', /12\.00/);
    await page.check('input[name="method"][value="wechatpay"]');
    await shot('01-shop');
    await page.click('#btn-pay');
    if (width >= 768) {
      await page.locator('#qr-image').waitFor();
      await shot('02-native-qr');
      await f.wechat.scan(await page.locator('#qr-image').getAttribute('data-code'));
    } else {
      await page.waitForURL(/\/h5pay\?/);
      await shot('02-h5-step');
      await page.click('#btn-pay');
    }
    await text('#result-status', /支付成功/);
    await shot('03-paid');
    await context.close();
  }
});
