import crypto, { type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptResource } from '../payment-providers/wechatpay/wechatpay-crypto.js';
import { readBody, safeParse } from './stripe-fake.js';

/**
 * A fake WeChat Pay on loopback, built from WeChat Pay's public API v3 reference, for tests and the demo:
 * - the API (`POST /v3/pay/transactions/native`, `POST /v3/pay/transactions/h5`,
 *   `GET /v3/pay/transactions/out-trade-no/{out_trade_no}?mchid=`, `POST .../{out_trade_no}/close`): every request's
 *   Authorization (WECHATPAY2-SHA256-RSA2048 over `METHOD\nURL\ntimestamp\nnonce\nbody\n`) checked against the
 *   merchant's API certificate key, every answer signed with the platform key (Wechatpay-Signature, -Serial,
 *   -Timestamp, -Nonce), errors as `{code, message}`;
 * - the H5 step a phone browser is sent to (`/h5pay?prepay_id=...&redirect_url=...`): a page with a Pay button that
 *   pays the transaction and sends the browser to redirect_url; and `scan(code_url)`, the player scanning a Native
 *   code with WeChat and paying;
 * - notifications: TRANSACTION.SUCCESS when a transaction is paid (and REFUND.SUCCESS a test asks for), posted to the
 *   transaction's notify_url, its resource AEAD_AES_256_GCM under the merchant's API v3 key, signed with the platform
 *   key, as WeChat Pay sends them.
 */
export interface FakeTransaction {
  appid: string;
  mchid: string;
  out_trade_no: string;
  description: string;
  attach: string;
  notify_url: string;
  time_expire: string | null;
  trade_type: 'NATIVE' | 'MWEB';
  trade_state: 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
  transaction_id: string | null;
  amount: { total: number; currency: string };
  code_url: string | null;
  prepay_id: string;
  payer_client_ip: string | null;
  success_time: string | null;
}

export interface WechatpayMerchant {
  mchId: string;
  wechatAppId: string;
  merchantSerialNo: string;
  merchantPrivateKey: string;
  apiV3Key: string;
  /** The merchant's API certificate public key (the fake checks requests with it). */
  publicKey: KeyObject;
}

export interface FakeDelivery {
  url: string;
  payload: string;
  headers: Record<string, string>;
  status: number;
  body: string;
}

export interface SignOptions {
  key?: KeyObject;
  serial?: string;
  timestamp?: number;
  nonce?: string;
}

export class WechatpayFake {
  readonly transactions = new Map<string, FakeTransaction>();
  readonly deliveries: FakeDelivery[] = [];
  readonly requests: Array<{ method: string; path: string; body: any }> = [];
  /** true: payments send no notification (the notification that never comes). */
  holdNotifications = false;
  /** Refunds by `mchid:out_refund_no` (POST /v3/refund/domestic/refunds), as the refunds API answers them. */
  readonly refunds = new Map<string, any>();
  /** Set: refunds are refused with this code (e.g. NOT_ENOUGH, 403), as WeChat Pay refuses them. */
  refuseRefunds: string | null = null;
  /** true: refunds are answered PROCESSING until `settleRefund`. */
  refundsPending = false;
  /** Set: the API's answers are signed with this key instead of the platform's (a forger between us and WeChat Pay). */
  answerKey: KeyObject | null = null;
  url = '';
  /** The platform's signing key (微信支付公钥) and its id (Wechatpay-Serial). */
  readonly platformKeyId = `PUB_KEY_ID_0${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}`;
  readonly platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  readonly #merchants: WechatpayMerchant[] = [];
  #server!: http.Server;

