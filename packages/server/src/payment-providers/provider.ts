import type { TObject } from '@sinclair/typebox';
import type { PaymentStep } from '../orders/payments/channels/channel.js';
import type { ItemRow, OrderRow } from '../orders/orders.repository.js';
import type { ProviderPaymentRow } from './payment-providers.repository.js';

/**
 * THE SEAM of the web payment providers (docs/web-payment.md, "Adding a provider"). One adapter per provider
 * implements `PaymentProvider`; everything provider-independent is written once around it:
 * - settings per app and provider (payer regions, public config, secrets sealed at rest), admin API, CLI, console
 *   panel: provider-settings.*, built from `settings` below;
 * - the channel seam (ProviderChannel): a web order placed with this provider is opened through `open`;
 * - the webhook route `POST /notify/v1/providers/{id}/{appId}` (webhook.routes.ts): raw body kept, `verify` called,
 *   the finding applied by ProviderPayments (amount, currency, order, app, replay, exactly once, records, metrics);
 * - the result view's late query and the reconciliation: `query` and `close`.
 * An adapter holds no state of its own and never writes the database: it speaks its provider's protocol with the
 * provider's SDK, from the settings it is handed.
 */
export interface PaymentProvider<Config = Record<string, string>, Secrets = Record<string, string>> {
  /** Stable id: the settings key, the webhook path segment, the page's `provider` value. */
  readonly id: ProviderId;
  /** What the page calls the method (its i18n key `method_<method>`). */
  readonly method: MethodName;
  /** The 2.7 channel number of this provider's orders (2.4 `channel`). */
  readonly channel: number;
  /** The payer regions the method is offered in when the operator names none. */
  readonly defaultRegions: PayerRegion[];
  /** The settings a studio gives: public `config` (shown back) and `secrets` (sealed, never answered). */
  readonly settings: ProviderSettingsSpec<Config, Secrets>;
  /** What the provider POSTs to the webhook: content type, a schema of its body (OpenAPI), and the success answer. */
  readonly webhook: WebhookSpec;
  /** 2.7 paymentType of an order paid this way on this device (web orders: 1 mobile WAP unless the provider says). */
  paymentType?(device: Device): number;
  /**
   * Opens the payment of a created order at the provider: amount and currency exactly the order's, the provider's
   * reference (`ref`, the key the notifications and queries name it by) and the step the page takes. Idempotent per
   * order (`idempotencyKey`). Throws ProviderError('unreachable') when the provider cannot be reached.
   */
  open(settings: ProviderSettings<Config, Secrets>, payment: OpenPayment): Promise<OpenedPayment>;
  /**
   * Authenticates a webhook request (the provider's signature scheme over `rawBody` and headers, with its SDK) and
   * says what it reports. Throws ProviderError (`bad_signature`, `stale`, `malformed`...) for anything that does not
   * verify, or whose fields (read after the signature checks) are not what the provider documents.
   */
  verify(settings: ProviderSettings<Config, Secrets>, request: WebhookRequest): Promise<VerifiedNotification>;
  /** The provider's own view of a payment now (its order query): paid, still open, or closed. */
  query(settings: ProviderSettings<Config, Secrets>, payment: ProviderPaymentRow): Promise<ProviderFinding>;
  /**
   * Closes an unpaid payment at the provider so it can no longer be paid; answers `closed`, or `paid` when the player
   * paid in the meantime (the provider refused to close a paid payment).
   */
  close(settings: ProviderSettings<Config, Secrets>, payment: ProviderPaymentRow): Promise<ProviderFinding>;
  /**
   * Refunds a paid payment, whole or in part, at the provider (its refunds API), under the provider's idempotency key
   * `refund.key`: the same key sent again is the same refund. Answers what the provider said: succeeded, pending, or
   * refused (a business no: the order stays paid). Throws ProviderError('unreachable') when there is no answer.
   */
  refund(
    settings: ProviderSettings<Config, Secrets>,
    payment: ProviderPaymentRow,
    refund: RefundCall,
  ): Promise<RefundFinding>;
  /**
   * The provider's view of a refund asked before (by its id when the provider gave one, else by `refund.key`);
   * `unknown` when the provider has no refund under that key (the request never reached it: send it again).
   */
  queryRefund(
    settings: ProviderSettings<Config, Secrets>,
    payment: ProviderPaymentRow,
    refund: RefundCall,
    providerRefundId: string | null,
  ): Promise<RefundFinding>;
}

