import crypto, { type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { makePaypalChain, type PaypalTestChain } from './paypal-certs.js';
import { readBody, safeParse } from './stripe-fake.js';

/**
 * A fake PayPal on loopback, built from PayPal's public REST API reference, for tests and the demo. It serves:
 * - OAuth2 (`POST /v1/oauth2/token`, HTTP Basic client id and secret, `grant_type=client_credentials`) and the Orders v2
 *   API (`POST /v2/checkout/orders`, `GET /v2/checkout/orders/{id}`, `POST /v2/checkout/orders/{id}/capture`) with a
 *   Bearer token, `PayPal-Request-Id` idempotency, and errors as `{name, message, debug_id, details: [{issue}]}`;
 * - the hosted approval page (`/checkoutnow?token={id}`) a browser clicks through: the order becomes APPROVED and the
 *   browser is sent to its return_url with `token` and `PayerID` (or to its cancel_url);
 * - webhooks: `PAYMENT.CAPTURE.COMPLETED` when an order is captured (and refunds, reversals, disputes a test asks
 *   for), posted to the account's webhook, signed as PayPal signs them (PAYPAL-TRANSMISSION-SIG: SHA256withRSA of
 *   `transmission id|transmission time|webhook id|CRC32 of the body`) with a certificate chain the fake makes itself,
 *   served at PAYPAL-CERT-URL (`/v1/notifications/certs/CERT-...`); its root is written to `rootFile` for the service.
 */
export interface FakeOrder {
  id: string;
  intent: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  purchase_units: any[];
  experience: { return_url?: string; cancel_url?: string; locale?: string };
  payer: { payer_id: string; email_address: string } | null;
  create_time: string;
  update_time: string;
  /** The REST app that created it. */
  clientId: string;
}

export interface FakeDelivery {
  url: string;
  event: any;
  payload: string;
  headers: Record<string, string>;
  status: number;
  body: string;
}

interface Account {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  webhookUrl: string;
  tokens: Set<string>;
}

export interface SignOptions {
  webhookId?: string;
  transmissionId?: string;
  time?: string;
  key?: KeyObject;
  certUrl?: string;
}

export class PaypalFake {
  readonly orders = new Map<string, FakeOrder>();
  readonly deliveries: FakeDelivery[] = [];
  /** Requests to the API, for assertions: method, path, parsed JSON body, PayPal-Request-Id. */
  readonly requests: Array<{ method: string; path: string; body: any; requestId: string | null }> = [];
  /** true: captures send no webhook (the notification that never comes). */
  holdWebhooks = false;
  /** The next capture is refused with this issue (e.g. INSTRUMENT_DECLINED), once. */
  refuseNextCapture: string | null = null;
  /** Refunds made through the API (POST /v2/payments/captures/{id}/refund), by id, with their capture. */
  readonly refunds = new Map<string, { refund: any; captureId: string; clientId: string }>();
  /** Set: refunds are refused (422) with this issue (e.g. REFUND_TIME_LIMIT_EXCEEDED), as PayPal refuses them. */
  refuseRefunds: string | null = null;
  /** true: refunds are answered PENDING until `settleRefund` (an eCheck payer, a held balance). */
  refundsPending = false;
  /** Where the root of the signing chain is written (PAYPAL_CERT_ROOTS_FILE). */
  rootFile = '';
  certUrl = '';
  url = '';
  chain!: PaypalTestChain;
  readonly #accounts: Account[] = [];
  readonly #idempotent = new Map<string, { status: number; body: string }>();
  /** Further certificates served on the fake's host (a test's forged chain), by path. */
  readonly #certs = new Map<string, string>();
  /** Downloads of each certificate path. */
  readonly certFetches = new Map<string, number>();
  #dir = '';
  #server!: http.Server;

  static async start(): Promise<PaypalFake> {
    const fake = new PaypalFake();
    fake.chain = await makePaypalChain();
    fake.#server = http.createServer((req, res) => {
      fake.handle(req, res).catch((err) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name: 'INTERNAL_SERVER_ERROR', message: String(err), debug_id: 'fake' }));
      });
    });
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    fake.certUrl = `${fake.url}/v1/notifications/certs/CERT-360caa42-fca2a594-${crypto.randomBytes(4).toString('hex')}`;
    fake.#dir = mkdtempSync(path.join(os.tmpdir(), 'paypal-fake-'));
    fake.rootFile = path.join(fake.#dir, 'roots.pem');
    writeFileSync(fake.rootFile, fake.chain.rootPem);
    return fake;
  }

  /** The service configuration that points it at this fake. */
  get env(): Record<string, string> {
    return { PAYPAL_API_BASE_URL: this.url, PAYPAL_CERT_URL_ORIGINS: this.url, PAYPAL_CERT_ROOTS_FILE: this.rootFile };
  }

  /** A REST app (client id and secret) with a webhook at `webhookUrl` (its id), as the Developer Dashboard makes them. */
  account(webhookUrl: string): { clientId: string; clientSecret: string; webhookId: string } {
    const account: Account = {
      clientId: `A${crypto.randomBytes(30).toString('base64url')}`,
      clientSecret: `E${crypto.randomBytes(30).toString('base64url')}`,
      webhookId: paypalId(),
      webhookUrl,
      tokens: new Set(),
    };
    this.#accounts.push(account);
    return { clientId: account.clientId, clientSecret: account.clientSecret, webhookId: account.webhookId };
  }

  close(): Promise<void> {
    rmSync(this.#dir, { recursive: true, force: true });
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** Serves `pem` on the fake's host under PayPal's certificate path (a chain a test made); answers its URL. */
  serveCertificate(pem: string): string {
    const pathname = `/v1/notifications/certs/CERT-test-${crypto.randomBytes(6).toString('hex')}`;
    this.#certs.set(pathname, pem);
    return `${this.url}${pathname}`;
  }

  /** PayPal's transmission headers for `payload` sent to the webhook `webhookId`. */
  sign(payload: string, opts: SignOptions & { webhookId: string }): Record<string, string> {
    const transmissionId = opts.transmissionId ?? crypto.randomUUID();
    const time = opts.time ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const crc = crc32(Buffer.from(payload, 'utf8')) >>> 0;
    const signed = Buffer.from(`${transmissionId}|${time}|${opts.webhookId}|${crc}`, 'utf8');
    return {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': opts.certUrl ?? this.certUrl,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': crypto.sign('sha256', signed, opts.key ?? this.chain.signingKey).toString('base64'),
    };
  }

  /** A webhook event around `resource`, as PayPal builds one. */
  static event(type: string, resource: unknown, id = `WH-${paypalId()}-${paypalId()}`) {
    const resourceType = type.startsWith('CUSTOMER.DISPUTE')
      ? 'dispute'
      : type === 'PAYMENT.CAPTURE.REFUNDED' || type === 'PAYMENT.CAPTURE.REVERSED'
        ? 'refund'
        : 'capture';
    return {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: type,
      summary: `${type} (fake)`,
      resource,
      links: [{ href: `https://api.paypal.com/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' }],
    };
  }

  /** Posts `payload` with `headers` (a test's own, or null: unsigned) to `url`: the delivery as sent. */
  async post(url: string, payload: string, headers: Record<string, string> | null): Promise<FakeDelivery> {
    const sent = {
      'content-type': 'application/json',
      'user-agent': 'PayPal/AUHD-214.0-58435314',
      ...(headers ?? {}),
    };
    const res = await fetch(url, { method: 'POST', headers: sent, body: payload });
    const delivery: FakeDelivery = {
      url,
      event: safeParse(payload),
      payload,
      headers: sent,
      status: res.status,
      body: await res.text(),
    };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** Sends `event` to the webhook of the REST app `clientId`, signed. */
  async send(clientId: string, event: unknown): Promise<FakeDelivery> {
    const account = this.#accounts.find((a) => a.clientId === clientId)!;
    const payload = JSON.stringify(event);
    return this.post(account.webhookUrl, payload, this.sign(payload, { webhookId: account.webhookId }));
  }

  /** The hosted page's approval (the player logged in and pressed Pay Now): the order is APPROVED. */
  approve(id: string): FakeOrder {
    const order = this.orders.get(id)!;
    if (order.status !== 'PAYER_ACTION_REQUIRED') throw new Error(`order ${id} is ${order.status}`);
    order.status = 'APPROVED';
    order.payer = { payer_id: paypalId().slice(0, 13), email_address: 'buyer@example.com' };
    order.update_time = now();
    return order;
  }

  /** The capture of a COMPLETED order (the merchant's capture call made it). */
  captureOf(id: string): any {
    return this.orders.get(id)!.purchase_units[0].payments.captures[0];
  }

  /** The PAYMENT.CAPTURE.COMPLETED event of a captured order, as PayPal sends it. */
  completedEvent(id: string) {
    return PaypalFake.event('PAYMENT.CAPTURE.COMPLETED', {
      ...this.captureOf(id),
      supplementary_data: { related_ids: { order_id: id } },
    });
  }

  /** What was refunded of each capture (by capture id), in minor units. */
  readonly #refunded = new Map<string, number>();

  /**
   * A refund of a captured order (the studio refunded it in PayPal) and its PAYMENT.CAPTURE.REFUNDED event, or a
   * reversal (PAYMENT.CAPTURE.REVERSED: a chargeback PayPal took back): the Refund resource, its `up` link naming
   * the capture. `value`: a partial refund's amount (PayPal's decimal), default what remains.
   */
  refundEvent(id: string, type = 'PAYMENT.CAPTURE.REFUNDED', value?: string) {
    const capture = this.captureOf(id);
    const exponent = capture.amount.value.includes('.') ? capture.amount.value.split('.')[1].length : 0;
    const toMinor = (v: string) => Math.round(Number(v) * 10 ** exponent);
    const refunded = this.#refunded.get(capture.id) ?? 0;
    const minor = value === undefined ? toMinor(capture.amount.value) - refunded : toMinor(value);
    if (minor <= 0 || refunded + minor > toMinor(capture.amount.value)) throw new Error('more than the capture');
    this.#refunded.set(capture.id, refunded + minor);
    capture.status = refunded + minor === toMinor(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const refundId = paypalId();
    return PaypalFake.event(type, {
      id: refundId,
      status: 'COMPLETED',
      amount: { currency_code: capture.amount.currency_code, value: (minor / 10 ** exponent).toFixed(exponent) },
      custom_id: capture.custom_id,
      create_time: now(),
      update_time: now(),
      links: [
        { href: `${this.url}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
        { href: `${this.url}/v2/payments/captures/${capture.id}`, rel: 'up', method: 'GET' },
      ],
    });
  }

  /**
   * A dispute of a captured order's capture, as PayPal's Disputes webhooks carry it: CUSTOMER.DISPUTE.CREATED, or
   * CUSTOMER.DISPUTE.RESOLVED with its outcome (the money itself moves by PAYMENT.CAPTURE.REVERSED).
   */
  disputeEvent(
    id: string,
    type = 'CUSTOMER.DISPUTE.CREATED',
    outcome?: 'RESOLVED_BUYER_FAVOUR' | 'RESOLVED_SELLER_FAVOUR',
  ) {
    const capture = this.captureOf(id);
    return PaypalFake.event(type, {
      dispute_id: `PP-D-${Math.floor(Math.random() * 1e6)}`,
      reason: 'UNAUTHORISED',
      status: outcome ? 'RESOLVED' : 'OPEN',
      dispute_amount: capture.amount,
      disputed_transactions: [{ seller_transaction_id: capture.id }],
      ...(outcome ? { dispute_outcome: { outcome_code: outcome } } : {}),
      create_time: now(),
    });
  }

  /** PayPal forgets an order (never approved ones expire): GET answers 404 afterwards. */
  expire(id: string): void {
    this.orders.delete(id);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const text = await readBody(req);
    const json = (status: number, value: unknown) => {
      const body = JSON.stringify(value);
      res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': debugId() });
      res.end(body);
      return { status, body };
    };
    const error = (status: number, name: string, issue: string, message = issue) =>
      json(status, { name, message, debug_id: debugId(), details: [{ issue, description: message }] });

    // The signing certificate (and a test's own), and the hosted approval page.
    const pem = url.pathname === new URL(this.certUrl).pathname ? this.chain.chainPem : this.#certs.get(url.pathname);
    if (req.method === 'GET' && pem !== undefined) {
      this.certFetches.set(url.pathname, (this.certFetches.get(url.pathname) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/x-pem-file' });
      res.end(pem);
      return;
    }
    if (url.pathname === '/checkoutnow' && req.method === 'GET')
      return this.page(res, this.orders.get(url.searchParams.get('token') ?? ''));
    if (url.pathname === '/checkoutnow/approve' && req.method === 'POST') {
      const order = this.orders.get(url.searchParams.get('token') ?? '');
      const form = new URLSearchParams(text);
      if (!order || order.status !== 'PAYER_ACTION_REQUIRED') return this.page(res, order);
      if (!/^[^@\s]+@[^@\s]+$/.test(form.get('email') ?? '')) return this.page(res, order, 'Enter your email address.');
      this.approve(order.id);
      const back = new URL(order.experience.return_url!);
      back.searchParams.set('token', order.id);
      back.searchParams.set('PayerID', order.payer!.payer_id);
      res.writeHead(303, { location: back.href }).end();
      return;
    }

    if (url.pathname === '/v1/oauth2/token' && req.method === 'POST') {
      const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = Buffer.from(basic ?? '', 'base64')
        .toString('utf8')
        .split(':');
      const account = this.#accounts.find((a) => a.clientId === id && a.clientSecret === secret);
      if (!account)
        return void json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      if (new URLSearchParams(text).get('grant_type') !== 'client_credentials')
        return void json(400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
      const token = `A21AA${crypto.randomBytes(32).toString('base64url')}`;
      account.tokens.add(token);
      return void json(200, {
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: 32400,
        nonce: `${now()}${crypto.randomBytes(8).toString('hex')}`,
      });
    }

    if (!url.pathname.startsWith('/v2/')) return void error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = this.#accounts.find((a) => bearer !== undefined && a.tokens.has(bearer));
    if (!account)
      return void json(401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
    const body = text ? safeParse(text) : null;
    const requestId = typeof req.headers['paypal-request-id'] === 'string' ? req.headers['paypal-request-id'] : null;
    this.requests.push({ method: req.method ?? '', path: url.pathname, body, requestId });
    const replayKey = requestId ? `${account.clientId}:${req.method}:${url.pathname}:${requestId}` : null;
    const kept = replayKey ? this.#idempotent.get(replayKey) : undefined;
    if (kept) {
      res.writeHead(kept.status, { 'content-type': 'application/json' });
      res.end(kept.body);
      return;
    }
    const keep = (r: { status: number; body: string }) => {
      if (replayKey && r.status < 500) this.#idempotent.set(replayKey, r);
    };

    if (url.pathname === '/v2/checkout/orders' && req.method === 'POST') {
      const created = this.create(body, account);
      if ('issue' in created) return keep(error(created.status, created.name, created.issue, created.message));
      return keep(json(200, publicOrder(created, this.url)));
    }
    const m = /^\/v2\/checkout\/orders\/([A-Z0-9]+)(\/capture)?$/.exec(url.pathname);
    const order = m ? this.orders.get(m[1]!) : undefined;
    if (m && (!order || order.clientId !== account.clientId))
      return keep(error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.'));
    if (m && !m[2] && req.method === 'GET') return void json(200, publicOrder(order!, this.url));
    if (m && m[2] && req.method === 'POST') {
      if (order!.status === 'COMPLETED') return keep(error(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED'));
      if (order!.status !== 'APPROVED') return keep(error(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED'));
      if (this.refuseNextCapture) {
        const issue = this.refuseNextCapture;
        this.refuseNextCapture = null;
        return keep(error(422, 'UNPROCESSABLE_ENTITY', issue));
      }
      this.capture(order!);
      keep(json(201, publicOrder(order!, this.url)));
      if (!this.holdWebhooks) await this.send(account.clientId, this.completedEvent(order!.id));
      return;
    }
    const r = /^\/v2\/payments\/captures\/([A-Z0-9]+)\/refund$/.exec(url.pathname);
    if (r && req.method === 'POST') {
      const made = this.refundCapture(r[1]!, body, account.clientId);
      if ('issue' in made) return keep(error(made.status, made.name, made.issue));
      return keep(json(201, made));
    }
    const g = /^\/v2\/payments\/refunds\/([A-Z0-9]+)$/.exec(url.pathname);
    if (g && req.method === 'GET') {
      const kept = this.refunds.get(g[1]!);
      if (!kept || kept.clientId !== account.clientId)
        return void error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Specified resource ID does not exist.');
      return void json(200, kept.refund);
    }
    error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
  }

  /** POST /v2/payments/captures/{id}/refund (Payments v2): at most what remains of the capture, in its currency. */
  private refundCapture(captureId: string, body: any, clientId: string): any {
    const order = [...this.orders.values()].find(
      (o) => o.clientId === clientId && o.purchase_units[0].payments?.captures?.[0]?.id === captureId,
    );
    if (!order) return { status: 404, name: 'RESOURCE_NOT_FOUND', issue: 'INVALID_RESOURCE_ID' };
    const capture = order.purchase_units[0].payments.captures[0];
    if (this.refuseRefunds) return { status: 422, name: 'UNPROCESSABLE_ENTITY', issue: this.refuseRefunds };
    const cents = (v: string) => Math.round(Number(v) * 100);
    const refunded = [...this.refunds.values()]
      .filter((x) => x.captureId === captureId && x.refund.status !== 'FAILED' && x.refund.status !== 'CANCELLED')
      .reduce((sum, x) => sum + cents(x.refund.amount.value), 0);
    const total = cents(capture.amount.value);
    const amount = body?.amount ?? {
      currency_code: capture.amount.currency_code,
      value: ((total - refunded) / 100).toFixed(2),
    };
    if (amount.currency_code !== capture.amount.currency_code)
      return { status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'REFUND_CAPTURE_CURRENCY_MISMATCH' };
    if (!/^[0-9]{1,10}(\.[0-9]{1,2})?$/.test(String(amount.value)) || cents(amount.value) < 1)
      return { status: 400, name: 'INVALID_REQUEST', issue: 'INVALID_PARAMETER_VALUE' };
    if (refunded >= total) return { status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'CAPTURE_FULLY_REFUNDED' };
    if (cents(amount.value) > total - refunded)
      return { status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'REFUND_AMOUNT_EXCEEDED' };
    const id = paypalId();
    const refund = {
      id,
      status: this.refundsPending ? 'PENDING' : 'COMPLETED',
      amount: { currency_code: amount.currency_code, value: String(amount.value) },
      ...(body?.note_to_payer !== undefined ? { note_to_payer: body.note_to_payer } : {}),
      ...(capture.custom_id !== undefined ? { custom_id: capture.custom_id } : {}),
      create_time: now(),
      update_time: now(),
      links: [
        { href: `${this.url}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${this.url}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    };
    this.refunds.set(id, { refund, captureId, clientId });
    if (refunded + cents(amount.value) >= total) capture.status = 'REFUNDED';
    else capture.status = 'PARTIALLY_REFUNDED';
    return refund;
  }

  /** A PENDING refund finishes: COMPLETED, or FAILED. */
  settleRefund(id: string, failed = false): any {
    const kept = this.refunds.get(id)!;
    kept.refund.status = failed ? 'FAILED' : 'COMPLETED';
    kept.refund.update_time = now();
    return kept.refund;
  }

  /** POST /v2/checkout/orders: what the Orders v2 reference requires of an order with items and a breakdown. */
  private create(
    body: any,
    account: Account,
  ): FakeOrder | { status: number; name: string; issue: string; message: string } {
    const invalid = (issue: string, message: string) => ({ status: 400, name: 'INVALID_REQUEST', issue, message });
    const unprocessable = (issue: string, message: string) => ({
      status: 422,
      name: 'UNPROCESSABLE_ENTITY',
      issue,
      message,
    });
    if (body?.intent !== 'CAPTURE' && body?.intent !== 'AUTHORIZE')
      return invalid('MISSING_REQUIRED_PARAMETER', '/intent');
    const units: any[] = Array.isArray(body.purchase_units) ? body.purchase_units : [];
    if (units.length < 1 || units.length > 10) return invalid('MISSING_REQUIRED_PARAMETER', '/purchase_units');
    for (const [u, unit] of units.entries()) {
      const amount = unit?.amount;
      const currency = amount?.currency_code;
      if (!/^[A-Z]{3}$/.test(currency ?? ''))
        return invalid('MISSING_REQUIRED_PARAMETER', `/purchase_units/${u}/amount`);
      const decimals = ZERO_DECIMAL.has(currency) ? 0 : 2;
      const cents = (v: unknown) => {
        const re = decimals === 0 ? /^[0-9]{1,10}$/ : /^[0-9]{1,10}(\.[0-9]{1,2})?$/;
        return typeof v === 'string' && re.test(v) ? Math.round(Number(v) * 10 ** decimals) : null;
      };
      const total = cents(amount.value);
      if (total === null) return unprocessable('DECIMAL_PRECISION', `/purchase_units/${u}/amount/value`);
      const items: any[] = Array.isArray(unit.items) ? unit.items : [];
      const itemTotal = amount.breakdown?.item_total;
      if (items.length > 0 && !itemTotal)
        return unprocessable('ITEM_TOTAL_REQUIRED', `/purchase_units/${u}/amount/breakdown`);
      let sum = 0;
      for (const [i, item] of items.entries()) {
        const unitAmount = cents(item?.unit_amount?.value);
        const quantity = /^[1-9][0-9]{0,9}$/.test(item?.quantity ?? '') ? Number(item.quantity) : null;
        if (typeof item?.name !== 'string' || item.name.length === 0 || item.name.length > 127)
          return invalid('MISSING_REQUIRED_PARAMETER', `/purchase_units/${u}/items/${i}/name`);
        if (unitAmount === null || quantity === null || item.unit_amount.currency_code !== currency)
          return unprocessable('ITEM_INVALID', `/purchase_units/${u}/items/${i}`);
        sum += unitAmount * quantity;
      }
      if (itemTotal && (itemTotal.currency_code !== currency || cents(itemTotal.value) !== sum))
        return unprocessable('ITEM_TOTAL_MISMATCH', 'Should equal sum of (unit_amount * quantity) across all items');
      if (itemTotal && total !== sum)
        return unprocessable('AMOUNT_MISMATCH', 'Should equal item_total + tax_total + shipping + handling');
    }
    const experience = body.payment_source?.paypal?.experience_context ?? body.application_context ?? {};
    if (typeof experience.return_url !== 'string') return invalid('MISSING_REQUIRED_PARAMETER', 'return_url');
    const id = paypalId();
    const order: FakeOrder = {
      id,
      intent: body.intent,
      status: 'PAYER_ACTION_REQUIRED',
      purchase_units: units.map((u) => ({
        reference_id: u.reference_id ?? 'default',
        amount: u.amount,
        payee: { email_address: 'merchant@example.com', merchant_id: 'C7CYMKZDG8D6E' },
        ...(u.custom_id !== undefined ? { custom_id: u.custom_id } : {}),
        items: u.items ?? [],
      })),
      experience: { return_url: experience.return_url, cancel_url: experience.cancel_url, locale: experience.locale },
      payer: null,
      create_time: now(),
      update_time: now(),
      clientId: account.clientId,
    };
    this.orders.set(id, order);
    return order;
  }

  private capture(order: FakeOrder): void {
    const unit = order.purchase_units[0];
    unit.payments = {
      captures: [
        {
          id: paypalId(),
          status: 'COMPLETED',
          amount: { currency_code: unit.amount.currency_code, value: unit.amount.value },
          final_capture: true,
          seller_protection: {
            status: 'ELIGIBLE',
            dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
          },
          ...(unit.custom_id !== undefined ? { custom_id: unit.custom_id } : {}),
          create_time: now(),
          update_time: now(),
        },
      ],
    };
    order.status = 'COMPLETED';
    order.update_time = now();
  }

  /** The hosted approval page: what is bought, an email (the PayPal login) and Pay Now; cancel goes back. */
  private page(res: http.ServerResponse, o: FakeOrder | undefined, problem?: string): void {
    const esc = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    let html: string;
    if (!o || o.status !== 'PAYER_ACTION_REQUIRED') {
      html = `<h1 id="inactive">This order can no longer be paid.</h1>`;
    } else {
      const unit = o.purchase_units[0];
      const cancel = new URL(o.experience.cancel_url ?? o.experience.return_url!);
      cancel.searchParams.set('token', o.id);
      html = `<h1>PayPal: pay ${esc(unit.amount.currency_code)} <span id="amount">${esc(unit.amount.value)}</span></h1>
<ul>${unit.items.map((l: any) => `<li class="line">${esc(l.name)} × ${esc(l.quantity)}</li>`).join('')}</ul>
${problem ? `<p id="login-error" role="alert">${esc(problem)}</p>` : ''}
<form method="post" action="/checkoutnow/approve?token=${esc(o.id)}">
<label>Email <input id="email" name="email" type="email" autocomplete="email"></label>
<button id="btn-approve" type="submit">Pay Now</button>
</form>
<a id="cancel-link" href="${esc(cancel.href)}">Cancel and return</a>`;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="${esc(o?.experience.locale ?? 'en-US')}"><head><meta name="viewport" content="width=device-width"><title>PayPal Checkout (fake)</title></head><body>${html}</body></html>`,
    );
  }
}

/** PayPal's currencies without decimals (currency codes reference). */
const ZERO_DECIMAL = new Set(['JPY', 'HUF', 'TWD']);

/** The order as the API answers it (our bookkeeping left out), with its HATEOAS links. */
function publicOrder(o: FakeOrder, base: string) {
  const { clientId: _c, experience: _e, payer, ...rest } = o;
  const links = [{ href: `${base}/v2/checkout/orders/${o.id}`, rel: 'self', method: 'GET' }];
  if (o.status === 'PAYER_ACTION_REQUIRED')
    links.push({ href: `${base}/checkoutnow?token=${o.id}`, rel: 'payer-action', method: 'GET' });
  if (o.status === 'APPROVED')
    links.push({ href: `${base}/v2/checkout/orders/${o.id}/capture`, rel: 'capture', method: 'POST' });
  return {
    ...rest,
    payment_source: { paypal: payer ? { email_address: payer.email_address, account_id: payer.payer_id } : {} },
    ...(payer ? { payer } : {}),
    links,
  };
}

/** PayPal's ids: 17 capitals and digits (orders, captures, refunds, webhooks). */
function paypalId(): string {
  const alphabet = 'ABCDEFGHJKLMNPRSTUVWXY0123456789';
  return Array.from(crypto.randomBytes(17), (b) => alphabet[b % alphabet.length]).join('');
}

const debugId = () => crypto.randomBytes(7).toString('hex');
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
