import assert from 'node:assert/strict';
import { WechatpayFake, type WechatpayMerchant } from '../wechatpay-fake.js';
import type { TestServiceOptions } from '../service.js';
import { startWebPay, type PageClient, type WebPayFixture } from '../web-pay/web-pay.js';

/**
 * Helpers of the WeChat Pay tests: the web payment fixture (service, game, apps) and a fake WeChat Pay on loopback.
 * WeChat Pay takes CNY: the mainland app gets CNY products (`gems_cny` ¥6.00, `vip_cny` ¥30.00).
 */

export interface WechatpayFixture extends WebPayFixture {
  wechat: WechatpayFake;
  /** The mainland app's merchant at the fake (in the app's WeChat Pay settings). */
  merchant: WechatpayMerchant;
  webhookUrl(appId: number): string;
}

export async function startWechatpay(
  env: Record<string, string> = {},
  opts: TestServiceOptions = {},
): Promise<WechatpayFixture> {
  const wechat = await WechatpayFake.start();
  const f = await startWebPay({ ...wechat.env, PROVIDER_RECONCILE_INTERVAL_MS: '0', ...env }, opts);
  await cnyProducts(f, f.mainland.appId);
  const merchant = await setUpWechatpay(f, wechat, f.mainland.appId);
  return {
    ...f,
    wechat,
    merchant,
    webhookUrl: (appId: number) => `${f.svc.url}/notify/v1/providers/wechatpay/${appId}`,
    async close() {
      await f.close();
      await wechat.close();
    },
  };
}

export async function cnyProducts(f: WebPayFixture, appId: number): Promise<void> {
  for (const p of [
    { productCode: 'gems_cny', name: '60 钻石', price: '6.00', currency: 'CNY' },
    { productCode: 'vip_cny', name: 'VIP 月卡', price: '30.00', currency: 'CNY' },
  ]) {
    const res = await f.svc.admin('POST', `/apps/${appId}/products`, p);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
}

/** A merchant at the fake for `appId`, put in the app's WeChat Pay settings through the admin API. */
export async function setUpWechatpay(f: WebPayFixture, wechat: WechatpayFake, appId: number) {
  const merchant = wechat.merchant();
  const res = await f.svc.admin('PUT', `/apps/${appId}/payment-providers/wechatpay`, wechat.settingsOf(merchant));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return merchant;
}

/**
 * Places a WeChat Pay order through the page API, as a desktop (Native: a QR step) or a phone (H5: a redirect);
 * answers its trxNo, out_trade_no and the step.
 */
export async function placeWechatOrder(
  f: WechatpayFixture,
  page: PageClient,
  device: 'desktop' | 'phone' = 'desktop',
  quantity = 1,
) {
  const res = await page.request('POST', '/orders', {
    products: [{ productCode: 'gems_cny', quantity }],
    provider: 'wechatpay',
    device,
    lang: 'zh-CN',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const trxNo = res.body.data.order.trxNo as number;
  const outTradeNo = `GP${String(trxNo).padStart(12, '0')}`;
  assert.ok(f.wechat.transactions.has(outTradeNo));
  return { trxNo, outTradeNo, payment: res.body.data.payment };
}

/**
 * A refusal at the WeChat Pay notify URL: its HTTP status (4xx, so WeChat Pay retries; never a 5xx) and the body
 * WeChat Pay documents for a failure, `{code: "FAIL", message}`, with our outcome and reason beside.
 */
export function refusedAs(res: { status: number; body: any }, status: number, reason: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, 'FAIL');
  assert.equal(res.body.outcome, 'refused');
  assert.equal(res.body.reason, reason);
  assert.match(res.body.message, new RegExp(`wechatpay: refused \\(${reason}\\)`));
}
