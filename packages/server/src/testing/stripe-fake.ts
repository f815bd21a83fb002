import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Stripe on loopback, built from Stripe's public API reference (Checkout Sessions: create, retrieve, expire;
 * Refunds: create, retrieve; Events; webhook signatures), for tests and the demo. It serves:
 * - the API (`/v1/checkout/sessions[...]`, form-encoded bodies with bracket notation, `Authorization: Bearer sk_...`,
 *   `Idempotency-Key`, errors as `{error: {type, message}}`);
 * - a hosted checkout page (`/c/pay/{id}`) a browser fills and submits: the session completes, a PaymentIntent is
 *   made, and the browser is sent to the session's success_url;
 * - refunds and disputes made at the Dashboard (`refund`, `dispute`): `refund.created`, `charge.refunded`,
 *   `charge.dispute.created` and `charge.dispute.closed`, as Stripe sends them;
 * - webhooks: `checkout.session.completed` and `payment_intent.succeeded` (and `checkout.session.expired`) posted to
 *   the account's endpoints, signed as Stripe signs them (`Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
 *   "t.payload" with the endpoint's whsec_ secret>`), unless the test holds them back.
 */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  expires_at: number;
  created: number;
  url: string | null;
  livemode: false;
  locale: string | null;
  line_items: Array<{ name: string; quantity: number; unit_amount: number }>;
  payment_intent_metadata: Record<string, string>;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  reason: string | null;
  metadata: Record<string, string>;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  failure_reason: string | null;
  created: number;
}

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  refunded: boolean;
  status: 'succeeded';
  refunds: { object: 'list'; data: any[]; has_more: boolean };
}

export interface FakeDelivery {
  url: string;
  event: any;
  payload: string;
  signature: string;
  status: number;
  body: string;
}

interface Account {
  secretKey: string;
  endpoints: Array<{ url: string; secret: string }>;
}

export class StripeFake {
  readonly sessions = new Map<string, FakeSession>();
  readonly deliveries: FakeDelivery[] = [];
  /** Requests to the API, for assertions: method, path and the parsed form. */
  readonly requests: Array<{ method: string; path: string; form: any; idempotencyKey: string | null }> = [];
  /** true: completed payments send no webhook (the notification that never comes). */
  holdWebhooks = false;
  /** Refunds made through the API (POST /v1/refunds), by id. */
  readonly refunds = new Map<string, FakeRefund>();
  /** Set: the next refunds are refused with this error code (e.g. `charge_disputed`), as Stripe refuses them. */
  refuseRefunds: string | null = null;
  /** true: refunds are answered `pending` until `settleRefund` (a bank that takes its time). */
  refundsPending = false;
  readonly #accounts: Account[] = [];
  readonly #idempotent = new Map<string, { status: number; body: string }>();
  #server!: http.Server;
  url = '';

