import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { StripeFake } from '../stripe-fake.js';
import { count } from '../orders/orders.js';
import type { TestServiceOptions } from '../service.js';
import { waitForText, type TestBrowser } from '../console/console.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../web-pay/web-pay.js';

/** Helpers of the provider tests: the web payment fixture (service, game, apps) and a fake Stripe on loopback. */

export interface StripeFixture extends WebPayFixture {
  stripe: StripeFake;
  /** The overseas app's Stripe account at the fake (its keys are in the app's provider settings). */
  keys: { secretKey: string; webhookSecret: string };
  webhookUrl(appId: number): string;
}

export async function startStripe(
  env: Record<string, string> = {},
  opts: TestServiceOptions = {},
): Promise<StripeFixture> {
  const stripe = await StripeFake.start();
  const f = await startWebPay({ STRIPE_API_BASE_URL: stripe.url, PROVIDER_RECONCILE_INTERVAL_MS: '0', ...env }, opts);
  const webhookUrl = (appId: number) => `${f.svc.url}/notify/v1/providers/stripe/${appId}`;
  const keys = await setUpStripe(f, stripe, f.overseas.appId, webhookUrl(f.overseas.appId));
  return {
    ...f,
    stripe,
    keys,
    webhookUrl,
    async close() {
      await f.close();
      await stripe.close();
    },
  };
}

