import type Stripe from 'stripe';
import { Type } from '@sinclair/typebox';
import { invalidParameter } from '../../errors/app-error.js';
import { Text } from '../../http/schemas.js';
import type { Config } from '../../config/config.js';
import { PROVIDERS, ProviderError, refundRefused, type PaymentProvider, type ProviderSettings } from '../provider.js';
import { toStripeAmount } from './amounts.js';
import { notificationOf, read, sessionFinding, StripeSession } from './stripe-events.js';
import { refundFinding, StripeRefund } from './stripe-refunds.js';

/** Stripe's refusal of a call (an invalid request or a card error) and its error `code`. */
class StripeRefusal extends ProviderError {
  constructor(
    readonly stripeCode: string,
    message: string,
  ) {
    super('refused', message);
  }
}

// Loaded when Stripe is first called, not at start: the SDK is ~6 MB of heap that an instance without Stripe never
// needs (the 100,000-event backlog's RSS, docs/benchmarks.md).
let sdk: Promise<typeof Stripe> | undefined;
const loadSdk = (): Promise<typeof Stripe> => (sdk ??= import('stripe').then((m) => m.default));

/** Stripe takes a Checkout Session's expires_at 30 minutes to 24 hours after creation (API reference). */
const MIN_SESSION_MS = 31 * 60_000;
/** The tolerance of the Stripe-Signature timestamp (the SDK's default): an older signature is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

interface StripeSecrets {
  secretKey: string;
  webhookSecret: string;
}
type Settings = ProviderSettings<Record<string, string>, StripeSecrets>;

/**
 * Stripe (cards), with the `stripe` SDK: a Checkout Session per order (line items from the order, its currency and
 * amount in Stripe's units, the page's return URL, expiring with the order), the webhook verified by the SDK's
 * `constructEvent` with the endpoint's signing secret (`Stripe-Signature: t=...,v1=...`, 5 minutes' tolerance), the
 * session retrieved as the order query and expired to close it. STRIPE_API_BASE_URL points the SDK at a fake in tests.
 * Built from the configuration (providers.ts); the interface (provider.ts) types its calls.
 */
