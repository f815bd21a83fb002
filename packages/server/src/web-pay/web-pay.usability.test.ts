import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { PreOrderCodeMeanings } from '../game-calls/pre-order-codes.js';
import { WEB_PAY_ROOT } from './web-pay.page.routes.js';
import { startWebPay, type WebPayFixture } from '../testing/web-pay/web-pay.js';

/** Presses Tab until `selector` has the focus (its place in the tab order); fails when it is not reachable. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => (globalThis as any).document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`${selector} cannot be reached with Tab`);
}

/** No horizontal scrolling: the page fits the viewport's width. */
async function fits(page: Page, width: number): Promise<void> {
  const scroll = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
  assert.ok(scroll <= width, `the page is ${scroll} px wide at ${width} px`);
}

/** The usability line: 360 px and desktop, keyboard only, loading and error states, the page's languages. */
describe('web payment page: usability', () => {
  let f: WebPayFixture;
  let browser: TestBrowser;
  before(async () => {
    [f, browser] = await Promise.all([startWebPay(), startBrowser()]);
    await f.svc.admin('PUT', `/apps/${f.overseas.appId}/web-pay`, { servers: [{ serverId: 's7', name: 'Asia 7' }] });
    f.state.roles.set('s7/keys', { userId: '777', name: 'Keyboard hero', roleLv: 9 });
  });
  after(async () => {
    await browser?.close();
    await f?.close();
  });

  it('has every page text and every built-in code in English and Simplified Chinese', async () => {
    const i18n = await import(pathToFileURL(`${WEB_PAY_ROOT}i18n.js`).href);
    assert.deepEqual(Object.keys(i18n.TEXT['zh-CN']).sort(), Object.keys(i18n.TEXT.en).sort());
    for (const lang of ['en', 'zh-CN']) {
      for (const key of Object.keys(i18n.TEXT.en)) assert.ok(i18n.TEXT[lang][key], `${lang}: ${key}`);
      assert.deepEqual(Object.keys(i18n.PRECHECK[lang]).sort(), Object.keys(PreOrderCodeMeanings).sort());
    }
  });

  for (const width of [360, 1280]) {
    it(`buys by keyboard alone at ${width} px, with no horizontal scrolling`, async () => {
      await browser.context.clearCookies();
      const { page, errors } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${f.svc.url}/pay/${f.overseas.clientId}`);
      await page.waitForSelector('#role-form');
      await fits(page, width);
      await tabTo(page, '#lang-en');
      await page.keyboard.press('Enter');
      await tabTo(page, '#f-server');
      await page.keyboard.press('ArrowDown'); // the first server
      await tabTo(page, '#f-role');
      await page.keyboard.type('keys');
      await page.keyboard.press('Enter'); // submits the role form
      await waitForText(page, '#role-name', /Keyboard hero/);
      await tabTo(page, '.product[data-code="pass"] input');
      await page.keyboard.type('2');
      await waitForText(page, '#quote-total', /\$19\.80/);
      await fits(page, width);
      await tabTo(page, '#btn-pay');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#sandbox');
      await fits(page, width);
      await tabTo(page, '#sandbox-pay');
      await page.keyboard.press('Enter');
      await waitForText(page, '#result-status', /Paid/);
      await fits(page, width);
      // The focus is visible: a focused button draws an outline.
      await tabTo(page, '#btn-again');
      const outline = await page.evaluate(() => {
        const g = globalThis as any;
        return g.getComputedStyle(g.document.activeElement).outlineStyle as string;
      });
      assert.notEqual(outline, 'none');
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  it('shows a loading state while the service answers, and an error when it cannot be reached', async () => {
    await browser.context.clearCookies();
    const { page } = await browser.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/pay/api/*/context', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${f.svc.url}/pay/${f.overseas.clientId}`);
    await waitForText(page, 'main [aria-busy="true"]', /Loading…|加载中…/);
    release();
    await page.waitForSelector('#role-form');

    await page.unrouteAll();
    await page.route('**/pay/api/*/role', (route) => route.abort('connectionrefused'));
    await page.click('#lang-en');
    await page.selectOption('#f-server', 's7');
    await page.fill('#f-role', 'keys');
    await page.click('#btn-check-role');
    await waitForText(page, '#role-error[role="alert"]', /Something went wrong\. Please retry\./);
    assert.equal(await page.locator('#btn-check-role').isDisabled(), false, 'the player can retry');
    await page.close();
  });
});