/** An account at the fake for `appId`, its keys put in the app's Stripe settings through the admin API. */
export async function setUpStripe(f: WebPayFixture, stripe: StripeFake, appId: number, webhookUrl: string) {
  const keys = stripe.account(webhookUrl);
  const res = await f.svc.admin('PUT', `/apps/${appId}/payment-providers/stripe`, {
    secrets: { secretKey: keys.secretKey, webhookSecret: keys.webhookSecret },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return keys;
}

/** A web-view page session (API client) of a new player of the overseas app with a confirmed role. */
export async function webViewSession(f: WebPayFixture, roleId: string, app = f.overseas) {
  const link = await launchLink(f, app, { roleId, serverId: 's1' });
  f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
  const page = new PageClient(f.svc, app.clientId);
  await page.open(link.url);
  await page.context();
  return { page, link };
}

/** Places a Stripe order through the page API; answers its trxNo and the hosted page's session id. */
export async function placeStripeOrder(f: StripeFixture, page: PageClient, quantity = 1) {
  const res = await page.request('POST', '/orders', {
    products: [{ productCode: 'gems_100', quantity }],
    provider: 'stripe',
    lang: 'en',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.payment.kind, 'redirect');
  const sessionId = /\/c\/pay\/(cs_[A-Za-z0-9_]+)$/.exec(res.body.data.payment.url)![1]!;
  return { trxNo: res.body.data.order.trxNo as number, sessionId };
}

/** The payment (2.4) notifications the game received for `trxNo`. */
export function notificationsOf(f: WebPayFixture, trxNo: number): any[] {
  return f.game.requests
    .filter((r) => r.url === '/cb')
    .map((r) => JSON.parse(r.body))
    .filter((n) => n.trxNo === trxNo);
}

/** A provider webhook's refusal: its HTTP status, error code, and `{outcome: refused, reason}` (also in `detail`). */
export function refusedAs(res: { status: number; body: any }, status: number, code: number, reason: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code);
  assert.deepEqual(res.body.data, { outcome: 'refused', reason });
  assert.match(res.body.detail, new RegExp(reason));
}

/** The order is still `status` (default awaiting payment) and the game was told nothing of it. */
export async function assertUnpaid(f: WebPayFixture, trxNo: number, status = 2): Promise<void> {
  const order = (await f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
  assert.equal(order.status, status, `order ${trxNo} is ${order.statusName}`);
  assert.equal(notificationsOf(f, trxNo).length, 0, 'the game was told nothing');
}

/**
 * The mainland page (the provider set up for the mainland app with its default regions) does not offer `provider`,
 * and an order naming it is refused (40050) writing nothing.
 */
export async function assertNotOfferedOnMainland(f: WebPayFixture, provider: string): Promise<void> {
  const { page } = await webViewSession(f, `not-offered-${provider}`, f.mainland);
  assert.ok(!(await page.context()).methods.some((x: any) => x.provider === provider));
  const before = await count(f.svc, 'orders');
  const refused = await page.request('POST', '/orders', { products: [{ productCode: 'pass', quantity: 1 }], provider });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.equal(refused.body.code, 40050);
  assert.equal(await count(f.svc, 'orders'), before);
}

/**
 * A new player of the overseas app in the game's web view at `width` px, in English, on the shop with the confirmed
 * role: the page, its recorded errors, and the launch link (the player's login).
 */
export async function webViewPage(f: WebPayFixture, browser: TestBrowser, roleId: string, width: number) {
  await browser.context.clearCookies();
  const link = await launchLink(f, f.overseas, { roleId, serverId: 's1' });
  f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: `Hero ${roleId}` });
  const { page, errors } = await browser.newPage();
  await page.setViewportSize({ width, height: 800 });
  await page.goto(link.url);
  await page.click('#lang-en');
  await waitForText(page, '#role-name', new RegExp(`Hero ${roleId}`));
  return { page, errors, link };
}

/** The page scrolls no wider than the viewport. */
export async function assertNoHorizontalScroll(page: Page): Promise<void> {
  const fits = await page.evaluate(() => {
    const g = globalThis as any;
    return g.document.documentElement.scrollWidth <= g.innerWidth;
  });
  assert.ok(fits, 'no horizontal scrolling');
}

/** The refund (2.5) notifications the game received for the payment `trxNo`, each with its 5.3 verification. */
export function refundNotificationsOf(f: WebPayFixture, trxNo: number): Array<{ body: any; verified: boolean }> {
  return f.game.requests
    .filter((r) => r.url === '/cb')
    .map((r) => ({ body: JSON.parse(r.body), verified: r.verified }))
    .filter((n) => n.body.trxType === 2 && n.body.originalTrxNo === trxNo);
}

/**
 * The payment `trxNo` was refunded exactly as `expected` says (kind and amount of each web refund, oldest first):
 * one refund order and one outbox 2.5 each, and the game got each once, signed (5.3), naming the payment
 * (originalTrxNo) with its attach and products. Answers the order's admin view.
 */
export async function assertRefunded(
  f: WebPayFixture,
  trxNo: number,
  expected: Array<{ kind: 'refund' | 'dispute_lost'; amount: number }>,
): Promise<any> {
  await f.game.waitFor(() => refundNotificationsOf(f, trxNo).length >= expected.length, 10_000, `2.5 of ${trxNo}`);
  const d = (await f.svc.admin('GET', `/orders/${trxNo}`)).body;
  assert.equal(d.order.status, 0, 'the payment stays succeeded');
  assert.deepEqual(
    d.webRefunds.map((w: any) => [w.kind, w.amount]),
    expected.map((e) => [e.kind, e.amount]),
  );
  assert.equal(d.refunds.length, expected.length, 'one refund order each');
  assert.equal(d.notifications.filter((n: any) => n.type === 'refund').length, expected.length, 'one 2.5 each');
  const sum = expected.reduce((a, e) => a + Math.round(e.amount * 100), 0) / 100;
  assert.equal(d.refundedAmount, sum);
  const notes = refundNotificationsOf(f, trxNo);
  assert.deepEqual(
    notes.map((n) => [n.body.trxNo, n.body.totalAmount, n.verified]),
    d.refunds.map((r: any) => [r.trxNo, r.totalAmount, true]),
    'the game got each 2.5 once, signed',
  );
  for (const { body } of notes) {
    assert.deepEqual(body.attach, d.order.attach, '2.5 rule 2');
    assert.deepEqual(body.products, d.order.products);
    assert.equal(body.channel, d.order.channel);
    assert.equal(body.currency, d.order.currency);
  }
  return d;
}

/** Waits until the game accepted the payment's 2.4 (the items count as granted: a lost dispute owes a supplement). */
export async function waitGranted(f: WebPayFixture, trxNo: number): Promise<void> {
  await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0, 10_000, `2.4 of ${trxNo}`);
  for (let i = 0; i < 100; i++) {
    const d = (await f.svc.admin('GET', `/orders/${trxNo}`)).body;
    if (d.notifications.some((n: any) => n.type === 'payment' && n.state === 'delivered')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the 2.4 of ${trxNo} was not delivered`);
}
