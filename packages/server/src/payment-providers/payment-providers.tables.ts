import type { Generated } from 'kysely';

/** Row types of migration 0022 (payment-providers/). Times are Unix milliseconds; booleans 0/1; JSON is text. */

/** One row per app and provider: what operators set (provider-settings.service.ts). */
export interface PaymentProviderSettingsTable {
  /** Surrogate key the master key rotation pages by. */
  settings_id: Generated<number>;
  app_id: number;
  provider: string;
  enabled: number;
  /** JSON array of the payer regions offered (`mainland`, `overseas`). */
  regions: string;
  /** JSON object of the provider's public fields. */
  config: string;
  /** JSON object of the provider's secret fields, sealed under the master key; null: none stored. */
  secrets_enc: string | null;
  created_at: number;
  updated_at: number;
}

export type ProviderPaymentState = 'open' | 'paid' | 'closed';

/** One row per web order opened at a provider: what the provider's messages and queries are checked against. */
export interface ProviderPaymentsTable {
  trx_no: number;
  app_id: number;
  provider: string;
  /** The provider's id of the payment (unique per provider). */
  ref: string;
  /** The order's amount and currency as opened (minor units of the ISO exponent). */
  amount_minor: number;
  currency: string;
  state: ProviderPaymentState;
  /** The provider's transaction id that paid it (the order's bankTrxNo); unique per provider: it pays once. */
  provider_trx_id: string | null;
  opened_at: number;
  /** The order's lifetime end: past it an unpaid payment is closed at the provider and the order cancelled. */
  expires_at: number;
  /** Last time the provider was asked about it (the page's late query, the reconciliation). */
  checked_at: number | null;
  /** The reconciliation's lease: one instance looks at a payment at a time. */
  lease_until: number;
  paid_at: number | null;
  closed_at: number | null;
}

export type ProviderMessageOutcome = 'applied' | 'duplicate' | 'recorded' | 'ignored' | 'refused';

/** Every message a provider sent (and every find of a query), verified or not, with its outcome, for operators. */
export interface ProviderMessagesTable {
  message_id: Generated<number>;
  app_id: number;
  provider: string;
  /** notify: the provider's webhook; query: the result view's late query; reconcile: the periodic job. */
  source: 'notify' | 'query' | 'reconcile';
  event_id: string | null;
  /** event_id of the delivery that took effect (unique per provider and app); null for replays and refusals. */
  dedup_key: string | null;
  type: string | null;
  outcome: ProviderMessageOutcome;
  reason: string | null;
  trx_no: number | null;
  provider_trx_id: string | null;
  amount_minor: number | null;
  currency: string | null;
  received_at: number;
  excerpt: string | null;
}

/**
 * requested: taken, not yet answered by the provider (or the provider could not be reached: the reconciliation sends
 * it again under the same key); pending: the provider took it and has not finished; succeeded: the provider refunded
 * (applied to the order); refused: the provider said no (the order stays paid).
 */
export type RefundRequestState = 'requested' | 'pending' | 'succeeded' | 'refused';

/** One operator's or studio's refund of a web order (migration 0032): one row per (order, idempotency key). */
export interface RefundRequestsTable {
  refund_request_id: Generated<number>;
  app_id: number;
  trx_no: number;
  provider: string;
  idempotency_key: string;
  amount_minor: number;
  currency: string;
  reason: string;
  /** The operator (`operator:<name>`), studio developer (`studio:<name>`) or `cli` that asked. */
  requested_by: string;
  state: RefundRequestState;
  provider_refund_id: string | null;
  /** The provider's refusal (or its last failure while still `requested`). */
  error_code: string | null;
  error_message: string | null;
  requested_at: number;
  updated_at: number;
  /** The reconciliation's lease (and the first caller's, while it asks the provider). */
  lease_until: number;
}

export interface PaymentProvidersTables {
  payment_provider_settings: PaymentProviderSettingsTable;
  provider_payments: ProviderPaymentsTable;
  provider_messages: ProviderMessagesTable;
  refund_requests: RefundRequestsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends PaymentProvidersTables {}
}
