import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { go, signIn, startBrowser, waitForText, type TestBrowser } from '../../testing/console/console.js';
import { startTestService, type TestService } from '../../testing/service.js';
import { WechatpayFake } from '../../testing/wechatpay-fake.js';

/**
 * WeChat Pay set up in the operator console's Payment providers panel, in headless Chromium: the PEM files pasted into
 * the panel's one-line fields (their line breaks dropped) are read as the keys they are, and a notification signed
 * with the platform key then verifies and decrypts at the app's notify URL.
 */
describe('operator console: WeChat Pay settings', () => {
  let svc: TestService;
  let browser: TestBrowser;
  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('takes the merchant fields and pasted PEMs, shows no secret, and the keys then verify a notification', async () => {
    const app = await svc.createApp({ name: 'WeChat panel game', region: 'mainland' });
    const wechat = new WechatpayFake();
    const m = wechat.merchant();
    const { config, secrets } = wechat.settingsOf(m);
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${app.appId}/web`);
    await page.locator('.provider-settings.provider-wechatpay').waitFor();
    assert.equal(
      await page.locator('.wechatpay-webhook .copy-value').innerText(),
      `${svc.url}/notify/v1/providers/wechatpay/${app.appId}`,
    );
    await page.click('.provider-wechatpay button:has-text("Set up wechatpay")');
    for (const [name, value] of Object.entries(config)) await page.fill(`#f-wechatpay-config-${name}`, value);
    for (const [name, value] of Object.entries(secrets)) await page.fill(`#f-wechatpay-secret-${name}`, value);
    await page.click('.provider-wechatpay button[type=submit]');
    await waitForText(page, '.provider-wechatpay', /saved/);
    await waitForText(page, '.provider-wechatpay', /apiV3Key, merchantPrivateKey, platformKey \(never shown\)/);
    assert.doesNotMatch(await page.content(), new RegExp(m.apiV3Key));
    const opened = await svc.services.paymentProviders.settings.forApp(app.appId, 'wechatpay');
    assert.deepEqual(opened?.regions, ['mainland']);
    assert.ok(!opened!.secrets.platformKey!.includes('\n'), 'the one-line field dropped the line breaks');

    // A notification WeChat Pay signs and encrypts for this merchant verifies with what was pasted: it names no
    // order of ours, so it is refused after verification (409 unknown_order), not as a bad signature.
    const event = WechatpayFake.notification(m.apiV3Key, 'TRANSACTION.SUCCESS', {
      appid: m.wechatAppId,
      mchid: m.mchId,
      out_trade_no: 'GP000000000001',
      transaction_id: '4200000000000000000000000001',
      trade_state: 'SUCCESS',
      amount: { total: 100, currency: 'CNY' },
    });
    const payload = JSON.stringify(event);
    const res = await svc.fetch(`/notify/v1/providers/wechatpay/${app.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...wechat.sign(payload) },
      body: payload,
    });
    const body = (await res.json()) as any;
    assert.equal(res.status, 409, JSON.stringify(body));
    assert.deepEqual([body.code, body.outcome, body.reason], ['FAIL', 'refused', 'unknown_order']);
    await go(svc, page, `/apps/${app.appId}/provider-messages`);
    await waitForText(page, 'main table', /refused\s+unknown_order/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
