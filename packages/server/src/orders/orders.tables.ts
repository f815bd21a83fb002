import type { Generated } from 'kysely';

/**
 * Tables of the orders domain (migration 0006_orders). Money is integer minor
 * units of the row's currency (ISO 4217 exponent, money.ts), never a float;
 * times are Unix ms; booleans 0/1.
 */
export interface ProductsTable {
  product_id: Generated<number>;
  app_id: number;
  /** `productCode` of 2.4. Unique per app. */
  product_code: string;
  name: string;
  price_minor: number;
  currency: string;
  /** JSON object: channel (2.7 enum, as a string key) -> store SKU (`channelSkuCode`). */
  channel_skus: string;
  /** active | disabled */
  status: string;
  created_at: number;
  updated_at: number;
}

/** Payment (trxType 0), supplement payment (1) and refund (2) orders: one row each, `trx_no` the platform number. */
export interface OrdersTable {
  /** `trxNo`: an auto id, so numeric, unique and far below 2^53. */
  trx_no: Generated<number>;
  app_id: number;
  user_id: string;
  trx_type: number;
  /** `outTrxNo`; null for refund orders. Unique per app (2.4 rule 5). */
  out_trx_no: string | null;
  /** Refund: the payment refunded. Supplement payment: the refund order it makes good. */
  original_trx_no: number | null;
  /** 2.7: 0 succeeded, 1 created, 2 awaiting payment, 3 failed, 4 cancelled. */
  status: number;
  platform: number;
  channel: number;
  payment_type: number;
  currency: string;
  total_minor: number;
  /** 2.4 rule 8; null for refund orders. */
  region: string | null;
  client_amount_minor: number | null;
  client_currency: string | null;
  client_region: string | null;
  /** `bankTrxNo`: the channel's transaction number. */
  bank_trx_no: string | null;
  game_server_id: string | null;
  game_role_id: string | null;
  game_ext: string | null;
  /** client | web_page | supplement | refund */
  origin: string;
  merged_receipts: number;
  sdk_version: string | null;
  /** Country of the placing client's IP (edge header), for the store `region` (2.4 rule 8). */
  ip_country: string | null;
  /** SHA-256 of the placement request, to tell a retry (same order) from a reused outTrxNo. */
  request_digest: string | null;
  /** Outbox event of the payment/refund notification (its `notifyId`). */
  notify_event_id: number | null;
  failure_reason: string | null;
  created_at: number;
  updated_at: number;
  /** `successTime`: when the payment (or refund) completed. */
  success_time: number | null;
  /** W3C traceparent of the placement (migration 0023): its notifications join that trace. Null: tracing off. */
  trace_parent: Generated<string | null>;
  /** A web payment: how much of `total_minor` web refunds gave back (migration 0031); never more than it. */
  refunded_minor: Generated<number>;
}

export interface OrderItemsTable {
  trx_no: number;
  line_no: number;
  product_code: string;
  quantity: number;
  unit_price_minor: number;
  /** Store SKU for the two store channels; '' otherwise (2.4 product entry). */
  channel_sku_code: string;
}

/** Pending supplement orders after store refunds of granted items (2.5, 2.6, 3, 4.5). */
export interface SupplementsTable {
  /** `tradeNo`: the refund order. */
  refund_trx_no: number;
  app_id: number;
  user_id: string;
  original_trx_no: number;
  product_id: string;
  currency: string;
  out_trade_no: string;
  bank_trade_no: string | null;
  refund_minor: number;
  channel_id: number;
  channel_type: number;
  platform: number;
  /** 1 pending supplement, 2 supplemented. */
  supply_status: number;
  /** The supplement payment order (trxType 1) currently open or paid. */
  paying_trx_no: number | null;
  created_at: number;
  supplied_at: number | null;
}

/** In-game consumption notices (4.6), stored once per (app, user, role, server, product, timestamp). */
export interface ConsumptionNoticesTable {
  notice_id: Generated<number>;
  app_id: number;
  nonce: string;
  user_id: string;
  role_id: string;
  server_id: string;
  product_code: string;
  timestamp: number;
  sign: string;
  event_id: number;
  received_at: number;
}

