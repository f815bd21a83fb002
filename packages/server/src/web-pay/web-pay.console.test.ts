import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { go, signIn, startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { startTestService, type TestService } from '../testing/service.js';

/** The operator console's panels of the web payment page (settings, custom pre-order check texts), in headless Chromium. */
describe('operator console: pre-order check texts', () => {
  let svc: TestService;
  let browser: TestBrowser;
  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  it('adds a text, refuses a built-in code with the API message, shows game text as text, deletes', async () => {
    const app = await svc.createApp({ name: 'Texts game' });
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${app.appId}/web`);
    await page.locator('.precheck-texts').waitFor();
    await page.fill('#f-precheckCode', '9001');
    await page.fill('#f-precheckLang', 'zh-CN');
    await page.fill('#f-precheckText', '<b>先完成新手教程</b>');
    await page.click('.precheck-texts button[type=submit]');
    await waitForText(page, '.precheck-texts tbody', /9001\s+zh-CN\s+<b>先完成新手教程<\/b>/);
    assert.equal(await page.locator('.precheck-texts tbody b').count(), 0, 'rendered as text');
    assert.deepEqual(
      (await svc.admin('GET', `/apps/${app.appId}/precheck-messages`)).body.items.map((i: any) => [i.code, i.lang]),
      [[9001, 'zh-CN']],
    );

    await page.fill('#f-precheckCode', '105');
    await page.fill('#f-precheckText', 'mine');
    await page.click('.precheck-texts button[type=submit]');
    await waitForText(page, '.precheck-texts', /built-in/);

    await page.click('.precheck-texts tbody button.danger');
    await page.click('.precheck-texts .confirm-yes');
    await waitForText(page, '.precheck-texts', /No texts/);
    assert.deepEqual((await svc.admin('GET', `/apps/${app.appId}/precheck-messages`)).body.items, []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('sets the servers, frame ancestors and return URLs of the page, showing the API refusal of a non-https origin', async () => {
    const app = await svc.createApp({ name: 'Framed game' });
    const { page, errors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/apps/${app.appId}/web`);
    await page.locator('.web-pay-settings form').waitFor();
    await page.fill('#f-webPayServers', 's1=Asia 1');
    await page.fill('#f-webPayFrameAncestors', 'http://play.example.com');
    await page.click('.web-pay-settings button[type=submit]');
    await waitForText(page, '.web-pay-settings', /https/);
    assert.deepEqual((await svc.admin('GET', `/apps/${app.appId}/web-pay`)).body.frameAncestors, []);
    await page.fill('#f-webPayFrameAncestors', 'https://play.example.com\n');
    await page.fill('#f-webPayReturnUrls', 'https://play.example.com/paid');
    await page.click('.web-pay-settings button[type=submit]');
    await waitForText(page, '.web-pay-settings', /Saved/);
    const saved = (await svc.admin('GET', `/apps/${app.appId}/web-pay`)).body;
    assert.deepEqual(
      [saved.servers, saved.frameAncestors, saved.returnUrls],
      [[{ serverId: 's1', name: 'Asia 1' }], ['https://play.example.com'], ['https://play.example.com/paid']],
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
});
