import assert from 'node:assert/strict';
import { StripeFake } from '../testing/stripe-fake.js';
import type { TestServiceOptions } from '../testing/service.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../web-pay/web-pay.testlib.js';

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