/** An operator's refund as an adapter is handed it (payment-providers/provider-refunds.ts). */
export interface RefundCall {
  /** The provider's idempotency key, derived from the refund request's row (at most 64 of [A-Za-z0-9_-]). */
  key: string;
  /** Minor units of the ISO exponent, in the payment's currency; at most what remains unrefunded. */
  amountMinor: number;
  currency: string;
  /** The operator's reason (providers that take one show it to the payer or keep it with the refund). */
  reason: string;
}

/** What a provider says of a refund. */
export type RefundFinding =
  | { state: 'succeeded'; providerRefundId: string; amountMinor: number; currency: string }
  /** Taken, not finished (Stripe `pending`, PayPal `PENDING`, WeChat Pay `PROCESSING`): its webhook or a query tells. */
  | { state: 'pending'; providerRefundId: string | null }
  /** The provider refused or failed the refund for good (`code` its own word): the order stays paid. */
  | { state: 'refused'; providerRefundId: string | null; code: string; message: string }
  /** Query only: the provider has no refund under this key. */
  | { state: 'unknown' };

/** A refund refused (by the provider, or before it was asked): `providerRefundId` when the provider made one. */
export function refundRefused(
  code: string,
  message: string,
  providerRefundId: string | null = null,
): Extract<RefundFinding, { state: 'refused' }> {
  return { state: 'refused', providerRefundId, code, message };
}

/** An adapter of any provider (its own settings types), as the registry holds them. */
export type AnyProvider = PaymentProvider<any, any>;

