import assert from 'node:assert/strict';
import { AlipayFake, type AlipayAccount } from '../alipay-fake.js';
import type { TestServiceOptions } from '../service.js';
import { PageClient, launchLink, startWebPay, type WebPayFixture } from '../web-pay/web-pay.js';

/**
 * Helpers of the Alipay tests: the web payment fixture (service, game, apps) with the mainland app priced in yuan
 * (Alipay's trades are CNY), its Alipay app at a fake Alipay on loopback.
 */
export interface AlipayFixture extends WebPayFixture {
  alipay: AlipayFake;
  /** The mainland app's Alipay app at the fake (its APPID and keys are in the app's Alipay settings). */
  account: AlipayAccount;
  webhookUrl(appId: number): string;
}

export async function startAlipay(
  env: Record<string, string> = {},
  opts: TestServiceOptions = {},
): Promise<AlipayFixture> {
  const alipay = await AlipayFake.start();
  const f = await startWebPay({ ...alipay.env, PROVIDER_RECONCILE_INTERVAL_MS: '0', ...env }, opts);
  await priceInYuan(f, f.mainland.appId);
  const webhookUrl = (appId: number) => `${f.svc.url}/notify/v1/providers/alipay/${appId}`;
  const account = await setUpAlipay(f, alipay, f.mainland.appId);
  return {
    ...f,
    alipay,
    account,
    webhookUrl,
    async close() {
      await f.close();
      await alipay.close();
    },
  };
}

/** The app sells in CNY: gems_60 (6.00) and vip (30.00); its USD products are disabled. */
export async function priceInYuan(f: WebPayFixture, appId: number): Promise<void> {
  for (const code of ['gems_100', 'pass']) {
    const res = await f.svc.admin('PATCH', `/apps/${appId}/products/${code}`, { status: 'disabled' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  for (const p of [
    { productCode: 'gems_60', name: '60 宝石', price: '6.00', currency: 'CNY' },
    { productCode: 'vip', name: 'VIP 月卡', price: '30.00', currency: 'CNY' },
  ]) {
    const res = await f.svc.admin('POST', `/apps/${appId}/products`, p);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
}

/** An Alipay app at the fake for `appId`, put in the app's Alipay settings through the admin API. */
export async function setUpAlipay(
  f: WebPayFixture,
  alipay: AlipayFake,
  appId: number,
  regions?: string[],
): Promise<AlipayAccount> {
  const account = alipay.account();
  const res = await f.svc.admin('PUT', `/apps/${appId}/payment-providers/alipay`, {
    ...(regions ? { regions } : {}),
    config: { appId: account.appId, alipayPublicKey: account.alipayPublicKey, environment: 'sandbox' },
    secrets: { privateKey: account.privateKey },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return account;
}

/** A web-view page session (API client) of a new player of the mainland app with a confirmed role. */
export async function mainlandSession(f: WebPayFixture, roleId: string, app = f.mainland) {
  const link = await launchLink(f, app, { roleId, serverId: 's1' });
  f.state.roles.set(`s1/${roleId}`, { userId: link.login.userId, name: roleId });
  const page = new PageClient(f.svc, app.clientId);
  await page.open(link.url);
  await page.context();
  return { page, link };
}

/** Places an Alipay order through the page API; answers its trxNo and the cashier URL it redirects to. */
export async function placeAlipayOrder(
  f: AlipayFixture,
  page: PageClient,
  quantity = 1,
  device: 'desktop' | 'phone' = 'desktop',
) {
  const res = await page.request('POST', '/orders', {
    products: [{ productCode: 'gems_60', quantity }],
    provider: 'alipay',
    lang: 'zh-CN',
    device,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.payment.kind, 'redirect');
  return { trxNo: res.body.data.order.trxNo as number, url: res.body.data.payment.url as string };
}

/** Opens the cashier (the player reached Alipay): the trade exists at the fake, waiting for the buyer. */
export async function reachCashier(f: AlipayFixture, url: string) {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /id="btn-alipay-pay"/, html.slice(0, 300));
  const params = new URL(url).searchParams;
  return f.alipay.trade(JSON.parse(params.get('biz_content')!).out_trade_no);
}

/** Makes a payment look opened an hour ago (and past its lifetime when `expired`). */
export const age = (f: WebPayFixture, trxNo: number, expired = false) =>
  f.svc.services.database.db
    .updateTable('provider_payments')
    .set({ opened_at: Date.now() - 3_600_000, ...(expired ? { expires_at: Date.now() - 1 } : {}) })
    .where('trx_no', '=', trxNo)
    .execute();
