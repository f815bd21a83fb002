import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { FAST, waitForEvent } from '../testing/delivery/delivery.js';
import { codeOf, createOperator, type TestOperator } from '../testing/operators.js';
import { createDeveloper, type TestDeveloper } from '../testing/portal/portal.js';
import { totpCode } from '../identity/credentials.js';
import {
  go,
  signIn,
  signInAccount,
  startBrowser,
  waitForRoute,
  waitForText,
  type TestBrowser,
} from '../testing/console/console.js';

/** The app page's tabs (#/apps/{appId}/{tab}) and what each shows. */
const TABS: [string, string][] = [
  ['overview', '.tab-summary'],
  ['delivery', '.test-event #send-test-event'],
  ['orders', '.order-settings'],
  ['stores', '.app-stores'],
  ['web', '.web-pay-settings'],
  ['settings', 'button:has-text("Rotate secret")'],
];

/** The console's pages whose header is measured at 360 px (every section of the bar, and the app's tabs). */
const CONSOLE_PAGES = [
  '/overview',
  '/apps',
  '/apps/new',
  '/reports',
  '/reports/audit',
  '/users',
  '/orders',
  '/supplements',
  '/consumption',
  '/events',
  '/keys',
  '/people',
  '/people/tokens',
  '/people/developers',
  '/admin-actions',
];

/** The widest chart and its card of each chart on the page: [id, chart width, card inner width]. */
async function chartWidths(page: Page): Promise<[string, number, number][]> {
  return page.evaluate(`[...document.querySelectorAll('figure.chart')]
    .filter((f) => f.querySelector('.uplot'))
    .map((f) => {
      const style = getComputedStyle(f);
      const inner = f.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const drawn = Math.max(...[...f.querySelectorAll('.uplot, .uplot canvas')].map((e) => e.getBoundingClientRect().width));
      return [f.dataset.chart ?? '', drawn, inner];
    })`);
}

/**
 * Issue 42: the app page as tabs with addresses, a console and portal at phone width (the menu button, a header of
 * at most 120 px, charts that follow their card when the window is resized), one date formatter (local time, UTC on
 * hover) and the small defects, with no console errors on any page.
 */