  static async start(): Promise<WechatpayFake> {
    const fake = new WechatpayFake();
    fake.#server = http.createServer((req, res) => {
      fake.handle(req, res).catch((err) => fake.answer(res, 500, { code: 'SYSTEM_ERROR', message: String(err) }));
    });
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  get env(): Record<string, string> {
    return { WECHATPAY_API_BASE_URL: this.url };
  }

  get platformPublicKeyPem(): string {
    return this.platform.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  /** A merchant as WeChat Pay's merchant platform makes one: id, appid, API certificate key and serial, API v3 key. */
  merchant(): WechatpayMerchant {
    const keys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const m: WechatpayMerchant = {
      mchId: String(crypto.randomInt(1_600_000_000, 1_699_999_999)),
      wechatAppId: `wx${crypto.randomBytes(8).toString('hex')}`,
      merchantSerialNo: crypto.randomBytes(20).toString('hex').toUpperCase(),
      merchantPrivateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      apiV3Key: crypto.randomBytes(16).toString('hex'),
      publicKey: keys.publicKey,
    };
    this.#merchants.push(m);
    return m;
  }

  /** The provider settings of `m` as a studio enters them (admin API body). */
  settingsOf(m: WechatpayMerchant) {
    return {
      config: {
        mchId: m.mchId,
        wechatAppId: m.wechatAppId,
        merchantSerialNo: m.merchantSerialNo,
        platformKeyId: this.platformKeyId,
      },
      secrets: {
        apiV3Key: m.apiV3Key,
        merchantPrivateKey: m.merchantPrivateKey,
        platformKey: this.platformPublicKeyPem,
      },
    };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** WeChat Pay's signature headers of `body` (answers and notifications). */
  sign(body: string, opts: SignOptions = {}): Record<string, string> {
    const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = opts.nonce ?? crypto.randomBytes(16).toString('hex');
    const signature = crypto
      .sign('sha256', Buffer.from(`${timestamp}\n${nonce}\n${body}\n`), opts.key ?? this.platform.privateKey)
      .toString('base64');
    return {
      'wechatpay-nonce': nonce,
      'wechatpay-signature': signature,
      'wechatpay-timestamp': timestamp,
      'wechatpay-serial': opts.serial ?? this.platformKeyId,
      'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
    };
  }

  /** A notification of `resource` as WeChat Pay builds one, encrypted under `apiV3Key`. */
  static notification(
    apiV3Key: string,
    eventType: string,
    resource: unknown,
    id: string = crypto.randomUUID(),
  ): Record<string, unknown> {
    const nonce = crypto.randomBytes(6).toString('hex');
    const associatedData = eventType.startsWith('REFUND') ? 'refund' : 'transaction';
    return {
      id,
      create_time: new Date().toISOString().replace(/\.\d+Z$/, '+00:00'),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary: eventType === 'TRANSACTION.SUCCESS' ? '支付成功' : '退款成功',
      resource: {
        original_type: associatedData,
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext: encryptResource(apiV3Key, JSON.stringify(resource), nonce, associatedData),
        associated_data: associatedData,
        nonce,
      },
    };
  }

  /** The transaction as the query and the notification describe it. */
  static resourceOf(t: FakeTransaction) {
    return {
      appid: t.appid,
      mchid: t.mchid,
      out_trade_no: t.out_trade_no,
      ...(t.transaction_id ? { transaction_id: t.transaction_id } : {}),
      trade_type: t.trade_type,
      trade_state: t.trade_state,
      trade_state_desc: t.trade_state === 'SUCCESS' ? '支付成功' : t.trade_state,
      bank_type: t.trade_state === 'SUCCESS' ? 'OTHERS' : '',
      attach: t.attach,
      ...(t.success_time ? { success_time: t.success_time } : {}),
      payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
      amount: {
        total: t.amount.total,
        payer_total: t.trade_state === 'NOTPAY' ? 0 : t.amount.total,
        currency: t.amount.currency,
        payer_currency: t.amount.currency,
      },
    };
  }

  /** Posts `payload` to `url` with `headers` (a test's, or null: unsigned). */
  async post(url: string, payload: string, headers: Record<string, string> | null): Promise<FakeDelivery> {
    const sent = { 'content-type': 'application/json', 'user-agent': 'Mozilla/4.0', ...(headers ?? {}) };
    const res = await fetch(url, { method: 'POST', headers: sent, body: payload });
    const delivery = { url, payload, headers: sent, status: res.status, body: await res.text() };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** Sends `event` (a notification body) to `url`, signed with the platform key. */
  send(url: string, event: unknown): Promise<FakeDelivery> {
    const payload = JSON.stringify(event);
    return this.post(url, payload, this.sign(payload));
  }

  merchantOf(mchId: string): WechatpayMerchant {
    return this.#merchants.find((m) => m.mchId === mchId)!;
  }

  /** The player paid the transaction in WeChat: SUCCESS, and the notification sent (unless held). */
  async pay(outTradeNo: string): Promise<FakeTransaction> {
    const t = this.transactions.get(outTradeNo)!;
    if (t.trade_state !== 'NOTPAY') throw new Error(`transaction ${outTradeNo} is ${t.trade_state}`);
    t.trade_state = 'SUCCESS';
    // 28 digits, as WeChat Pay's transaction ids are (4200... for balance and bank card payments).
    t.transaction_id = `4200${Array.from({ length: 24 }, () => crypto.randomInt(10)).join('')}`;
    t.success_time = new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
    if (!this.holdNotifications) await this.notifyPaid(t);
    return t;
  }

  /** The player scanned a Native code with WeChat and paid. */
  scan(codeUrl: string): Promise<FakeTransaction> {
    const t = [...this.transactions.values()].find((x) => x.code_url === codeUrl);
    if (!t) throw new Error(`no transaction has the code ${codeUrl}`);
    return this.pay(t.out_trade_no);
  }

  /** TRANSACTION.SUCCESS of `t`, sent to its notify_url. */
  notifyPaid(t: FakeTransaction): Promise<FakeDelivery> {
    const m = this.merchantOf(t.mchid);
    return this.send(
      t.notify_url,
      WechatpayFake.notification(m.apiV3Key, 'TRANSACTION.SUCCESS', WechatpayFake.resourceOf(t)),
    );
  }

  /** What was refunded of each transaction (by out_trade_no), in fen. */
  readonly #refunded = new Map<string, number>();

  /**
   * A refund of a paid transaction (the merchant's, in the merchant platform or by the refunds API) of `fen`
   * (default what remains), and its REFUND.SUCCESS notification (退款结果通知: the refund resource encrypted like a
   * payment's), sent to the transaction's notify_url unless `send` is false. Answers the resource and the event.
   */
  async refund(outTradeNo: string, fen?: number, opts: { send?: boolean } = {}) {
    const t = this.transactions.get(outTradeNo)!;
    if (!t.transaction_id) throw new Error(`transaction ${outTradeNo} is not paid`);
    const before = this.#refunded.get(outTradeNo) ?? 0;
    const refund = fen ?? t.amount.total - before;
    if (refund <= 0 || before + refund > t.amount.total) throw new Error(`refund of ${refund} exceeds ${outTradeNo}`);
    this.#refunded.set(outTradeNo, before + refund);
    t.trade_state = 'REFUND';
    const resource = {
      mchid: t.mchid,
      out_trade_no: t.out_trade_no,
      transaction_id: t.transaction_id,
      out_refund_no: `R${crypto.randomBytes(8).toString('hex')}`,
      // 29 digits, as WeChat Pay's refund ids are.
      refund_id: `5030${Array.from({ length: 25 }, () => crypto.randomInt(10)).join('')}`,
      refund_status: 'SUCCESS',
      success_time: new Date().toISOString().replace(/\.\d+Z$/, '+00:00'),
      user_received_account: '支付用户零钱',
      amount: { total: t.amount.total, refund, payer_total: t.amount.total, payer_refund: refund },
    };
    const event = WechatpayFake.notification(this.merchantOf(t.mchid).apiV3Key, 'REFUND.SUCCESS', resource);
    const delivery = opts.send === false ? null : await this.send(t.notify_url, event);
    return { resource, event, delivery };
  }

  private answer(res: http.ServerResponse, status: number, body: unknown): void {
    const text = body === null ? '' : JSON.stringify(body);
    res.writeHead(status, {
      ...(text ? { 'content-type': 'application/json' } : {}),
      'request-id': crypto.randomUUID(),
      ...this.sign(text, this.answerKey ? { key: this.answerKey } : {}),
    });
    res.end(text);
  }

  /** The merchant a request's Authorization names, when its signature verifies with the merchant's key. */
  private authorized(req: http.IncomingMessage, body: string): WechatpayMerchant | null {
    const auth = req.headers.authorization ?? '';
    const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(auth);
    if (!m) return null;
    const fields = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    const merchant = this.#merchants.find((x) => x.mchId === fields.mchid);
    if (!merchant || fields.serial_no !== merchant.merchantSerialNo) return null;
    if (Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300) return null;
    const message = `${req.method}\n${req.url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    const ok = crypto.verify(
      'sha256',
      Buffer.from(message),
      merchant.publicKey,
      Buffer.from(fields.signature ?? '', 'base64'),
    );
    return ok ? merchant : null;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url!, this.url);
    if (url.pathname === '/h5pay') return this.h5Page(url, req, res, body);
    this.requests.push({ method: req.method!, path: req.url!, body: safeParse(body) });
    const merchant = this.authorized(req, body);
    if (!merchant) return this.answer(res, 401, { code: 'SIGN_ERROR', message: '签名错误' });
    const open = /^\/v3\/pay\/transactions\/(native|h5)$/.exec(url.pathname);
    if (req.method === 'POST' && open) return this.open(res, merchant, open[1] as 'native' | 'h5', safeParse(body));
    const byNo = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(url.pathname);
    if (byNo) {
      const t = this.transactions.get(decodeURIComponent(byNo[1]!));
      if (!t || t.mchid !== merchant.mchId)
        return this.answer(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
      if (req.method === 'GET' && !byNo[2]) {
        if (url.searchParams.get('mchid') !== merchant.mchId)
          return this.answer(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
        return this.answer(res, 200, WechatpayFake.resourceOf(t));
      }
      if (req.method === 'POST' && byNo[2]) {
        if (t.trade_state === 'SUCCESS' || t.trade_state === 'REFUND')
          return this.answer(res, 400, { code: 'ORDERPAID', message: '订单已支付' });
        t.trade_state = 'CLOSED';
        return this.answer(res, 204, null);
      }
    }
    if (req.method === 'POST' && url.pathname === '/v3/refund/domestic/refunds')
      return this.apiRefund(res, merchant, safeParse(body));
    const refundNo = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && refundNo) {
      const r = this.refunds.get(`${merchant.mchId}:${decodeURIComponent(refundNo[1]!)}`);
      if (!r) return this.answer(res, 404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
      return this.answer(res, 200, r);
    }
    return this.answer(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
  }

  /**
   * POST /v3/refund/domestic/refunds (申请退款): a paid transaction by out_trade_no or transaction_id, amount.refund at
   * most what remains of amount.total; the same out_refund_no again answers the same refund.
   */
  private apiRefund(res: http.ServerResponse, m: WechatpayMerchant, b: any): void {
    const bad = (message: string) => this.answer(res, 400, { code: 'PARAM_ERROR', message });
    const key = `${m.mchId}:${b?.out_refund_no}`;
    if (typeof b?.out_refund_no !== 'string' || !/^[0-9A-Za-z_\-|*@]{1,64}$/.test(b.out_refund_no))
      return bad('out_refund_no');
    const t = [...this.transactions.values()].find(
      (x) =>
        x.mchid === m.mchId &&
        (x.out_trade_no === b.out_trade_no || (x.transaction_id && x.transaction_id === b.transaction_id)),
    );
    if (!t) return this.answer(res, 404, { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' });
    const kept = this.refunds.get(key);
    if (kept) return this.answer(res, 200, kept);
    const refund = Number(b?.amount?.refund);
    if (!Number.isSafeInteger(refund) || refund < 1) return bad('amount.refund');
    if (b.amount.total !== t.amount.total || b.amount.currency !== 'CNY') return bad('amount.total');
    if (t.trade_state !== 'SUCCESS' && t.trade_state !== 'REFUND')
      return this.answer(res, 400, { code: 'INVALID_REQUEST', message: '订单状态不允许退款' });
    if (this.refuseRefunds) return this.answer(res, 403, { code: this.refuseRefunds, message: '退款被拒绝' });
    const processing = [...this.refunds.values()]
      .filter((r) => r.out_trade_no === t.out_trade_no && r.status === 'PROCESSING')
      .reduce((sum, r) => sum + r.amount.refund, 0);
    const refunded = (this.#refunded.get(t.out_trade_no) ?? 0) + processing;
    if (refund > t.amount.total - refunded)
      return this.answer(res, 400, { code: 'INVALID_REQUEST', message: '申请退款金额超过订单可退金额' });
    const made = {
      refund_id: `50${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}`,
      out_refund_no: b.out_refund_no,
      transaction_id: t.transaction_id,
      out_trade_no: t.out_trade_no,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      create_time: new Date().toISOString().slice(0, 19) + '+08:00',
      ...(this.refundsPending ? {} : { success_time: new Date().toISOString().slice(0, 19) + '+08:00' }),
      status: this.refundsPending ? 'PROCESSING' : 'SUCCESS',
      funds_account: 'AVAILABLE',
      amount: { total: t.amount.total, refund, payer_total: t.amount.total, payer_refund: refund, currency: 'CNY' },
    };
    this.refunds.set(key, made);
    t.trade_state = 'REFUND';
    this.answer(res, 200, made);
    if (made.status === 'SUCCESS') this.#refundDone(made);
  }

  /**
   * A refund of the API that succeeded: on its transaction, and its REFUND.SUCCESS notification after the answer, as
   * WeChat Pay sends it, unless notifications are held.
   */
  #refundDone(r: any): void {
    const t = this.transactions.get(r.out_trade_no)!;
    this.#refunded.set(t.out_trade_no, (this.#refunded.get(t.out_trade_no) ?? 0) + r.amount.refund);
    const resource = {
      mchid: t.mchid,
      out_trade_no: t.out_trade_no,
      transaction_id: t.transaction_id,
      out_refund_no: r.out_refund_no,
      refund_id: r.refund_id,
      refund_status: 'SUCCESS',
      success_time: new Date().toISOString().replace(/\.\d+Z$/, '+00:00'),
      user_received_account: r.user_received_account,
      amount: {
        total: t.amount.total,
        refund: r.amount.refund,
        payer_total: t.amount.total,
        payer_refund: r.amount.refund,
      },
    };
    const event = WechatpayFake.notification(this.merchantOf(t.mchid).apiV3Key, 'REFUND.SUCCESS', resource);
    this.refundEvents.set(r.out_refund_no, event);
    if (!this.holdNotifications) setTimeout(() => void this.send(t.notify_url, event).catch(() => undefined), 20);
  }

  /** The REFUND.SUCCESS notification WeChat Pay sent (or would have) for each API refund, by out_refund_no. */
  readonly refundEvents = new Map<string, unknown>();

  /** A PROCESSING refund finishes: SUCCESS, or ABNORMAL (the payer's card was closed...). */
  settleRefund(mchId: string, outRefundNo: string, abnormal = false): any {
    const r = this.refunds.get(`${mchId}:${outRefundNo}`)!;
    r.status = abnormal ? 'ABNORMAL' : 'SUCCESS';
    if (!abnormal) this.#refundDone(r);
    return r;
  }

  private open(res: http.ServerResponse, m: WechatpayMerchant, kind: 'native' | 'h5', b: any): void {
    const bad = (message: string) => this.answer(res, 400, { code: 'PARAM_ERROR', message });
    if (b?.appid !== m.wechatAppId || b?.mchid !== m.mchId) return bad('appid和mchid不匹配');
    if (typeof b.out_trade_no !== 'string' || !/^[A-Za-z0-9_*|-]{6,32}$/.test(b.out_trade_no))
      return bad('out_trade_no');
    if (typeof b.description !== 'string' || b.description.length === 0 || b.description.length > 127)
      return bad('description');
    if (!Number.isInteger(b.amount?.total) || b.amount.total < 1) return bad('amount.total');
    if (b.amount.currency !== 'CNY') return bad('amount.currency');
    if (typeof b.notify_url !== 'string' || !/^https?:\/\//.test(b.notify_url)) return bad('notify_url');
    if (kind === 'h5' && (typeof b.scene_info?.payer_client_ip !== 'string' || b.scene_info.h5_info?.type !== 'Wap'))
      return bad('scene_info');
    const known = this.transactions.get(b.out_trade_no);
    if (known) {
      // The same order again with the same parameters is the same prepay (WeChat Pay's idempotency).
      if (known.amount.total !== b.amount.total || known.mchid !== m.mchId)
        return this.answer(res, 400, { code: 'OUT_TRADE_NO_USED', message: '商户订单号重复' });
      if (known.trade_state === 'CLOSED') return this.answer(res, 400, { code: 'ORDER_CLOSED', message: '订单已关闭' });
      return this.answer(res, 200, kind === 'native' ? { code_url: known.code_url } : { h5_url: this.h5Url(known) });
    }
    const t: FakeTransaction = {
      appid: b.appid,
      mchid: b.mchid,
      out_trade_no: b.out_trade_no,
      description: b.description,
      attach: String(b.attach ?? ''),
      notify_url: b.notify_url,
      time_expire: b.time_expire ?? null,
      trade_type: kind === 'native' ? 'NATIVE' : 'MWEB',
      trade_state: 'NOTPAY',
      transaction_id: null,
      amount: { total: b.amount.total, currency: 'CNY' },
      code_url: kind === 'native' ? `weixin://wxpay/bizpayurl?pr=${crypto.randomBytes(5).toString('hex')}` : null,
      prepay_id: `wx${Date.now()}${crypto.randomBytes(6).toString('hex')}`,
      payer_client_ip: kind === 'h5' ? b.scene_info.payer_client_ip : null,
      success_time: null,
    };
    this.transactions.set(t.out_trade_no, t);
    return this.answer(res, 200, kind === 'native' ? { code_url: t.code_url } : { h5_url: this.h5Url(t) });
  }

  private h5Url(t: FakeTransaction): string {
    return `${this.url}/h5pay?prepay_id=${t.prepay_id}&package=${crypto.randomBytes(4).toString('hex')}`;
  }

  /** The H5 step: a page that names the amount and pays on Pay, then sends the browser to redirect_url. */
  private async h5Page(url: URL, req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const t = [...this.transactions.values()].find((x) => x.prepay_id === url.searchParams.get('prepay_id'));
    if (!t) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('no such prepay_id');
    }
    const back = url.searchParams.get('redirect_url');
    if (req.method === 'POST') {
      if (new URLSearchParams(body).get('action') === 'pay' && t.trade_state === 'NOTPAY')
        await this.pay(t.out_trade_no);
      res.writeHead(302, { location: back ?? '/' });
      return void res.end();
    }
    const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="zh-CN"><meta name="viewport" content="width=device-width"><title>微信支付</title>
<h1>微信支付 (fake)</h1><p id="description">${esc(t.description)}</p><p>¥<span id="amount">${(t.amount.total / 100).toFixed(2)}</span></p>
<form method="post"><button id="btn-pay" name="action" value="pay">确认支付</button>
<button id="btn-cancel" name="action" value="cancel">取消</button></form></html>`);
  }
}
