import { Type } from '@sinclair/typebox';
import type {
  CheckoutPaymentIntent,
  ItemCategory,
  Order,
  OrderRequest,
  PaypalExperienceUserAction,
  PaypalWalletContextShippingPreference,
} from '@paypal/paypal-server-sdk';
import type { Config } from '../../config/config.js';
import { invalidParameter } from '../../errors/app-error.js';
import { Text } from '../../http/schemas.js';
import type { ProviderPaymentRow } from '../payment-providers.repository.js';
import {
  PROVIDERS,
  ProviderError,
  type PaymentProvider,
  type ProviderFinding,
  type ProviderSettings,
} from '../provider.js';
import { toPaypalValue } from './amounts.js';
import { orderFinding, notificationOf } from './paypal-events.js';
import { PaypalApi, PaypalRefusal, type PaypalCredentials } from './paypal-api.js';
import { queryRefund, refundCapture } from './paypal-refunds.js';
import { PAYPAL_CERT_ORIGINS, PaypalSignatureVerifier, paypalCertRoots } from './paypal-signature.js';

interface PaypalConfig {
  clientId: string;
  webhookId: string;
  environment?: 'live' | 'sandbox';
}
interface PaypalSecrets {
  clientSecret: string;
}
type Settings = ProviderSettings<PaypalConfig, PaypalSecrets>;

/** Capture refusals that leave the order as it was (it is read again); any other 422 fails the payment for good. */
const NOT_A_FAILURE = new Set(['ORDER_ALREADY_CAPTURED', 'ORDER_NOT_APPROVED']);

/**
 * PayPal (Orders v2), with PayPal's `@paypal/paypal-server-sdk`: an order per web order (intent CAPTURE, one purchase
 * unit with the order's lines, amount and currency, `custom_id` the trxNo, the page's return and cancel URL, a
 * PayPal-Request-Id per order), the player sent to PayPal's approval page, and the approved order **captured by the
 * server**: the browser's return pays nothing by itself; the result view's read (the framework's late query) or the
 * reconciliation asks PayPal, which captures an approved order (a PayPal-Request-Id per order: one capture however
 * often it is asked), and pays from the capture PayPal answers or from the verified PAYMENT.CAPTURE.COMPLETED webhook.
 * The webhook is self-verified (paypal-signature.ts). PayPal has no call that cancels a CAPTURE order: closing one
 * means we never capture it (an approval lapses at PayPal unused); one PayPal reports captured meanwhile is paid.
 * Built from the configuration (providers.ts); the interface (provider.ts) types its calls.
 */