export function stripeProvider(config: Config): PaymentProvider<Record<string, string>, StripeSecrets> {
  const base = config.STRIPE_API_BASE_URL ? new URL(config.STRIPE_API_BASE_URL) : null;
  const api: { host?: string; port?: string; protocol?: 'http' | 'https' } = base
    ? {
        host: base.hostname,
        port: base.port || (base.protocol === 'http:' ? '80' : '443'),
        protocol: base.protocol === 'http:' ? 'http' : 'https',
      }
    : {};
  const client = async (settings: Settings): Promise<Stripe> =>
    new (await loadSdk())(settings.secrets.secretKey, {
      ...api,
      timeout: config.PROVIDER_CALL_TIMEOUT_MS,
      maxNetworkRetries: 1,
      telemetry: false,
    });
  return {
    id: 'stripe',
    ...PROVIDERS.stripe,
    settings: {
      config: Type.Object({}, { additionalProperties: false }),
      secrets: Type.Object(
        {
          secretKey: Text({
            minLength: 8,
            maxLength: 255,
            description: 'The secret (sk_live_...) or restricted (rk_live_...) API key of the Stripe account.',
          }),
          webhookSecret: Text({
            minLength: 8,
            maxLength: 255,
            description:
              "The signing secret (whsec_...) of the webhook endpoint that points at this app's webhook URL.",
          }),
        },
        { additionalProperties: false },
      ),
      check: (_config: Record<string, string>, secrets: Partial<StripeSecrets>) => {
        if (secrets.secretKey !== undefined && !/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(secrets.secretKey))
          throw invalidParameter('secrets.secretKey', 'is a Stripe secret or restricted key (sk_... or rk_...)');
        if (secrets.webhookSecret !== undefined && !/^whsec_[A-Za-z0-9+/=_]+$/.test(secrets.webhookSecret))
          throw invalidParameter('secrets.webhookSecret', "is a webhook endpoint's signing secret (whsec_...)");
      },
    },
    webhook: {
      contentType: 'application/json' as const,
      body: Type.Object(
        {
          id: Text({ maxLength: 255, description: 'evt_...' }),
          object: Type.Optional(Text({ maxLength: 64 })),
          type: Text({ maxLength: 255, description: 'e.g. checkout.session.completed' }),
          data: Type.Object(
            { object: Type.Object({}, { additionalProperties: true }) },
            { additionalProperties: true },
          ),
        },
        {
          additionalProperties: true,
          description: 'A Stripe Event (API reference: Events), signed in Stripe-Signature.',
        },
      ),
    },

    async open(settings, p) {
      const currency = p.order.currency;
      const lineItems = p.items.map((item) => {
        const unit = toStripeAmount(item.unit_price_minor, currency);
        if (unit === null)
          throw new ProviderError('refused', `Stripe takes ${currency} amounts in multiples of 10 only`);
        return {
          quantity: item.quantity,
          price_data: {
            currency: currency.toLowerCase(),
            unit_amount: unit,
            product_data: {
              name: p.names.get(item.product_code) ?? item.product_code,
              metadata: { productCode: item.product_code },
            },
          },
        };
      });
      const metadata = { trxNo: String(p.order.trx_no), appId: String(p.order.app_id) };
      const session = await call(async () =>
        (await client(settings)).checkout.sessions.create(
          {
            mode: 'payment',
            line_items: lineItems,
            client_reference_id: String(p.order.trx_no),
            metadata,
            payment_intent_data: { metadata },
            success_url: p.returnUrl,
            cancel_url: p.returnUrl,
            // The order's lifetime, within what Stripe takes; the reconciliation expires it at the order's end anyway.
            expires_at: Math.floor(Math.max(p.expiresAt, Date.now() + MIN_SESSION_MS) / 1000),
            locale: p.lang.startsWith('zh') ? 'zh' : 'en',
          },
          { idempotencyKey: p.idempotencyKey },
        ),
      );
      if (!session.url) throw new ProviderError('malformed', 'Stripe answered a Checkout Session without a url');
      return { ref: session.id, step: { kind: 'redirect', channel: this.id, url: session.url } };
    },

    async verify(settings, request) {
      const header = request.headers['stripe-signature'];
      if (typeof header !== 'string' || header === '')
        throw new ProviderError('missing_signature', 'no Stripe-Signature header');
      const stripe = await client(settings);
      let event: unknown;
      try {
        event = stripe.webhooks.constructEvent(
          request.rawBody,
          header,
          settings.secrets.webhookSecret,
          SIGNATURE_TOLERANCE_SECONDS,
        );
      } catch (e) {
        const stale = /tolerance/i.test((e as Error).message);
        throw new ProviderError(stale ? 'stale' : 'bad_signature', `Stripe-Signature: ${(e as Error).message}`);
      }
      return notificationOf(event);
    },

    async query(settings, payment) {
      const session = await call(async () => (await client(settings)).checkout.sessions.retrieve(payment.ref));
      return sessionFinding(read(StripeSession, session, 'session'));
    },

    async close(settings, payment) {
      try {
        const session = await call(async () => (await client(settings)).checkout.sessions.expire(payment.ref));
        return sessionFinding(read(StripeSession, session, 'session'));
      } catch (e) {
        // Only an open session expires: a completed (paid) or already expired one is what the query says.
        if (e instanceof ProviderError && e.code === 'refused') return this.query(settings, payment);
        throw e;
      }
    },

    /**
     * POST /v1/refunds of the PaymentIntent that paid, with the request's Idempotency-Key (Stripe answers a retry with
     * the first answer). Stripe's `reason` takes three words only: `requested_by_customer`, the operator's text in
     * metadata. An invalid request (more than remains, already refunded, disputed) is Stripe's refusal.
     */
    async refund(settings, payment, r) {
      const amount = toStripeAmount(r.amountMinor, r.currency);
      if (amount === null || !payment.provider_trx_id)
        return refundRefused('amount_invalid', 'Stripe cannot take this amount');
      try {
        const refund = await call(async () =>
          (await client(settings)).refunds.create(
            {
              payment_intent: payment.provider_trx_id!,
              amount,
              reason: 'requested_by_customer',
              metadata: { trxNo: String(payment.trx_no), refundKey: r.key, note: r.reason.slice(0, 500) },
            },
            { idempotencyKey: r.key },
          ),
        );
        return refundFinding(read(StripeRefund, refund, 'refund'));
      } catch (e) {
        if (e instanceof StripeRefusal) return refundRefused(e.stripeCode, e.message);
        throw e;
      }
    },

    /** GET /v1/refunds/{id}; without an id Stripe never answered, so the request is sent again under its key. */
    async queryRefund(settings, _payment, _r, providerRefundId) {
      if (providerRefundId === null) return { state: 'unknown' };
      const refund = await call(async () => (await client(settings)).refunds.retrieve(providerRefundId));
      return refundFinding(read(StripeRefund, refund, 'refund'));
    },
  };
}

/** A Stripe call; an answer that is not a success becomes a ProviderError (unreachable: retry later). */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ProviderError) throw e;
    const err = e as { type?: string; message?: string; statusCode?: number; code?: string };
    const refused = err.type === 'StripeInvalidRequestError' || err.type === 'StripeCardError';
    const message = `Stripe: ${err.message ?? String(e)}`.slice(0, 500);
    if (refused)
      throw new StripeRefusal(/^[a-z_]{1,64}$/.test(err.code ?? '') ? err.code! : 'invalid_request', message);
    throw new ProviderError('unreachable', message);
  }
}