  /** `port` 0 (the default) takes a free one; the deploy test gives a fixed one its compose platform is told. */
  static async start(port = 0): Promise<StripeFake> {
    const fake = new StripeFake();
    fake.#server = http.createServer((req, res) => {
      fake.handle(req, res).catch((err) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
      });
    });
    await new Promise<void>((resolve) => fake.#server.listen(port, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** An account with its secret key and a webhook endpoint (its signing secret), as the Dashboard makes them. */
  account(webhookUrl: string): { secretKey: string; webhookSecret: string } {
    const secretKey = `sk_test_${crypto.randomBytes(18).toString('hex')}`;
    const webhookSecret = `whsec_${crypto
      .randomBytes(24)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')}`;
    this.#accounts.push({ secretKey, endpoints: [{ url: webhookUrl, secret: webhookSecret }] });
    return { secretKey, webhookSecret };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** The signature header Stripe sends for `payload` (t=unix seconds, v1=HMAC-SHA256 hex). */
  static sign(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
    const v1 = crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
    return `t=${timestamp},v1=${v1}`;
  }

  /** An Event object around `object`, as Stripe builds one. */
  static event(type: string, object: unknown, id = `evt_${crypto.randomBytes(12).toString('hex')}`) {
    return {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /** Posts `event` to `url` signed with `secret` (or a raw payload and header a test made): the delivery as sent. */
  async post(url: string, payload: string, signature: string | null): Promise<FakeDelivery> {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature !== null ? { 'stripe-signature': signature } : {}),
      },
      body: payload,
    });
    const delivery: FakeDelivery = {
      url,
      event: safeParse(payload),
      payload,
      signature: signature ?? '',
      status: res.status,
      body: await res.text(),
    };
    this.deliveries.push(delivery);
    return delivery;
  }

  /** Sends `event` to every endpoint of the account that owns `secretKey`, signed with each endpoint's secret. */
  async send(secretKey: string, event: unknown): Promise<FakeDelivery[]> {
    const account = this.#accounts.find((a) => a.secretKey === secretKey)!;
    const payload = JSON.stringify(event, null, 2);
    const out: FakeDelivery[] = [];
    for (const e of account.endpoints) out.push(await this.post(e.url, payload, StripeFake.sign(payload, e.secret)));
    return out;
  }

  /** The events of a completed session, as Stripe sends them (the session first, then its PaymentIntent). */
  eventsOf(session: FakeSession) {
    return [
      StripeFake.event('checkout.session.completed', publicSession(session)),
      StripeFake.event('payment_intent.succeeded', {
        id: session.payment_intent,
        object: 'payment_intent',
        amount: session.amount_total,
        amount_received: session.amount_total,
        currency: session.currency,
        status: 'succeeded',
        metadata: session.payment_intent_metadata,
        livemode: false,
      }),
    ];
  }

  /** Completes a session as the hosted page's Pay does (the player paid); its webhooks unless held. */
  async pay(id: string): Promise<FakeSession> {
    const session = this.sessions.get(id)!;
    if (session.status !== 'open') throw new Error(`session ${id} is ${session.status}`);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.payment_intent = `pi_${crypto.randomBytes(12).toString('hex')}`;
    session.url = null;
    if (!this.holdWebhooks) {
      const key = this.#keyOf(session);
      for (const event of this.eventsOf(session)) await this.send(key, event);
    }
    return session;
  }

  /** The charge of each paid session (by session id): its refunds, as the Dashboard or the API make them. */
  readonly charges = new Map<string, FakeCharge>();

  /** The Charge of a paid session (made on first use: the PaymentIntent's one charge). */
  chargeOf(sessionId: string): FakeCharge {
    const session = this.sessions.get(sessionId)!;
    if (session.payment_intent === null) throw new Error(`session ${sessionId} is not paid`);
    let charge = this.charges.get(sessionId);
    if (!charge) {
      charge = {
        id: `ch_${crypto.randomBytes(12).toString('hex')}`,
        object: 'charge',
        amount: session.amount_total,
        amount_refunded: 0,
        currency: session.currency,
        payment_intent: session.payment_intent,
        refunded: false,
        status: 'succeeded',
        refunds: { object: 'list', data: [], has_more: false },
      };
      this.charges.set(sessionId, charge);
    }
    return charge;
  }

  /**
   * Refunds `amount` (Stripe's units; default what remains) of a paid session's charge as the Dashboard does, and
   * answers the events Stripe sends for it: `refund.created` (the Refund, succeeded) and `charge.refunded` (the
   * Charge, listing its refunds newest first), sent to the account's endpoints unless `send` is false.
   */
  async refund(sessionId: string, amount?: number, opts: { send?: boolean; reason?: string } = {}) {
    const charge = this.chargeOf(sessionId);
    const refund = {
      id: `re_${crypto.randomBytes(12).toString('hex')}`,
      object: 'refund',
      amount: amount ?? charge.amount - charge.amount_refunded,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      status: 'succeeded',
      reason: opts.reason ?? 'requested_by_customer',
      created: Math.floor(Date.now() / 1000),
      metadata: {},
    };
    if (refund.amount <= 0 || charge.amount_refunded + refund.amount > charge.amount)
      throw new Error(`refund of ${refund.amount} exceeds what remains of ${charge.id}`);
    charge.amount_refunded += refund.amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds.data.unshift(refund);
    const events = [
      StripeFake.event('refund.created', { ...refund }),
      StripeFake.event('charge.refunded', structuredClone(charge)),
    ];
    if (opts.send !== false) for (const e of events) await this.send(this.#keyOf(this.sessions.get(sessionId)!), e);
    return { refund, events };
  }

  /**
   * A dispute of a paid session's charge (the cardholder's bank): `charge.dispute.created`, then, when `outcome` is
   * given, `charge.dispute.closed` with status lost or won; sent unless `send` is false. Answers the events.
   */
  async dispute(sessionId: string, outcome: 'lost' | 'won' | null, opts: { send?: boolean; amount?: number } = {}) {
    const charge = this.chargeOf(sessionId);
    const dispute = {
      id: `dp_${crypto.randomBytes(12).toString('hex')}`,
      object: 'dispute',
      amount: opts.amount ?? charge.amount - charge.amount_refunded,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: 'needs_response',
      created: Math.floor(Date.now() / 1000),
      is_charge_refundable: false,
    };
    const events = [StripeFake.event('charge.dispute.created', { ...dispute })];
    if (outcome) events.push(StripeFake.event('charge.dispute.closed', { ...dispute, status: outcome }));
    if (opts.send !== false) for (const e of events) await this.send(this.#keyOf(this.sessions.get(sessionId)!), e);
    return { dispute, events };
  }

  /** Sends events again, as Stripe retries them (the same ids and bodies, signed anew). */
  async resend(sessionId: string, events: unknown[]): Promise<FakeDelivery[]> {
    const out: FakeDelivery[] = [];
    for (const e of events) out.push(...(await this.send(this.#keyOf(this.sessions.get(sessionId)!), e)));
    return out;
  }

  #owner = new Map<string, string>();
  #keyOf(session: FakeSession): string {
    return this.#owner.get(session.id)!;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const body = await readBody(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${crypto.randomBytes(6).toString('hex')}`,
      });
      res.end(JSON.stringify(value));
      return { status, body: JSON.stringify(value) };
    };
    const error = (status: number, message: string, type = 'invalid_request_error', code?: string) =>
      json(status, { error: { type, message, ...(code ? { code } : {}) } });

    // The hosted checkout page and its form.
    let m = /^\/c\/pay\/(cs_[A-Za-z0-9_]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') return this.page(res, this.sessions.get(m[1]!));
    m = /^\/c\/pay\/(cs_[A-Za-z0-9_]+)\/confirm$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      const session = this.sessions.get(m[1]!);
      const card = new URLSearchParams(body).get('cardNumber')?.replace(/\s/g, '') ?? '';
      if (!session || session.status !== 'open') return this.page(res, session);
      if (!/^4242424242424242$/.test(card)) return this.page(res, session, 'Your card number is incorrect.');
      await this.pay(session.id);
      res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
      return;
    }

    if (!url.pathname.startsWith('/v1/')) return void error(404, 'Unrecognized request URL');
    const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = this.#accounts.find((a) => a.secretKey === key);
    if (!account) return void error(401, 'Invalid API Key provided', 'invalid_request_error');
    const form = parseForm(body);
    const idem = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    this.requests.push({ method: req.method ?? '', path: url.pathname, form, idempotencyKey: idem });
    const replayKey = idem ? `${key}:${idem}` : null;
    if (replayKey && this.#idempotent.has(replayKey)) {
      const kept = this.#idempotent.get(replayKey)!;
      res.writeHead(kept.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      res.end(kept.body);
      return;
    }
    const keep = (r: { status: number; body: string }) => {
      if (replayKey) this.#idempotent.set(replayKey, r);
    };

    if (url.pathname === '/v1/checkout/sessions' && req.method === 'POST') {
      const created = this.create(form, account.secretKey);
      if ('error' in created) return keep(error(400, created.error));
      return keep(json(200, publicSession(created)));
    }
    m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const s = this.sessions.get(m[1]!);
      if (!s || this.#owner.get(s.id) !== account.secretKey)
        return void error(404, `No such checkout.session: '${m[1]}'`);
      return void json(200, publicSession(s));
    }
    m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
    if (m && req.method === 'POST') {
      const s = this.sessions.get(m[1]!);
      if (!s || this.#owner.get(s.id) !== account.secretKey)
        return keep(error(404, `No such checkout.session: '${m[1]}'`));
      if (s.status !== 'open')
        return keep(error(400, 'Only Checkout Sessions with a status in ["open"] can be expired.'));
      s.status = 'expired';
      s.url = null;
      keep(json(200, publicSession(s)));
      if (!this.holdWebhooks)
        await this.send(account.secretKey, StripeFake.event('checkout.session.expired', publicSession(s)));
      return;
    }
    if (url.pathname === '/v1/refunds' && req.method === 'POST') {
      const made = this.createRefund(form, account.secretKey);
      if ('error' in made) return keep(error(400, made.error, 'invalid_request_error', made.code));
      return keep(json(200, made));
    }
    m = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
    if (m && req.method === 'GET') {
      const r = this.refunds.get(m[1]!);
      if (!r || this.#refundOwner.get(r.id) !== account.secretKey) return void error(404, `No such refund: '${m[1]}'`);
      return void json(200, r);
    }
    error(404, 'Unrecognized request URL');
  }

  #refundOwner = new Map<string, string>();

  /**
   * POST /v1/refunds of a PaymentIntent (API reference: Create a refund): at most what remains of its charge (Dashboard
   * refunds and pending ones count). A succeeded one is on the charge at once, and its `refund.created` and
   * `charge.refunded` follow the answer, as Stripe sends them, unless webhooks are held.
   */
  private createRefund(form: any, secretKey: string): FakeRefund | { error: string; code?: string } {
    const session = [...this.sessions.values()].find(
      (s) =>
        s.payment_intent !== null && s.payment_intent === form.payment_intent && this.#owner.get(s.id) === secretKey,
    );
    if (!session) return { error: `No such payment_intent: '${form.payment_intent}'`, code: 'resource_missing' };
    if (this.refuseRefunds) return { error: 'The refund was refused.', code: this.refuseRefunds };
    const charge = this.chargeOf(session.id);
    const pending = [...this.refunds.values()]
      .filter((r) => r.payment_intent === session.payment_intent && r.status === 'pending')
      .reduce((sum, r) => sum + r.amount, 0);
    const remaining = charge.amount - charge.amount_refunded - pending;
    const amount = form.amount === undefined ? remaining : Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1)
      return { error: 'Invalid integer: amount', code: 'parameter_invalid_integer' };
    if (remaining <= 0)
      return { error: `Charge ${charge.id} has already been refunded.`, code: 'charge_already_refunded' };
    if (amount > remaining)
      return {
        error: `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
        code: 'amount_too_large',
      };
    const refund: FakeRefund & { charge: string } = {
      id: `re_${crypto.randomBytes(12).toString('hex')}`,
      object: 'refund',
      amount,
      currency: session.currency,
      charge: charge.id,
      payment_intent: session.payment_intent!,
      reason: form.reason ?? null,
      metadata: form.metadata ?? {},
      status: this.refundsPending ? 'pending' : 'succeeded',
      failure_reason: null,
      created: Math.floor(Date.now() / 1000),
    };
    this.refunds.set(refund.id, refund);
    this.#refundOwner.set(refund.id, secretKey);
    if (refund.status === 'succeeded') this.#onCharge(session, refund);
    return refund;
  }

  /** A succeeded API refund on its charge, and its events after the answer (unless held). */
  #onCharge(session: FakeSession, refund: FakeRefund): void {
    const charge = this.chargeOf(session.id);
    charge.amount_refunded += refund.amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    charge.refunds.data.unshift({ ...refund });
    const events = [
      StripeFake.event('refund.created', { ...refund }),
      StripeFake.event('charge.refunded', structuredClone(charge)),
    ];
    this.refundEvents.set(refund.id, events);
    if (this.holdWebhooks) return;
    setTimeout(() => {
      void this.resend(session.id, events).catch(() => undefined);
    }, 20);
  }

  /** The events Stripe sent (or would have sent) for each API refund that succeeded, by refund id. */
  readonly refundEvents = new Map<string, unknown[]>();

  /** A pending refund finishes (succeeded, or failed with `failure_reason`), as the bank answers later. */
  settleRefund(id: string, failureReason?: string): FakeRefund {
    const r = this.refunds.get(id)!;
    r.status = failureReason ? 'failed' : 'succeeded';
    r.failure_reason = failureReason ?? null;
    const session = [...this.sessions.values()].find((s) => s.payment_intent === r.payment_intent)!;
    if (r.status === 'succeeded') this.#onCharge(session, r);
    return r;
  }

  /** POST /v1/checkout/sessions: what the API reference requires of a payment-mode session with price_data. */
  private create(form: any, secretKey: string): FakeSession | { error: string } {
    if (form.mode !== 'payment') return { error: 'mode: only payment is supported by this fake' };
    if (typeof form.success_url !== 'string') return { error: 'Missing required param: success_url.' };
    const items: any[] = Array.isArray(form.line_items) ? form.line_items : [];
    if (items.length === 0) return { error: 'Missing required param: line_items.' };
    const currencies = new Set<string>();
    const lines = [];
    let total = 0;
    for (const [i, it] of items.entries()) {
      const pd = it?.price_data;
      const unit = Number(pd?.unit_amount);
      const quantity = Number(it?.quantity);
      if (!pd || !/^[a-z]{3}$/.test(pd.currency ?? ''))
        return { error: `line_items[${i}][price_data][currency]: invalid` };
      if (!Number.isSafeInteger(unit) || unit < 0)
        return { error: `line_items[${i}][price_data][unit_amount]: invalid integer` };
      if (!Number.isSafeInteger(quantity) || quantity < 1)
        return { error: `line_items[${i}][quantity]: invalid integer` };
      if (typeof pd.product_data?.name !== 'string')
        return { error: `line_items[${i}][price_data][product_data][name]: required` };
      currencies.add(pd.currency);
      lines.push({ name: pd.product_data.name, quantity, unit_amount: unit });
      total += unit * quantity;
    }
    if (currencies.size !== 1) return { error: 'All line items must have the same currency.' };
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = form.expires_at === undefined ? now + 86_400 : Number(form.expires_at);
    if (!Number.isInteger(expiresAt) || expiresAt < now + 1800 || expiresAt > now + 86_400)
      return {
        error: 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
      };
    const id = `cs_test_${crypto.randomBytes(16).toString('hex')}`;
    const session: FakeSession = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      amount_subtotal: total,
      currency: [...currencies][0]!,
      client_reference_id: form.client_reference_id ?? null,
      metadata: form.metadata ?? {},
      payment_intent: null,
      success_url: form.success_url,
      cancel_url: form.cancel_url ?? null,
      expires_at: expiresAt,
      created: now,
      url: `${this.url}/c/pay/${id}`,
      livemode: false,
      locale: form.locale ?? null,
      line_items: lines,
      payment_intent_metadata: form.payment_intent_data?.metadata ?? {},
    };
    this.sessions.set(id, session);
    this.#owner.set(id, secretKey);
    return session;
  }

  /** The hosted page: what is bought, a card number field and Pay; a page for a session that is no longer open. */
  private page(res: http.ServerResponse, s: FakeSession | undefined, problem?: string): void {
    const esc = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    let html: string;
    if (!s || s.status !== 'open') {
      html = `<h1 id="inactive">This Checkout Session is no longer active.</h1>`;
    } else {
      const amount = (s.amount_total / 100).toFixed(2);
      html = `<h1>Pay ${esc(s.currency.toUpperCase())} <span id="amount">${esc(amount)}</span></h1>
<ul>${s.line_items.map((l) => `<li class="line">${esc(l.name)} × ${l.quantity}</li>`).join('')}</ul>
${problem ? `<p id="card-error" role="alert">${esc(problem)}</p>` : ''}
<form method="post" action="/c/pay/${esc(s.id)}/confirm">
<label>Card number <input id="cardNumber" name="cardNumber" autocomplete="cc-number" inputmode="numeric"></label>
<button id="submit" type="submit">Pay</button>
</form>
${s.cancel_url ? `<a id="cancel" href="${esc(s.cancel_url)}">Back</a>` : ''}`;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>Stripe Checkout (fake)</title></head><body>${html}</body></html>`,
    );
  }
}

/** The session as the API answers it (our bookkeeping fields left out). */
function publicSession(s: FakeSession) {
  const { line_items: _l, payment_intent_metadata: _m, ...rest } = s;
  return rest;
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Stripe's form encoding: `a[b][0][c]=v` into nested objects, numeric keys into arrays. */
export function parseForm(text: string): any {
  const root: any = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
