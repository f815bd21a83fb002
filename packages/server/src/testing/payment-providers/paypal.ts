import assert from 'node:assert/strict';
import { PaypalFake } from '../paypal-fake.js';
import type { TestServiceOptions } from '../service.js';
import { startWebPay, type PageClient, type WebPayFixture } from '../web-pay/web-pay.js';

/** Helpers of the PayPal tests: the web payment fixture (service, game, apps) and a fake PayPal on loopback. */

export interface PaypalFixture extends WebPayFixture {
  paypal: PaypalFake;
  /** The overseas app's REST app and webhook at the fake (in the app's PayPal settings). */
  keys: PaypalKeys;
  webhookUrl(appId: number): string;
}

export interface PaypalKeys {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}

export async function startPaypal(
  env: Record<string, string> = {},
  opts: TestServiceOptions = {},
): Promise<PaypalFixture> {
  const paypal = await PaypalFake.start();
  const f = await startWebPay({ ...paypal.env, PROVIDER_RECONCILE_INTERVAL_MS: '0', ...env }, opts);
  const webhookUrl = (appId: number) => `${f.svc.url}/notify/v1/providers/paypal/${appId}`;
  const keys = await setUpPaypal(f, paypal, f.overseas.appId, webhookUrl(f.overseas.appId));
  return {
    ...f,
    paypal,
    keys,
    webhookUrl,
    async close() {
      await f.close();
      await paypal.close();
    },
  };
}

/** A REST app at the fake for `appId`, put in the app's PayPal settings through the admin API. */
export async function setUpPaypal(
  f: WebPayFixture,
  paypal: PaypalFake,
  appId: number,
  webhookUrl: string,
): Promise<PaypalKeys> {
  const keys = paypal.account(webhookUrl);
  const res = await f.svc.admin('PUT', `/apps/${appId}/payment-providers/paypal`, {
    config: { clientId: keys.clientId, webhookId: keys.webhookId, environment: 'sandbox' },
    secrets: { clientSecret: keys.clientSecret },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return keys;
}

/** Places a PayPal order through the page API; answers its trxNo and the PayPal order id of the approval page. */
export async function placePaypalOrder(f: PaypalFixture, page: PageClient, quantity = 1) {
  const res = await page.request('POST', '/orders', {
    products: [{ productCode: 'gems_100', quantity }],
    provider: 'paypal',
    lang: 'en',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.payment.kind, 'redirect');
  const orderId = new URL(res.body.data.payment.url).searchParams.get('token')!;
  assert.ok(f.paypal.orders.has(orderId));
  return { trxNo: res.body.data.order.trxNo as number, orderId };
}

/** Makes a payment look opened an hour ago (the late query and the reconciliation ask about it at once). */
export const age = (f: WebPayFixture, trxNo: number, expired = false) =>
  f.svc.services.database.db
    .updateTable('provider_payments')
    .set({ opened_at: Date.now() - 3_600_000, ...(expired ? { expires_at: Date.now() - 1 } : {}) })
    .where('trx_no', '=', trxNo)
    .execute();