export function paypalProvider(
  config: Config,
  now: () => number = Date.now,
): PaymentProvider<PaypalConfig, PaypalSecrets> {
  const api = new PaypalApi({ apiBaseUrl: config.PAYPAL_API_BASE_URL, timeoutMs: config.PROVIDER_CALL_TIMEOUT_MS });
  const signatures = new PaypalSignatureVerifier({
    certOrigins: config.PAYPAL_CERT_URL_ORIGINS
      ? paypalCertOrigins(config.PAYPAL_CERT_URL_ORIGINS)
      : PAYPAL_CERT_ORIGINS,
    roots: paypalCertRoots(config.PAYPAL_CERT_ROOTS_FILE),
    timeoutMs: config.PROVIDER_CALL_TIMEOUT_MS,
  });

  /** GET the order; null when PayPal no longer knows it (an order never approved expires and is gone). */
  async function findOrder(settings: Settings, payment: ProviderPaymentRow): Promise<Order | null> {
    try {
      return await api.getOrder(credentials(settings), payment.ref);
    } catch (e) {
      if (e instanceof PaypalRefusal && e.failure.status === 404) return null;
      throw e;
    }
  }

  /** Captures the approved order, once per order (its PayPal-Request-Id), and says what the capture did. */
  async function capture(settings: Settings, payment: ProviderPaymentRow): Promise<ProviderFinding> {
    const requestId = `gp-capture-${payment.app_id}-${payment.trx_no}`;
    try {
      const found = orderFinding(await api.captureOrder(credentials(settings), payment.ref, requestId));
      return found.kind === 'approved' ? { kind: 'open' } : found;
    } catch (e) {
      if (!(e instanceof PaypalRefusal) || e.failure.status !== 422) throw e;
      if (e.failure.issues.some((i) => NOT_A_FAILURE.has(i))) {
        const again = await findOrder(settings, payment);
        const found = again ? orderFinding(again) : { kind: 'open' as const };
        return found.kind === 'approved' ? { kind: 'open' } : found;
      }
      // The payer's funding was declined, the payee cannot take it...: this order will not be paid.
      const why = e.failure.issues[0] ?? e.failure.name;
      return { kind: 'failed', ref: payment.ref, trxNo: Number(payment.trx_no), reason: `capture refused: ${why}` };
    }
  }

  return {
    id: 'paypal',
    ...PROVIDERS.paypal,
    settings: {
      config: Type.Object(
        {
          clientId: Text({
            minLength: 8,
            maxLength: 255,
            description: "The Client ID of the studio's PayPal REST app (Developer Dashboard > Apps & Credentials).",
          }),
          webhookId: Text({
            minLength: 1,
            maxLength: 50,
            description: "The Webhook ID PayPal shows for this app's webhook URL in the REST app's Webhooks.",
          }),
          environment: Type.Optional(
            Type.Union([Type.Literal('live'), Type.Literal('sandbox')], {
              description: 'live (default) or sandbox: which PayPal the REST app belongs to.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      secrets: Type.Object(
        {
          clientSecret: Text({ minLength: 8, maxLength: 255, description: "The REST app's Secret." }),
        },
        { additionalProperties: false },
      ),
      check: (config: PaypalConfig) => {
        if (!/^[A-Za-z0-9_-]{8,255}$/.test(config.clientId))
          throw invalidParameter('config.clientId', "is a PayPal REST app's Client ID (letters, digits, - and _)");
        if (!/^[A-Za-z0-9]{1,50}$/.test(config.webhookId))
          throw invalidParameter('config.webhookId', "is a PayPal webhook's ID (letters and digits)");
      },
    },
    webhook: {
      contentType: 'application/json' as const,
      body: Type.Object(
        {
          id: Text({ maxLength: 255, description: 'WH-...' }),
          event_type: Text({ maxLength: 255, description: 'e.g. PAYMENT.CAPTURE.COMPLETED' }),
          resource: Type.Object({}, { additionalProperties: true }),
        },
        {
          additionalProperties: true,
          description: 'A PayPal webhook event (API reference: Webhooks), signed in PAYPAL-TRANSMISSION-SIG.',
        },
      ),
    },

    async open(settings, p) {
      const currency = p.order.currency;
      const value = (minor: number) => {
        const v = toPaypalValue(minor, currency);
        if (v === null) throw new ProviderError('refused', `PayPal takes ${currency} in whole units only`);
        return { currencyCode: currency, value: v };
      };
      const itemTotal = p.items.reduce((sum, item) => sum + item.unit_price_minor * item.quantity, 0);
      if (itemTotal !== p.order.total_minor)
        throw new ProviderError('refused', `the lines of order ${p.order.trx_no} do not add up to its total`);
      const trxNo = String(p.order.trx_no);
      const body: OrderRequest = {
        intent: 'CAPTURE' as CheckoutPaymentIntent,
        purchaseUnits: [
          {
            referenceId: trxNo,
            customId: trxNo,
            amount: { ...value(p.order.total_minor), breakdown: { itemTotal: value(itemTotal) } },
            items: p.items.map((item) => ({
              name: (p.names.get(item.product_code) ?? item.product_code).slice(0, 127),
              quantity: String(item.quantity),
              unitAmount: value(item.unit_price_minor),
              sku: item.product_code.slice(0, 127),
              category: 'DIGITAL_GOODS' as ItemCategory,
            })),
          },
        ],
        paymentSource: {
          paypal: {
            experienceContext: {
              returnUrl: p.returnUrl,
              cancelUrl: p.returnUrl,
              userAction: 'PAY_NOW' as PaypalExperienceUserAction,
              shippingPreference: 'NO_SHIPPING' as PaypalWalletContextShippingPreference,
              locale: p.lang.startsWith('zh') ? 'zh-CN' : 'en-US',
            },
          },
        },
      };
      const order = await api.createOrder(credentials(settings), body, p.idempotencyKey);
      // With payment_source.paypal PayPal answers a `payer-action` link; `approve` is the older name of the same.
      const link = order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href;
      if (!order.id || !/^[A-Z0-9]{1,64}$/.test(order.id) || !link || !/^https?:\/\//.test(link))
        throw new ProviderError('malformed', 'PayPal answered an order without an id or an approval link');
      return { ref: order.id, step: { kind: 'redirect', channel: this.id, url: link } };
    },

    async verify(settings, request) {
      await signatures.verify(request, settings.config.webhookId);
      return notificationOf(request.body);
    },

    /** The order at PayPal; an approved one is captured here (while the order may still be paid). */
    async query(settings, payment) {
      const order = await findOrder(settings, payment);
      if (!order) return { kind: 'closed', ref: payment.ref, trxNo: Number(payment.trx_no) };
      const found = orderFinding(order);
      if (found.kind !== 'approved') return found;
      // Past its lifetime an approval is not taken up: the reconciliation closes the order instead.
      if (now() >= Number(payment.expires_at)) return { kind: 'open' };
      return capture(settings, payment);
    },

    /**
     * No call cancels a CAPTURE order at PayPal: an order we do not capture takes no money, and PayPal lets it expire.
     * So closing is deciding never to capture it: closed, unless PayPal reports it captured (paid, failed) or holds its
     * capture pending (open: PayPal decides later, and its webhook or the next run tells).
     */
    async close(settings, payment) {
      const order = await findOrder(settings, payment);
      const found = order ? orderFinding(order) : null;
      if (found && (found.kind === 'paid' || found.kind === 'failed')) return found;
      if (found?.kind === 'open' && order?.status === 'COMPLETED') return found;
      return { kind: 'closed', ref: payment.ref, trxNo: Number(payment.trx_no) };
    },

    refund(settings, payment, r) {
      return refundCapture(api, credentials(settings), payment, r);
    },

    queryRefund(settings, _payment, _r, providerRefundId) {
      return queryRefund(api, credentials(settings), providerRefundId);
    },
  };
}

function credentials(settings: Settings): PaypalCredentials {
  return {
    clientId: settings.config.clientId,
    clientSecret: settings.secrets.clientSecret,
    environment: settings.config.environment ?? 'live',
  };
}

/** PAYPAL_CERT_URL_ORIGINS: exact origins, https (http only on a loopback address: a fake in tests). */
export function paypalCertOrigins(text: string): string[] {
  return text.split(',').map((s) => {
    const origin = s.trim();
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      // Refused below.
    }
    const loopback = url !== null && /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname);
    if (!url || url.origin !== origin || !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)))
      throw new Error(
        `invalid configuration: PAYPAL_CERT_URL_ORIGINS: ${JSON.stringify(origin)} is not an https origin (http only on loopback)`,
      );
    return origin;
  });
}
