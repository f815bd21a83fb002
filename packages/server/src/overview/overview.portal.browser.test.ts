import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { createGame, type GameApp } from '../testing/reporting/reporting.js';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';
import { createDeveloper, portalAs, portalSessionOf, type PortalSession } from '../testing/portal/portal.js';
import { HOUR_MS } from '../db/time-buckets.js';
import { chartFigures, hourAgo, seedTraffic } from '../testing/overview/overview.js';

/**
 * The studio portal's overview in headless Chromium against known traffic: the console's charts over
 * GET /portal/v1/apps/{appId}/overview, whose figures equal the API's and the console's for that app (less the
 * report queue), each linked figure opening the portal's own list of exactly those rows; another studio's app is
 * refused by the page and by the API.
 */
describe('portal overview', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let a: GameApp;
  let b: GameApp;
  let dev: Awaited<ReturnType<typeof createDeveloper>>;
  let session: PortalSession;
  const start = hourAgo(50);
  const from = new Date(start).toISOString();
  const to = new Date(start + 48 * HOUR_MS).toISOString();
  const q = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

  before(async () => {
    [svc, browser] = await Promise.all([startTestService({}, { dispatcher: false }), startBrowser()]);
    a = await createGame(svc, { name: 'Portal Overview A' });
    b = await createGame(svc, { name: 'Portal Overview B' });
    await seedTraffic(svc.services.database.db, [a.appId, b.appId], start);
    dev = await createDeveloper(svc, 'olga.studio-a', [a.appId]);
    session = await portalSessionOf(svc, dev);
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** The number of rows a portal link's list answers (the same filters through the portal API). */
  async function rowsBehind(href: string): Promise<number> {
    const [path, qs = ''] = href.replace(/^#/, '').split('?');
    const res = await portalAs(svc, session, 'GET', `${path}?${qs}&limit=200`);
    assert.equal(res.status, 200, `${href}: ${JSON.stringify(res.body)}`);
    const list = res.body.events ?? res.body.calls;
    assert.ok(Array.isArray(list), `a list at ${path}: ${Object.keys(res.body)}`);
    return list.length;
  }

  it("answers the console's overview of the app, without the report queue", async () => {
    const mine = await portalAs(svc, session, 'GET', `/apps/${a.appId}/overview?${q}`);
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const operators = (await svc.admin('GET', `/overview?${q}&appId=${a.appId}`)).body;
    assert.deepEqual(mine.body, { ...operators, openReports: [] });
    assert.equal(mine.body.notifications.length, 3);
    assert.ok(mine.body.gameCallFailures.every((c: { appId: number }) => c.appId === a.appId));
  });

  it("refuses another studio's app, a query naming an app, and no session", async () => {
    const theirs = await portalAs(svc, session, 'GET', `/apps/${b.appId}/overview?${q}`);
    assert.equal(theirs.status, 404, JSON.stringify(theirs.body));
    assert.doesNotMatch(JSON.stringify(theirs.body), /Portal Overview B/);
    assert.equal((await portalAs(svc, session, 'GET', `/apps/${a.appId}/overview?appId=${b.appId}`)).status, 400);
    assert.equal((await portalAs(svc, null, 'GET', `/apps/${a.appId}/overview?${q}`)).status, 401);
  });

  it("draws the API's figures with the console's charts, each link opening exactly its rows", async () => {
    const api = (await portalAs(svc, session, 'GET', `/apps/${a.appId}/overview?${q}`)).body;
    const { page, errors, consoleErrors } = await browser.newPage();
    await page.goto(`${svc.url}/portal`);
    await page.fill('#f-name', dev.name);
    await page.fill('#f-password', dev.password);
    await page.fill('#f-totp', dev.recoveryCodes.shift()!);
    await page.click('form.portal-signin button[type=submit]');
    await waitForText(page, 'header', /as olga\.studio-a/);
    await page.goto(`${svc.url}/portal#/apps/${a.appId}/overview?${q}`);
    await page.locator('figure[data-chart="notifications"] canvas').waitFor();

    const notifications = await chartFigures(page, 'notifications');
    let checked = 0;
    for (const h of api.notifications)
      for (const [series, state] of [
        ['delivered', 'delivered'],
        ['retrying', 'pending'],
        ['dead', 'dead'],
      ] as const) {
        const fig = notifications[`${series}@${h.hour}`]!;
        assert.equal(Number(fig.value), h[series]);
        assert.match(fig.href!, new RegExp(`^#/apps/${a.appId}/events\\?state=${state}&`));
        assert.equal(await rowsBehind(fig.href!), h[series], `rows behind ${fig.href}`);
        checked++;
      }
    assert.equal(checked, 9);

    // Orders and supplements have no list in the portal: their figures are shown, not linked.
    const commerce = await chartFigures(page, 'commerce');
    for (const d of api.commerce)
      for (const key of ['orders', 'payments', 'refunds', 'pendingSupplements'] as const) {
        const fig = commerce[`${key}@${d.day}`]!;
        assert.equal(Number(fig.value), d[key]);
        assert.equal(fig.href, null);
      }

    const calls = await chartFigures(page, 'game-calls');
    assert.equal(api.gameCallFailures.length, 2);
    for (const c of api.gameCallFailures) {
      const fig = calls[`failures@${c.appId}/${c.kind}`]!;
      assert.equal(Number(fig.value), c.failures);
      assert.equal(await rowsBehind(fig.href!), c.failures, `rows behind ${fig.href}`);
    }
    assert.equal(await page.locator('figure[data-chart="reports"]').count(), 0, 'no report queue in the portal');

    // A figure's link opens the portal's event list with those rows.
    const h0 = api.notifications[0];
    await page.click('figure[data-chart="notifications"] details.chart-data summary');
    await page.click(`figure[data-chart="notifications"] a[data-series="dead"][data-x="${h0.hour}"]`);
    await page.locator('table.events').waitFor();
    const rows = page.locator('table.events tr[data-event]');
    for (const until = Date.now() + 10_000; (await rows.count()) !== h0.dead && Date.now() < until;)
      await page.waitForTimeout(50);
    assert.equal(await rows.count(), h0.dead);
    assert.equal(await page.locator('table.events td.state-dead').count(), h0.dead);

    assert.deepEqual(consoleErrors, [], 'no CSP violation');

    // Another studio's app: refused in the page as by the API (whose 404 is the only console message).
    await page.goto(`${svc.url}/portal#/apps/${b.appId}/overview`);
    await waitForText(page, 'main', /not one of yours/);
    assert.equal(await page.locator('figure.chart').count(), 0);
    assert.doesNotMatch(await page.locator('main').innerText(), /Portal Overview B/);
    assert.deepEqual(errors, []);
    assert.ok(
      consoleErrors.every((e) => /status of 404/.test(e)),
      JSON.stringify(consoleErrors),
    );
  });
});