describe('operator console and studio portal: tabs, phone width and the small defects (issue 42)', () => {
  let svc: TestService;
  let game: GameServer;
  let browser: TestBrowser;
  let appId: number;
  let admin: TestOperator;
  let developer: TestDeveloper;
  const allErrors: string[] = [];

  before(async () => {
    [svc, browser] = await Promise.all([startTestService({ ...FAST }), startBrowser()]);
    game = await startGameServer(await platformPublicKeys(svc.services));
    const app = await svc.createApp({ name: 'Layout Saga', callbackUrls: { default: `${game.url}/pay/callback` } });
    appId = app.appId;
    // A delivered test event, so that the overview's charts have something to draw.
    const sent = await svc.admin('POST', `/apps/${appId}/test-events`, { type: 'payment' });
    await waitForEvent(svc, sent.body.eventId, (e) => e.state === 'delivered');
    admin = await createOperator(svc, 'layout-admin', 'admin');
    developer = await createDeveloper(svc, 'layout.dev', [appId]);
  });
  after(async () => {
    await browser?.close();
    await game?.close();
    await svc?.close();
  });

  /** Signs the admin in (a recovery code each time: a TOTP code is taken once per 30 s step). */
  async function signInAdmin(page: Page) {
    await signInAccount(svc, page, admin.name, admin.password, admin.recoveryCodes.pop()!);
  }

  /** A new tab at `width`, its errors collected for the last test. */
  async function tab(width: number) {
    const watched = await browser.newPage();
    await watched.page.setViewportSize({ width, height: 740 });
    watched.page.on('close', () => allErrors.push(...watched.errors, ...watched.consoleErrors));
    return watched;
  }

  it('says "nobody has an operator account" only while it is true, and a refusal once', async () => {
    const fresh = await startTestService({});
    try {
      const { page } = await tab(1280);
      await page.goto(`${fresh.url}/console`);
      await waitForText(page, '.first-time', /Nobody has an operator account yet/);
      await page.close();
    } finally {
      await fresh.close();
    }
    // This service has an admin: the hint is not shown, and GET /session/methods says so (nothing more).
    const methods = await svc.fetch('/admin/v1/session/methods');
    assert.deepEqual(await methods.json(), { password: true, oidc: false, firstRun: false });
    // (A refused sign-in is a 401 Chromium logs as a console error: this tab's errors are not collected.)
    const { page } = await browser.newPage();
    await page.goto(`${svc.url}/console`);
    await page.locator('form.account-signin').waitFor();
    await page.waitForResponse((r) => r.url().endsWith('/session/methods')).catch(() => undefined);
    await page.waitForTimeout(200);
    assert.equal(await page.locator('.first-time').count(), 0);
    assert.doesNotMatch(await page.locator('main').innerText(), /Nobody has an operator account/);
    await signInAccount(svc, page, admin.name, 'not the password', codeOf(admin));
    const refusal = await waitForText(page, '.error', /second factor is not right/);
    assert.equal(refusal.match(/The name, password or second factor is not right/g)?.length, 1, refusal);
    await page.close();
  });

  it('names the break-glass token in the header, not "console"', async () => {
    const { page } = await tab(1280);
    await page.goto(`${svc.url}/console`);
    await page.click('details.break-glass summary');
    await page.fill('#f-token', svc.adminToken);
    await page.click('form.token-signin button[type=submit]');
    const who = await waitForText(page, 'header.topbar .who', /break-glass token/);
    assert.doesNotMatch(who, /as console/);
    await page.close();
  });

  for (const width of [1280, 360]) {
    it(`reaches every tab of the app page by its address at ${width} px`, async () => {
      const { page } = await tab(width);
      await signInAdmin(page);
      await page.locator('header.topbar').waitFor();
      for (const [key, shows] of TABS) {
        await go(svc, page, `/apps/${appId}/${key}`);
        await page.locator(`.app-tabs a.active[data-tab="${key}"]`).waitFor();
        await page.locator(shows).first().waitFor();
        assert.ok(
          await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'),
          `${key}: no horizontal scroll at ${width} px`,
        );
      }
      // The checklist's link to the callback URLs: the Settings tab with its form open there, the field focused.
      await go(svc, page, `/apps/${appId}/settings?focus=f-callbackUrls`);
      await page.locator('#f-callbackUrls').waitFor();
      // The page focuses it in an effect after the render that shows it (kit/ui.js useFocus): wait for that effect.
      await page.waitForFunction("document.activeElement?.id === 'f-callbackUrls'").catch(() => {});
      assert.equal(await page.evaluate('document.activeElement?.id'), 'f-callbackUrls');
      // #/apps/{appId} is the overview tab; a tab link switches tabs in place.
      await go(svc, page, `/apps/${appId}`);
      await page.locator('.app-tabs a.active[data-tab="overview"]').waitFor();
      // The links to the app's other pages are separate items ("Refund abuse", "Provider messages" never run together).
      const links = await page.locator('.tab-summary').innerText();
      assert.doesNotMatch(links, /Refund abuseProvider/);
      assert.ok((await page.locator('.page-links li').allInnerTexts()).includes('Refund abuse'));
      // The delivery tab shows the app's last test event, delivered, with its attempt.
      await page.click('.app-tabs a[data-tab="delivery"]');
      await waitForRoute(page, `/apps/${appId}/delivery`);
      await waitForText(page, '.test-result[data-state="delivered"] .attempt-result', /^delivered \(HTTP 200\)$/);
      await page.screenshot({ path: `/tmp/i42-delivery-${width}.png`, fullPage: true });
      await page.close();
    });
  }

  it('keeps every console and portal page header at most 120 px tall at 360 px, the sections behind a menu button', async () => {
    const { page } = await tab(360);
    await signInAdmin(page);
    await page.locator('header.topbar').waitFor();
    const pages = [...CONSOLE_PAGES, ...TABS.map(([key]) => `/apps/${appId}/${key}`)];
    const heights: Record<string, number> = {};
    for (const path of pages) {
      await go(svc, page, path);
      await page.waitForTimeout(50);
      heights[path] = (await page.locator('header.topbar').boundingBox())!.height;
    }
    for (const [path, h] of Object.entries(heights)) assert.ok(h <= 120, `${path}: header ${h} px`);
    // The menu button opens the sections, and picking one closes them again.
    assert.equal(await page.locator('header.topbar nav').isVisible(), false);
    await page.click('header.topbar .menu-button');
    assert.equal(await page.locator('header.topbar .menu-button').getAttribute('aria-expanded'), 'true');
    await page.click('header.topbar nav a[href="#/apps"]');
    await waitForRoute(page, '/apps');
    assert.equal(await page.locator('header.topbar nav').isVisible(), false);
    await page.screenshot({ path: '/tmp/i42-console-360.png' });
    await page.close();

    // The portal: its apps, an app's tabs and the platform keys.
    const portal = (await tab(360)).page;
    await portal.goto(`${svc.url}/portal`);
    await portal.fill('#f-name', developer.name);
    await portal.fill('#f-password', developer.password);
    await portal.fill('#f-totp', totpCode(developer.totpSecret, Date.now()));
    await portal.click('form.portal-signin button[type=submit]');
    await waitForText(portal, 'header.topbar .who', /as layout\.dev/);
    const portalPages = [
      '/apps',
      '/keys',
      ...['overview', 'events', 'game-calls', 'notices', 'refunds', 'settings'].map((t) => `/apps/${appId}/${t}`),
    ];
    for (const path of portalPages) {
      await portal.goto(`${svc.url}/portal#${path}`);
      await portal.locator(`main[data-route=${JSON.stringify(path)}]`).waitFor();
      await portal.waitForTimeout(50);
      const h = (await portal.locator('header.topbar').boundingBox())!.height;
      assert.ok(h <= 120, `portal ${path}: header ${h} px`);
    }
    await portal.screenshot({ path: '/tmp/i42-portal-360.png' });
    await portal.close();
  });

  it('redraws the charts at their card width after a resize (1280 -> 360 -> 1280), and shortens URL labels', async () => {
    const { page } = await tab(1280);
    await signInAdmin(page);
    await page.locator('figure.chart .uplot').first().waitFor();
    const fits = async (when: string) => {
      // The ResizeObserver redraws on the next frame.
      await page.waitForTimeout(300);
      const widths = await chartWidths(page);
      assert.ok(widths.length >= 3, `${when}: charts drawn`);
      for (const [id, drawn, inner] of widths) {
        assert.ok(drawn <= inner + 1, `${when}: chart ${id} is ${drawn} px in a ${inner} px card`);
        assert.ok(drawn >= inner - 2, `${when}: chart ${id} is ${drawn} px in a ${inner} px card (follows its width)`);
      }
      return widths;
    };
    const wide = await fits('at 1280 px');
    await page.setViewportSize({ width: 360, height: 740 });
    const narrow = await fits('narrowed to 360 px');
    assert.ok(narrow[0]![1] < wide[0]![1], 'narrower at 360 px');
    await page.screenshot({ path: '/tmp/i42-overview-360.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 740 });
    const again = await fits('widened to 1280 px');
    assert.deepEqual(again, wide, 'back to the first widths');
    await page.screenshot({ path: '/tmp/i42-overview-1280.png', fullPage: true });

    // An axis label of a URL: its host and the end of its path; the data table keeps it whole on hover (title).
    const short = await page.evaluate(
      `import('/console/chart.js').then((m) => [
        'http://127.0.0.1:9/app1/callback',
        'https://game.example.com/api/v2/notify/payment/callback',
        'https://game.example.com/',
      ].map((u) => m.shortLabel(u)))`,
    );
    assert.deepEqual(short, ['127.0.0.1:9/app1/callback', 'game.example.com/…/callback', 'game.example.com']);
    const th = page.locator('figure[data-chart="latency"] table.figures tbody th').first();
    assert.equal(await th.getAttribute('title'), `${game.url}/pay/callback`);
    await page.close();
  });

  it('shows the applied window and every date in the browser time zone, UTC on hover', async () => {
    const { page } = await tab(1280);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Asia/Tokyo' });
    await signInAdmin(page);
    await page.locator('.window time').first().waitFor();
    // The window select names the window that applies (24 h), not "(any)".
    assert.equal(await page.locator('#f-range').inputValue(), '24h');
    assert.equal(await page.locator('#f-range option:checked').innerText(), 'Last 24 hours');
    const window = page.locator('.window');
    const to = await window.getAttribute('data-to');
    const toTime = window.locator('time').nth(1);
    assert.equal(await toTime.getAttribute('datetime'), to);
    assert.equal(await toTime.getAttribute('title'), `${to!.slice(0, 19).replace('T', ' ')} UTC`);
    // Chromium's locale here is en-US; Node formats the same instant in Tokyo time the same way (spaces aside).
    const tokyo = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Tokyo',
      dateStyle: 'medium',
      timeStyle: 'medium',
    });
    const spaces = (text: string) => text.replace(/\s/g, ' ');
    const shown = spaces(await toTime.innerText());
    assert.doesNotMatch(shown, /\d{4}-\d\d-\d\dT/, 'not an ISO string');
    assert.equal(shown, spaces(tokyo.format(new Date(to!))), 'in Tokyo time');
    // A list's dates too (the delivery events), and no raw ISO date anywhere in the page's text.
    await go(svc, page, '/events');
    const created = page.locator('main tbody tr td time').first();
    await created.waitFor();
    assert.match((await created.getAttribute('title'))!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    assert.doesNotMatch(await page.locator('main').innerText(), /\d{4}-\d\d-\d\dT\d\d:\d\d/);
    await go(svc, page, `/apps/${appId}/settings`);
    await page.locator('main time').first().waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /\d{4}-\d\d-\d\dT\d\d:\d\d/);
    await page.close();
  });

  it('has no page errors and no console errors on any page visited', () => {
    assert.deepEqual(allErrors, []);
  });
});