/** The providers: one id each. A new provider adds its id here, its entry in PROVIDERS, its adapter to providers.ts. */
export const PROVIDER_IDS = ['stripe', 'paypal', 'alipay', 'wechatpay'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export type MethodName = 'card' | 'paypal' | 'alipay' | 'wechat_pay';

/** What the platform knows a provider by, beside its id (each adapter spreads its entry: PaymentProvider's fields). */
export type ProviderEntry = Pick<PaymentProvider, 'method' | 'channel' | 'defaultRegions'>;

/** Each provider's method, 2.7 channel number and default payer regions, in one table. */
export const PROVIDERS: Record<ProviderId, ProviderEntry> = {
  /** Cards through Stripe Checkout: channel 6, the first third-party provider number of 2.7 (6-14, 16-17). */
  stripe: { method: 'card', channel: 6, defaultRegions: ['overseas'] },
  /** PayPal: channel 5, the international online wallet of 2.7. */
  paypal: { method: 'paypal', channel: 5, defaultRegions: ['overseas'] },
  /** Alipay: channel 4, the domestic payment app of 2.7. */
  alipay: { method: 'alipay', channel: 4, defaultRegions: ['mainland'] },
  /** WeChat Pay: channel 3, the chat-app wallet of 2.7. */
  wechatpay: { method: 'wechat_pay', channel: 3, defaultRegions: ['mainland'] },
};

/** Where the player is: the app's region (mainland page: login; overseas page: typed role id). */
export const PAYER_REGIONS = ['mainland', 'overseas'] as const;
export type PayerRegion = (typeof PAYER_REGIONS)[number];
export type Device = 'desktop' | 'phone';

export interface ProviderSettingsSpec<Config, Secrets> {
  /** Public fields (strings), shown back to operators. */
  config: TObject;
  /** Secret fields (strings): sealed under the master key, never answered; an omitted one keeps the stored value. */
  secrets: TObject;
  /** Checks beyond the schemas (a key that parses...); throws invalidParameter naming the field. */
  check?(config: Config, secrets: Partial<Secrets>): void;
}

/** The opened settings of one app and provider, as an adapter is handed them. */
export interface ProviderSettings<Config = Record<string, string>, Secrets = Record<string, string>> {
  appId: number;
  enabled: boolean;
  regions: PayerRegion[];
  config: Config;
  secrets: Secrets;
}

export interface WebhookSpec {
  /** The content type the provider posts (the route parses it, keeping the raw text for the signature). */
  contentType: 'application/json' | 'application/x-www-form-urlencoded';
  /** The body as the provider documents it (OpenAPI; checked before `verify`, with the common text rules). */
  body: TObject;
  /**
   * The answer the provider expects for a notification taken (applied, a replay, recorded or ignored); null: the
   * platform's 2.3 envelope. Refusals always answer a 4xx (a provider retries those): the envelope, or `refused`.
   */
  accepted?: { status: number; contentType: string; body: string };
  /**
   * The answer to a refusal for providers that document their own (Alipay reads the text `fail`; WeChat Pay a JSON
   * `{code, message}`); the status stays the refusal's 4xx and the reason is recorded for operators. Absent: the
   * 2.3 envelope. `detail` says why.
   */
  refused?(refusal: { outcome: string; reason: string | null; detail: string }): { contentType: string; body: string };
}

/** What the channel seam hands `open`. */
export interface OpenPayment {
  order: OrderRow;
  items: ItemRow[];
  /** Product names by code (line items the player sees at the provider). */
  names: Map<string, string>;
  /** Where the provider sends the browser back (the page's, validated; `trxNo` in its query). */
  returnUrl: string;
  /** This app's webhook URL for the provider (providers that take it per payment). */
  notifyUrl: string;
  /** When the order's lifetime ends (ms): the provider must take no payment past it. */
  expiresAt: number;
  device: Device;
  /** The page's language (en, zh-CN). */
  lang: string;
  /** The payer's IP as the edge saw it (providers that ask for it); null when unknown. */
  clientIp: string | null;
  /** Same key, same payment: a retried open never makes a second one. */
  idempotencyKey: string;
}

export interface OpenedPayment {
  /** The provider's id of this payment (Checkout Session id, PayPal order id, out_trade_no...). */
  ref: string;
  step: PaymentStep;
}

/** A webhook request as the route received it. */
export interface WebhookRequest {
  /** The body exactly as received (signatures are over these bytes, as UTF-8). */
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body (JSON, or the form's fields), already checked against `webhook.body`. */
  body: unknown;
}

/**
 * What a provider reports about a payment, from a verified notification or a query. Amounts are minor units of the
 * ISO 4217 exponent (orders/money.ts), currencies ISO codes in capitals, whatever the provider's own units are.
 */
export type ProviderFinding =
  | {
      kind: 'paid';
      /** The provider's payment reference, when the message names it. */
      ref: string | null;
      /** The order's trxNo as the provider echoes it (metadata, out_trade_no), when it does. */
      trxNo: number | null;
      /** The provider's transaction id: the order's `bankTrxNo` (2.4). */
      providerTrxId: string;
      amountMinor: number;
      currency: string;
    }
  /** Query: not paid yet and still payable. */
  | { kind: 'open' }
  /** Closed or expired at the provider without a payment. */
  | { kind: 'closed'; ref: string | null; trxNo: number | null }
  /** The payment failed for good (an asynchronous method declined). */
  | { kind: 'failed'; ref: string | null; trxNo: number | null; reason: string }
  /**
   * A refund of a paid payment (made at the provider, or an operator's through it): each refund the message reports
   * completed is applied once by its id (orders/refunds/web-refunds.ts: a refund order and its 2.5); one still
   * pending or failed is recorded for operators.
   */
  | {
      kind: 'refund';
      providerTrxId: string;
      /** The provider's id of the refund (of the charge, when the message lists several). */
      id: string;
      amountMinor: number | null;
      currency: string | null;
      reason: string | null;
      /** The refunds this message reports completed (money back with the player); empty: nothing to apply. */
      completed: CompletedRefund[];
    }
  /**
   * A dispute (chargeback) or a reversal. Open, won or closed otherwise: recorded for operators. Lost: the amount
   * taken back is applied once by the dispute's id, as a refund (web-refunds.ts, kind dispute_lost).
   */
  | {
      kind: 'dispute';
      providerTrxId: string;
      /** The provider's id of the dispute (or of the reversal). */
      id: string;
      amountMinor: number | null;
      currency: string | null;
      reason: string | null;
      status: 'open' | 'lost' | 'won' | 'closed';
      /** When it was decided (ms); null: unknown, the time it is received. */
      at: number | null;
    }
  /** Verified, but nothing to do (an event type we do not handle, a payment not finished yet). */
  | { kind: 'ignored'; reason: string };

/** One refund a provider completed: applied once by its id (the provider's, unique per provider). */
export interface CompletedRefund {
  id: string;
  /** Minor units of the finding's currency. */
  amountMinor: number;
  /** `total_refunded`: the provider's running total of what it refunded of the payment (Alipay's refund_fee). */
  amountIs?: 'this_refund' | 'total_refunded';
  /** When the provider completed it (ms); null: unknown, the time it is received. */
  at: number | null;
}

export interface VerifiedNotification {
  /** The provider's id of this message: a replay carries the same (the dedup key). */
  eventId: string;
  /** The provider's event type, as operators read it. */
  type: string;
  finding: ProviderFinding;
  /** What operators see of it: ids and amounts, never anything signed or secret. */
  excerpt: Record<string, string | number | boolean | null>;
}

/** Why a provider call or message failed; `retryable`: the provider could not be reached (ask it to retry). */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly retryable = code === 'unreachable',
  ) {
    super(message);
  }
}

export type ProviderErrorCode =
  'missing_signature' | 'bad_signature' | 'stale' | 'malformed' | 'unreachable' | 'refused' | 'not_configured';