/** Per-app order settings. */
export interface OrderSettingsTable {
  app_id: number;
  /** Web payments use the registration region (1) or the region the player chose (0), 2.4 rule 8. */
  web_region_lock: number;
  /** Refuse new store orders (channels 1, 2) of a player with a pending supplement (4.5): 1; 0 (default) allows them. Migration 0021. */
  refuse_store_orders_in_arrears: number;
  /** Store purchases bound to their buyer (migration 0024): required | when_present (default) | off. */
  account_binding: Generated<string>;
  /** The studio's statement that its players consented to consumption data going to Apple; null: off (0024). */
  consumption_consent: string | null;
  consumption_consented_at: number | null;
  /** Apple refundPreference sent with consumption information: DECLINE | GRANT_FULL | GRANT_PRORATED; null: none. */
  refund_preference: string | null;
  updated_at: number;
}

/** What the game reported of a purchase's consumption (migration 0024), in Apple's milliunits (0..100000). */
export interface OrderConsumptionTable {
  trx_no: number;
  app_id: number;
  consumption_percentage: number;
  reported_at: number;
}

/** One status an order went through (migration 0009; orders/status-history.ts). */
export interface OrderStatusChangesTable {
  change_id: Generated<number>;
  trx_no: number;
  /** null: the order was created with `to_status`. */
  from_status: number | null;
  to_status: number;
  /** Why: the failure or cancellation reason, or what made the change (e.g. `channel sandbox: paid`). */
  reason: string | null;
  at: number;
}

/**
 * A claim on a client orderId being placed (migration 0011;
 * orders/placement/placement-claims.ts): one row per (app, outTrxNo), so identical
 * placements ask the game once. The order row, once written, is the outcome
 * of a successful attempt; a failed one records its outcome here.
 */
export interface PlacementClaimsTable {
  app_id: number;
  out_trx_no: string;
  /** The request digest (OrdersTable.request_digest) of the placement holding the current attempt. */
  request_digest: string;
  /** 1 for the first placement; +1 for each placement that took over (after a settled failure or an expired lease). */
  attempt: number;
  claimed_at: number;
  /** Past this, a holder that has not settled is taken to have died and the claim may be taken over. */
  lease_until: number;
  /** The attempt whose outcome is recorded; equal to `attempt` when the current attempt has settled. */
  settled_attempt: number | null;
  /** JSON `{reason, detail, msg?, data?}` of the error that failed `settled_attempt`; null: it ended with no outcome to share. */
  outcome: string | null;
  settled_at: number | null;
}

/**
 * A refund or lost dispute of a web payment (migration 0031; orders/refunds/web-refunds.ts): one per provider id of
 * it, each with its refund order (trxType 2).
 */
export interface WebRefundsTable {
  refund_trx_no: number;
  app_id: number;
  /** The paying player (the refund abuse view counts by player). */
  user_id: string;
  original_trx_no: number;
  /** The payment provider (payment-providers PROVIDER_IDS). */
  provider: string;
  /** The provider's id of the refund (Stripe re_..., PayPal refund id, Alipay out_request_no/out_biz_no...) or dispute. */
  provider_refund_id: string;
  /** refund | dispute_lost */
  kind: string;
  amount_minor: number;
  currency: string;
  reason: string | null;
  /** The operator who asked for it (operator refunds); null: made at the provider. */
  operator: string | null;
  request_id: string | null;
  /** When the provider completed it (the refund order's successTime). */
  refunded_at: number;
  created_at: number;
}

export interface OrdersTables {
  web_refunds: WebRefundsTable;
  placement_claims: PlacementClaimsTable;
  products: ProductsTable;
  orders: OrdersTable;
  order_status_changes: OrderStatusChangesTable;
  order_items: OrderItemsTable;
  supplements: SupplementsTable;
  consumption_notices: ConsumptionNoticesTable;
  order_settings: OrderSettingsTable;
  order_consumption: OrderConsumptionTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends OrdersTables {}
}
