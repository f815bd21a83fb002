import type { KeyObject } from 'node:crypto';
import { ProviderError } from '../provider.js';
import { authorization, verifySigned, type PlatformKey } from './wechatpay-crypto.js';

/** WeChat Pay's API v3 host (mainland). */
export const WECHATPAY_API = 'https://api.mch.weixin.qq.com';

/** The merchant's credentials of one app, as the API client is handed them. */
export interface WechatpayMerchant {
  mchId: string;
  serialNo: string;
  privateKey: KeyObject;
  platform: PlatformKey;
}

/** A refusal WeChat Pay answered (4xx/5xx with `{code, message}`): its HTTP status and code. */
export class WechatpayRefusal extends ProviderError {
  constructor(
    readonly status: number,
    readonly wxCode: string,
    message: string,
  ) {
    // WeChat Pay's 5xx (SYSTEM_ERROR...) ask for a retry; its 4xx are answers.
    super(status >= 500 ? 'unreachable' : 'refused', `WeChat Pay answered ${status} ${wxCode}: ${message}`);
  }
}

/**
 * The few API v3 calls we make, over fetch: every request signed (Authorization), every answer with a body checked
 * against the platform key before it is read (an answer that does not verify is not WeChat Pay's: refused as such).
 */
export class WechatpayApi {
  constructor(
    private readonly options: { apiBaseUrl: string; timeoutMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** POST /v3/pay/transactions/native: the `code_url` the payer scans. */
  native(m: WechatpayMerchant, body: object): Promise<unknown> {
    return this.call(m, 'POST', '/v3/pay/transactions/native', body);
  }

  /** POST /v3/pay/transactions/h5: the `h5_url` a phone browser opens. */
  h5(m: WechatpayMerchant, body: object): Promise<unknown> {
    return this.call(m, 'POST', '/v3/pay/transactions/h5', body);
  }

  /** GET /v3/pay/transactions/out-trade-no/{out_trade_no}?mchid=: the transaction now. */
  query(m: WechatpayMerchant, outTradeNo: string): Promise<unknown> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(m.mchId)}`;
    return this.call(m, 'GET', path, null);
  }

  /** POST /v3/pay/transactions/out-trade-no/{out_trade_no}/close: 204 when closed. */
  async close(m: WechatpayMerchant, outTradeNo: string): Promise<void> {
    await this.call(m, 'POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, {
      mchid: m.mchId,
    });
  }

  /** POST /v3/refund/domestic/refunds: the refund as WeChat Pay took it. */
  refund(m: WechatpayMerchant, body: object): Promise<unknown> {
    return this.call(m, 'POST', '/v3/refund/domestic/refunds', body);
  }

  /** GET /v3/refund/domestic/refunds/{out_refund_no}: the refund now. */
  refundQuery(m: WechatpayMerchant, outRefundNo: string): Promise<unknown> {
    return this.call(m, 'GET', `/v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`, null);
  }

  private async call(m: WechatpayMerchant, method: string, path: string, body: object | null): Promise<unknown> {
    const base = (this.options.apiBaseUrl || WECHATPAY_API).replace(/\/+$/, '');
    const url = new URL(base + path);
    const text = body === null ? '' : JSON.stringify(body);
    let res: Response;
    let answer: string;
    try {
      res = await fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          'user-agent': 'game-platform',
          authorization: authorization(m, method, url.pathname + url.search, text, this.now()),
          ...(body === null ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === null ? {} : { body: text }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
      answer = await res.text();
    } catch (e) {
      throw new ProviderError('unreachable', `WeChat Pay could not be reached: ${(e as Error).message}`);
    }
    if (res.status === 204) return null;
    const headers = Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
    if (res.status >= 500) throw new WechatpayRefusal(res.status, 'SYSTEM_ERROR', 'server error');
    verifySigned(m.platform, headers, answer, this.now());
    let parsed: any;
    try {
      parsed = JSON.parse(answer);
    } catch {
      throw new ProviderError('malformed', `WeChat Pay answered ${res.status} without JSON`);
    }
    if (res.status >= 400) {
      const code = typeof parsed?.code === 'string' ? parsed.code.slice(0, 64) : 'UNKNOWN';
      const message = typeof parsed?.message === 'string' ? parsed.message.slice(0, 200) : '';
      throw new WechatpayRefusal(res.status, code, message);
    }
    return parsed;
  }
}
