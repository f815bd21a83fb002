import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { createGame, postReport, reportBody, type GameApp } from '../testing/reporting/reporting.js';
import { go, signIn, startBrowser, waitForRowCount, type TestBrowser } from '../testing/console/console.js';
import { HOUR_MS } from '../db/time-buckets.js';
import { chartFigures as figures, hourAgo, seedTraffic } from '../testing/overview/overview.js';

/**
 * The console's overview in headless Chromium against known traffic: every figure the charts draw (the table beside
 * each chart, data-series / data-x / data-value) equals GET /admin/v1/overview, and each figure's link opens a list
 * route whose rows are exactly that many.
 */
describe('console overview', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let a: GameApp;
  let b: GameApp;
  const start = hourAgo(50);
  const from = new Date(start).toISOString();
  const to = new Date(start + 48 * HOUR_MS).toISOString();

  before(async () => {
    [svc, browser] = await Promise.all([startTestService({}, { dispatcher: false }), startBrowser()]);
    a = await createGame(svc, { name: 'Overview A' });
    b = await createGame(svc, { name: 'Overview B' });
    await seedTraffic(svc.services.database.db, [a.appId, b.appId], start);
    for (const [app, n] of [
      [a, 2],
      [b, 1],
    ] as const)
      for (let i = 0; i < n; i++)
        assert.equal(
          (
            await postReport(
              svc,
              app,
              reportBody(app, {
                reportee: { svcid: `9${i}`, role_id: `x${i}`, server_code: 's1', role_name: 'M', extra: '' },
              }),
            )
          ).status,
          200,
        );
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** The number of rows a console link's list route answers (the same query through the admin API). */
  async function rowsBehind(href: string): Promise<number> {
    const [path, qs = ''] = href.replace(/^#/, '').split('?');
    const res = await svc.admin('GET', `${path}?${qs}&limit=200`);
    assert.equal(res.status, 200, `${href}: ${JSON.stringify(res.body)}`);
    const list = res.body.events ?? res.body.orders ?? res.body.calls ?? res.body.reports ?? res.body.supplements;
    assert.ok(Array.isArray(list), `a list at ${path}: ${Object.keys(res.body)}`);
    return list.length;
  }

  for (const scope of ['all apps', 'one app'] as const)
    it(`draws the API's figures, each linking to exactly its rows (${scope})`, async () => {
      const appId = scope === 'one app' ? a.appId : undefined;
      const q = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${appId ? `&appId=${appId}` : ''}`;
      const api = (await svc.admin('GET', `/overview?${q}`)).body;
      assert.equal(api.notifications.length, 3, JSON.stringify(api));
      const { page, errors, consoleErrors } = await browser.newPage();
      await signIn(svc, page);
      await go(svc, page, `/overview?${q}`);

      const hours = await figures(page, 'notifications');
      let checked = 0;
      for (const h of api.notifications)
        for (const state of ['delivered', 'retrying', 'dead']) {
          const fig = hours[`${state}@${h.hour}`];
          assert.ok(fig, `a figure for ${state} at ${h.hour}`);
          assert.equal(Number(fig.value), h[state]);
          assert.equal(await rowsBehind(fig.href!), h[state], `rows behind ${fig.href}`);
          checked++;
        }
      assert.equal(checked, 9);

      const commerce = await figures(page, 'commerce');
      assert.ok(api.commerce.length >= 2);
      for (const d of api.commerce)
        for (const key of ['orders', 'payments', 'refunds']) {
          const fig = commerce[`${key}@${d.day}`]!;
          assert.equal(Number(fig.value), d[key]);
          assert.equal(await rowsBehind(fig.href!), d[key], `rows behind ${fig.href}`);
        }
      const pending = api.commerce.reduce((n: number, d: any) => n + d.pendingSupplements, 0);
      assert.equal(pending, appId ? 1 : 2);

      const calls = await figures(page, 'game-calls');
      assert.equal(api.gameCallFailures.length, appId ? 2 : 4);
      for (const c of api.gameCallFailures) {
        const fig = calls[`failures@${c.appId}/${c.kind}`]!;
        assert.equal(Number(fig.value), c.failures);
        assert.equal(await rowsBehind(fig.href!), c.failures, `rows behind ${fig.href}`);
      }

      const reports = await figures(page, 'reports');
      assert.deepEqual(
        api.openReports.map((r: any) => [r.appId, r.open]),
        appId
          ? [[a.appId, 2]]
          : [
              [a.appId, 2],
              [b.appId, 1],
            ],
      );
      for (const r of api.openReports) {
        const fig = reports[`open@${r.appId}`]!;
        assert.equal(Number(fig.value), r.open);
        assert.equal(await rowsBehind(fig.href!), r.open);
      }

      const latency = await figures(page, 'latency');
      for (const d of api.latency) assert.equal(latency[`p90@${d.url}`]!.value, String(d.p90));
      const failures = await figures(page, 'failures');
      assert.equal(Object.keys(failures).length, api.failureReasons.length);
      const failedAttempts = api.failureReasons.reduce((n: number, f: any) => n + f.attempts, 0);
      const notDelivered = api.notifications.reduce((n: number, h: any) => n + h.retrying + h.dead, 0);
      assert.equal(failedAttempts, notDelivered, 'one failed attempt per event not delivered');

      // A figure's link (in the table behind the chart's "Show data" toggle) opens the list page with those rows.
      const dead = api.notifications[0].dead;
      await page.click('figure[data-chart="notifications"] details.chart-data summary');
      await page.click(
        `figure[data-chart="notifications"] a[data-series="dead"][data-x="${api.notifications[0].hour}"]`,
      );
      await page.locator('main[data-route="/events"]').waitFor();
      await waitForRowCount(page, dead);
      assert.equal(await page.locator('canvas').count(), 0, 'the list page replaced the charts');
      assert.deepEqual(errors, []);
      assert.deepEqual(consoleErrors, []);
    });

  it('draws the charts on canvases under the console CSP', async () => {
    const { page, errors, consoleErrors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, `/overview?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    await page.locator('figure[data-chart="notifications"] canvas').waitFor();
    assert.ok((await page.locator('figure.chart canvas').count()) >= 6);
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, [], 'no CSP violation');
  });
});
