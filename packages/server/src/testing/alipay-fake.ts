import crypto, { type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './stripe-fake.js';

/**
 * A fake Alipay on loopback, built from Alipay's public Open Platform reference (RSA2 public-key mode), for tests and
 * the demo. Its gateway (`/gateway.do`) takes the common request parameters (app_id, method, charset, sign_type,
 * sign, timestamp, version, notify_url, return_url, biz_content) and checks each request's RSA2 signature (sorted
 * `key=value` pairs joined by `&`, sign left out) with the app's public key; it serves:
 * - the cashier of `alipay.trade.page.pay` and `alipay.trade.wap.pay` (a GET the browser is sent to): a page a
 *   browser clicks through (Alipay account, Pay); the trade becomes TRADE_SUCCESS, the asynchronous notify is POSTed
 *   to notify_url (a form, signed RSA2 with the app's Alipay key pair, which the fake makes: its public half is the
 *   "Alipay public key" the studio pastes), and the browser is sent to return_url with the synchronous parameters;
 * - `alipay.trade.query`, `alipay.trade.close`, `alipay.trade.refund` and `alipay.trade.fastpay.refund.query` (POST), answered `{"<method>_response": {...}, "sign": "..."}` with
 *   the answer's JSON signed by the Alipay key, errors as code 40004 with Alipay's sub_codes.
 */
export interface FakeTrade {
  appId: string;
  outTradeNo: string;
  tradeNo: string;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_FINISHED' | 'TRADE_CLOSED';
  totalAmount: string;
  subject: string;
  productCode: string;
  method: string;
  /** time_expire as Beijing time text, and as ms. */
  timeExpire: string | null;
  expiresAt: number | null;
  notifyUrl: string | null;
  returnUrl: string | null;
  quitUrl: string | null;
  buyerLogonId: string | null;
}

export interface FakeNotify {
  url: string;
  params: Record<string, string>;
  status: number;
  body: string;
}

export interface AlipayAccount {
  appId: string;
  /** The app's RSA2 private key (PKCS#1 PEM, as Alipay's key tool writes it for non-Java languages). */
  privateKey: string;
  /** The app's public key, as the studio uploads it to the console. */
  appPublicKey: KeyObject;
  /** The Alipay key pair of this app: its public half is what the console shows as the Alipay public key. */
  alipayPublicKey: string;
  alipayPrivateKey: KeyObject;
}

export class AlipayFake {
  readonly trades = new Map<string, FakeTrade>();
  readonly notifies: FakeNotify[] = [];
  /** Gateway calls, for assertions: method, params (common and biz_content parsed), whether the signature held. */
  readonly requests: Array<{ method: string; params: Record<string, string>; biz: any; signed: boolean }> = [];
  /** true: payments send no notify (the notification that never comes). */
  holdNotifies = false;
  /** Refunds by `appId:out_trade_no:out_request_no` (alipay.trade.refund), amounts in yuan cents. */
  readonly refunds = new Map<string, { outTradeNo: string; outRequestNo: string; cents: number; reason: string }>();
  /** Set: refunds are refused with this sub_code (e.g. ACQ.SELLER_BALANCE_NOT_ENOUGH), as Alipay refuses them. */
  refuseRefunds: string | null = null;
  /** The next OpenAPI answers: `down` a 502 (Alipay unreachable), `forged` signed with another key (a man in the middle). */
  answers: 'genuine' | 'down' | 'forged' = 'genuine';
  url = '';
  readonly #accounts = new Map<string, AlipayAccount>();
  #server!: http.Server;

  /** `port` 0 (the default) takes a free one; the deploy test gives a fixed one its compose platform is told. */
  static async start(port = 0): Promise<AlipayFake> {
    const fake = new AlipayFake();
    fake.#server = http.createServer((req, res) => {
      fake.handle(req, res).catch((err) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve) => fake.#server.listen(port, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  get gateway(): string {
    return `${this.url}/gateway.do`;
  }

  /** The service configuration that points it at this fake. */
  get env(): Record<string, string> {
    return { ALIPAY_GATEWAY_URL: this.gateway };
  }

  /** A web app in the Open Platform console: its APPID, the key pair the studio made, and Alipay's key pair for it. */
  account(): AlipayAccount {
    const app = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const alipay = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const account: AlipayAccount = {
      appId: `2021${String(crypto.randomInt(1e11)).padStart(12, '0')}`,
      privateKey: app.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
      appPublicKey: app.publicKey,
      // The console shows it as bare base64 (no PEM lines).
      alipayPublicKey: (alipay.publicKey.export({ type: 'spki', format: 'der' }) as Buffer).toString('base64'),
      alipayPrivateKey: alipay.privateKey,
    };
    this.#accounts.set(account.appId, account);
    return account;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** Alipay's RSA2 signature of parameters: sorted `key=value` of all but sign (and sign_type, for notifies). */
  static signContent(params: Record<string, string>, leaveOut: string[]): string {
    return Object.keys(params)
      .filter((k) => !leaveOut.includes(k))
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
  }

  /** A notify's parameters signed as Alipay signs them (with `key`, default the app's Alipay key). */
  signNotify(params: Record<string, string>, key?: KeyObject): Record<string, string> {
    const account = this.#accounts.get(params.app_id!);
    const signer = key ?? account?.alipayPrivateKey;
    if (!signer) throw new Error(`no Alipay key for app_id ${params.app_id}: pass one`);
    const unsigned = { ...params, sign_type: 'RSA2' };
    const content = AlipayFake.signContent(unsigned, ['sign', 'sign_type']);
    return { ...unsigned, sign: crypto.sign('sha256', Buffer.from(content, 'utf8'), signer).toString('base64') };
  }

  /** The notify Alipay sends for `trade` (trade_status_sync), with `overrides`, unsigned. */
  notifyOf(trade: FakeTrade, overrides: Record<string, string> = {}): Record<string, string> {
    const now = beijing(Date.now());
    return {
      gmt_create: now,
      charset: 'utf-8',
      seller_email: 'merchant@example.com',
      subject: trade.subject,
      buyer_id: '2088102177846880',
      invoice_amount: trade.totalAmount,
      notify_id: `2026${crypto.randomBytes(14).toString('hex')}`,
      fund_bill_list: JSON.stringify([{ amount: trade.totalAmount, fundChannel: 'ALIPAYACCOUNT' }]),
      notify_type: 'trade_status_sync',
      trade_status: trade.status,
      receipt_amount: trade.totalAmount,
      buyer_pay_amount: trade.totalAmount,
      app_id: trade.appId,
      seller_id: '2088102177649450',
      gmt_payment: now,
      notify_time: now,
      version: '1.0',
      out_trade_no: trade.outTradeNo,
      total_amount: trade.totalAmount,
      trade_no: trade.tradeNo,
      auth_app_id: trade.appId,
      buyer_logon_id: trade.buyerLogonId ?? 'pla***@example.com',
      point_amount: '0.00',
      ...overrides,
    };
  }

  /** POSTs `params` as a form to `url` (the trade's notify_url by default): the delivery as sent and answered. */
  async post(url: string, params: Record<string, string>): Promise<FakeNotify> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams(params).toString(),
    });
    const delivery = { url, params, status: res.status, body: await res.text() };
    this.notifies.push(delivery);
    return delivery;
  }

  /** Sends the signed notify of `trade` (with `overrides`) to its notify_url. */
  notify(trade: FakeTrade, overrides: Record<string, string> = {}): Promise<FakeNotify> {
    return this.post(trade.notifyUrl!, this.signNotify(this.notifyOf(trade, overrides)));
  }

  /** The buyer pays `trade` in the cashier: TRADE_SUCCESS, and its notify sent unless held. */
  async pay(trade: FakeTrade, buyer = 'player@example.com'): Promise<FakeNotify | null> {
    if (trade.status !== 'WAIT_BUYER_PAY') throw new Error(`trade ${trade.outTradeNo} is ${trade.status}`);
    trade.status = 'TRADE_SUCCESS';
    trade.buyerLogonId = buyer.replace(/^(.{3}).*(@.*)$/, '$1***$2');
    return this.holdNotifies || !trade.notifyUrl ? null : this.notify(trade);
  }

  /** What was refunded of each trade (by trade_no), in fen. */
  readonly #refunded = new Map<string, number>();

  /**
   * A refund of a paid trade (the merchant's, in Alipay's console or by alipay.trade.refund) of `amount` yuan
   * (default what remains) and the notify Alipay sends for it: trade_status_sync with `refund_fee` the trade's
   * refunded total so far, `out_biz_no` the refund request's number and `gmt_refund`; TRADE_CLOSED once all of it is
   * refunded. Sent unless `send` is false; answers the signed notify's parameters (to send again).
   */
  async refund(trade: FakeTrade, amount?: string, opts: { send?: boolean; outBizNo?: string } = {}) {
    const fen = (yuan: string) => Math.round(Number(yuan) * 100);
    const total = fen(trade.totalAmount);
    const before = this.#refunded.get(trade.tradeNo) ?? 0;
    const minor = amount === undefined ? total - before : fen(amount);
    if (minor <= 0 || before + minor > total) throw new Error(`refund of ${minor} fen exceeds trade ${trade.tradeNo}`);
    this.#refunded.set(trade.tradeNo, before + minor);
    if (before + minor === total) trade.status = 'TRADE_CLOSED';
    const params = this.signNotify(
      this.notifyOf(trade, {
        trade_status: trade.status,
        refund_fee: ((before + minor) / 100).toFixed(2),
        out_biz_no: opts.outBizNo ?? `RF${crypto.randomBytes(8).toString('hex')}`,
        gmt_refund: `${beijing(Date.now())}.${String(Date.now() % 1000).padStart(3, '0')}`,
      }),
    );
    const delivery = opts.send === false ? null : await this.post(trade.notifyUrl!, params);
    return { params, delivery };
  }

  /** The trade of our out_trade_no (the order's trxNo). */
  trade(outTradeNo: string | number): FakeTrade {
    const t = [...this.trades.values()].find((x) => x.outTradeNo === String(outTradeNo));
    if (!t) throw new Error(`no trade ${outTradeNo}`);
    return t;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const text = await readBody(req);
    if (url.pathname === '/gateway.do/pay' && req.method === 'POST') {
      const trade = this.trades.get(url.searchParams.get('trade') ?? '');
      const form = new URLSearchParams(text);
      if (!trade || !payable(trade)) return this.cashier(res, trade);
      if (!/^[^@\s]+@[^@\s]+$/.test(form.get('account') ?? ''))
        return this.cashier(res, trade, '请输入支付宝账户 / Enter your Alipay account.');
      await this.pay(trade, form.get('account')!);
      const back = new URL(trade.returnUrl!);
      for (const [k, v] of Object.entries(this.returnParams(trade))) back.searchParams.set(k, v);
      res.writeHead(303, { location: back.href }).end();
      return;
    }
    if (url.pathname !== '/gateway.do') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // Common parameters in the query string, the rest (biz_content) in the form body or the query (page methods).
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (req.method === 'POST') Object.assign(params, Object.fromEntries(new URLSearchParams(text)));
    const method = params.method ?? '';
    const account = this.#accounts.get(params.app_id ?? '');
    const signed =
      account !== undefined &&
      params.sign_type === 'RSA2' &&
      crypto.verify(
        'sha256',
        Buffer.from(AlipayFake.signContent(params, ['sign']), 'utf8'),
        account.appPublicKey,
        Buffer.from(params.sign ?? '', 'base64'),
      );
    let biz: any = null;
    try {
      biz = JSON.parse(params.biz_content ?? 'null');
    } catch {
      // Refused below.
    }
    this.requests.push({ method, params, biz, signed });
    if (method === 'alipay.trade.page.pay' || method === 'alipay.trade.wap.pay') {
      if (!account || !signed) return this.errorPage(res, 'invalid-signature', '验签出错 (invalid signature)');
      const opened = this.open(account, method, params, biz);
      if (typeof opened === 'string') return this.errorPage(res, opened, opened);
      return this.cashier(res, opened);
    }
    const answer = (status: number, body: Record<string, unknown>) => {
      const key = `${method.replaceAll('.', '_')}_response`;
      const inner = JSON.stringify(body);
      if (this.answers === 'down') {
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>502 Bad Gateway</h1>');
        return;
      }
      const signer =
        this.answers === 'forged'
          ? crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
          : account?.alipayPrivateKey;
      const sign = signer ? crypto.sign('sha256', Buffer.from(inner, 'utf8'), signer).toString('base64') : '';
      res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
      res.end(`{"${key}":${inner},"sign":"${sign}"}`);
    };
    const fail = (code: string, msg: string, subCode: string, subMsg: string) =>
      answer(200, { code, msg, sub_code: subCode, sub_msg: subMsg });
    if (!account) return fail('40002', 'Invalid Arguments', 'isv.invalid-app-id', '无效的AppID参数');
    if (!signed) return fail('40002', 'Invalid Arguments', 'isv.invalid-signature', '验签出错');
    const outTradeNo = typeof biz?.out_trade_no === 'string' ? biz.out_trade_no : null;
    const trade = outTradeNo ? this.trades.get(`${account.appId}:${outTradeNo}`) : undefined;
    const notExist = () => fail('40004', 'Business Failed', 'ACQ.TRADE_NOT_EXIST', '交易不存在');
    if (method === 'alipay.trade.query') {
      if (!trade) return notExist();
      return answer(200, {
        code: '10000',
        msg: 'Success',
        trade_no: trade.tradeNo,
        out_trade_no: trade.outTradeNo,
        buyer_logon_id: trade.buyerLogonId ?? '',
        trade_status: trade.status,
        total_amount: trade.totalAmount,
        buyer_pay_amount: trade.status === 'TRADE_SUCCESS' ? trade.totalAmount : '0.00',
        ...(trade.status === 'TRADE_SUCCESS' ? { send_pay_date: beijing(Date.now()) } : {}),
      });
    }
    if (method === 'alipay.trade.close') {
      if (!trade) return notExist();
      if (trade.status !== 'WAIT_BUYER_PAY')
        return fail('40004', 'Business Failed', 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
      trade.status = 'TRADE_CLOSED';
      return answer(200, { code: '10000', msg: 'Success', trade_no: trade.tradeNo, out_trade_no: trade.outTradeNo });
    }
    if (method === 'alipay.trade.refund') return this.apiRefund(account, trade, biz, answer, fail);
    if (method === 'alipay.trade.fastpay.refund.query') {
      if (!trade) return notExist();
      const kept = this.refunds.get(`${account.appId}:${trade.outTradeNo}:${biz?.out_request_no}`);
      // Alipay answers 10000 without refund fields when no refund has that out_request_no.
      if (!kept) return answer(200, { code: '10000', msg: 'Success', out_trade_no: trade.outTradeNo });
      return answer(200, {
        code: '10000',
        msg: 'Success',
        trade_no: trade.tradeNo,
        out_trade_no: trade.outTradeNo,
        out_request_no: kept.outRequestNo,
        total_amount: trade.totalAmount,
        refund_amount: (kept.cents / 100).toFixed(2),
        refund_status: 'REFUND_SUCCESS',
      });
    }
    fail('40004', 'Business Failed', 'isv.invalid-method', `不存在的方法名 ${method.slice(0, 50)}`);
  }

  /**
   * alipay.trade.refund (统一收单交易退款接口): refunds a paid trade, in part or whole, at most what remains; the same
   * out_request_no again is the same refund (answered fund_change N, nothing moves twice).
   */
  private apiRefund(
    account: AlipayAccount,
    trade: FakeTrade | undefined,
    biz: any,
    answer: (status: number, body: Record<string, unknown>) => void,
    fail: (code: string, msg: string, subCode: string, subMsg: string) => void,
  ): void {
    if (!trade) return fail('40004', 'Business Failed', 'ACQ.TRADE_NOT_EXIST', '交易不存在');
    const outRequestNo = typeof biz?.out_request_no === 'string' ? biz.out_request_no : trade.outTradeNo;
    const amount = typeof biz?.refund_amount === 'string' ? biz.refund_amount : '';
    if (!/^[0-9]{1,9}(\.[0-9]{1,2})?$/.test(amount) || Math.round(Number(amount) * 100) < 1)
      return fail('40002', 'Invalid Arguments', 'isv.invalid-parameter', 'refund_amount 参数无效');
    const key = `${account.appId}:${trade.outTradeNo}:${outRequestNo}`;
    const cents = Math.round(Number(amount) * 100);
    const done = (fundChange: 'Y' | 'N') =>
      answer(200, {
        code: '10000',
        msg: 'Success',
        trade_no: trade.tradeNo,
        out_trade_no: trade.outTradeNo,
        buyer_logon_id: trade.buyerLogonId ?? '',
        fund_change: fundChange,
        refund_fee: ((this.#refunded.get(trade.tradeNo) ?? 0) / 100).toFixed(2),
        gmt_refund_pay: beijing(Date.now()),
      });
    const kept = this.refunds.get(key);
    if (kept) {
      if (kept.cents !== cents)
        return fail('40004', 'Business Failed', 'ACQ.REQUEST_AMOUNT_EXCEED', '请求退款金额超过交易金额');
      return done('N');
    }
    if (trade.status !== 'TRADE_SUCCESS')
      return fail('40004', 'Business Failed', 'ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
    if (this.refuseRefunds) return fail('40004', 'Business Failed', this.refuseRefunds, '退款失败');
    const total = Math.round(Number(trade.totalAmount) * 100);
    if (cents > total - (this.#refunded.get(trade.tradeNo) ?? 0))
      return fail('40004', 'Business Failed', 'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
    this.refunds.set(key, {
      outTradeNo: trade.outTradeNo,
      outRequestNo,
      cents,
      reason: String(biz?.refund_reason ?? ''),
    });
    // On the trade as a console refund is (its running total, TRADE_CLOSED when all of it), and its notify (out_biz_no:
    // the out_request_no) after the answer, as Alipay sends it, unless notifies are held.
    void this.refund(trade, (cents / 100).toFixed(2), { send: false, outBizNo: outRequestNo }).then(({ params }) => {
      this.refundNotifies.set(outRequestNo, params);
      if (!this.holdNotifies && trade.notifyUrl)
        setTimeout(() => void this.post(trade.notifyUrl!, params).catch(() => undefined), 20);
    });
    done('Y');
  }

  /** The notify Alipay sent (or would have) for each API refund, by out_request_no. */
  readonly refundNotifies = new Map<string, Record<string, string>>();

  /** The cashier's trade of a page.pay / wap.pay request (as Alipay checks it), or what is wrong with it. */
  private open(account: AlipayAccount, method: string, params: Record<string, string>, biz: any): FakeTrade | string {
    const productCode = method === 'alipay.trade.wap.pay' ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY';
    if (biz?.product_code !== productCode) return 'ACQ.PRODUCT_CODE_ERROR';
    if (typeof biz.out_trade_no !== 'string' || !/^[0-9A-Za-z_]{1,64}$/.test(biz.out_trade_no))
      return 'isv.missing-out-trade-no';
    if (typeof biz.total_amount !== 'string' || !/^[0-9]{1,9}(\.[0-9]{1,2})?$/.test(biz.total_amount))
      return 'isv.invalid-total-amount';
    if (typeof biz.subject !== 'string' || biz.subject.length === 0 || /[/=&]/.test(biz.subject))
      return 'isv.invalid-subject';
    const expiresAt = typeof biz.time_expire === 'string' ? fromBeijing(biz.time_expire) : null;
    if (biz.time_expire !== undefined && expiresAt === null) return 'isv.invalid-time-expire';
    const key = `${account.appId}:${biz.out_trade_no}`;
    const existing = this.trades.get(key);
    if (existing) {
      // Alipay takes the same out_trade_no again only with the same content (a retry), never another amount.
      if (existing.totalAmount !== biz.total_amount) return 'ACQ.CONTEXT_INCONSISTENT';
      return existing;
    }
    const trade: FakeTrade = {
      appId: account.appId,
      outTradeNo: biz.out_trade_no,
      tradeNo: `${beijing(Date.now()).replace(/\D/g, '').slice(0, 8)}22001${String(crypto.randomInt(1e12)).padStart(15, '0')}`,
      status: 'WAIT_BUYER_PAY',
      totalAmount: biz.total_amount,
      subject: biz.subject,
      productCode,
      method,
      timeExpire: biz.time_expire ?? null,
      expiresAt,
      notifyUrl: params.notify_url ?? null,
      returnUrl: params.return_url ?? null,
      quitUrl: biz.quit_url ?? null,
      buyerLogonId: null,
    };
    this.trades.set(key, trade);
    return trade;
  }

  /** The synchronous return's parameters (method alipay.trade.page.pay.return), signed by the Alipay key. */
  private returnParams(trade: FakeTrade): Record<string, string> {
    const params = {
      charset: 'utf-8',
      out_trade_no: trade.outTradeNo,
      method: `${trade.method}.return`,
      total_amount: trade.totalAmount,
      trade_no: trade.tradeNo,
      auth_app_id: trade.appId,
      version: '1.0',
      app_id: trade.appId,
      seller_id: '2088102177649450',
      timestamp: beijing(Date.now()),
    };
    return this.signNotify(params);
  }

  private errorPage(res: http.ServerResponse, code: string, text: string): void {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><body><h1 id="alipay-error" data-code="${esc(code)}">${esc(text)}</h1></body></html>`,
    );
  }

  /** The cashier: what is paid, an Alipay account (the login) and Pay; back to the merchant without paying. */
  private cashier(res: http.ServerResponse, t: FakeTrade | undefined, problem?: string): void {
    let html: string;
    if (!t || !payable(t)) {
      html = `<h1 id="inactive">交易已关闭 / This trade can no longer be paid.</h1>`;
    } else {
      const back = t.quitUrl ?? t.returnUrl;
      html = `<h1>支付宝 Alipay: ¥<span id="amount">${esc(t.totalAmount)}</span></h1>
<p id="subject">${esc(t.subject)}</p>
<p id="product-code">${esc(t.productCode)}</p>
${problem ? `<p id="login-error" role="alert">${esc(problem)}</p>` : ''}
<form method="post" action="/gateway.do/pay?trade=${esc(`${t.appId}:${t.outTradeNo}`)}">
<label>支付宝账户 / Alipay account <input id="account" name="account" type="email" autocomplete="username"></label>
<button id="btn-alipay-pay" type="submit">确认付款 / Pay</button>
</form>
${back ? `<a id="quit-link" href="${esc(back)}">返回商家 / Back to the merchant</a>` : ''}`;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="zh-CN"><head><meta name="viewport" content="width=device-width"><title>支付宝 (fake)</title></head><body>${html}</body></html>`,
    );
  }
}

const payable = (t: FakeTrade) => t.status === 'WAIT_BUYER_PAY' && (t.expiresAt === null || Date.now() < t.expiresAt);
const esc = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Beijing time (UTC+8) as Alipay writes it: "yyyy-MM-dd HH:mm:ss". */
export function beijing(ms: number): string {
  return new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

function fromBeijing(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) - 8 * 3_600_000 : null;
}
