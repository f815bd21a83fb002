/**
 * What the store adapters hand to the rest of the platform, the same shape for both stores. The names in
 * parentheses are the spec's fields they feed (2.4 `bankTrxNo`, `channelSkuCode`, `clientAmount`,
 * `clientCurrency`, `clientRegion`); the wiring into orders is a later step.
 */

export type StoreName = 'apple' | 'google';

/** Purchase state as the store reports it; only `purchased` pays. Apple's verified transactions are always `purchased`. */
export type StorePurchaseState = 'purchased' | 'cancelled' | 'pending';

export interface StorePurchase {
  store: StoreName;
  /** The store's id of this payment (-> bankTrxNo): Apple `transactionId`, Google `orderId`. */
  transactionId: string;
  /** Apple `originalTransactionId`; Google: the purchase token (the id Google's other calls take). */
  originalTransactionId: string;
  /** The store's product id (-> channelSkuCode). */
  productId: string;
  /** Apple bundle id or Google package name. */
  appIdentifier: string;
  /** Apple 'Production' | 'Sandbox'; Google 'Production' | 'Sandbox' (a license tester's test purchase). */
  environment: 'Production' | 'Sandbox';
  state: StorePurchaseState;
  /** Price in minor units of `currency` (-> clientAmount). Apple gives it; Google's purchases.products.get does not. */
  priceMinor?: number;
  /** ISO 4217 (-> clientCurrency). */
  currency?: string;
  /** ISO 3166-1 alpha-2 (-> clientRegion), from Apple's alpha-3 storefront or Google's regionCode. */
  region?: string;
  purchaseDate: Date;
  quantity: number;
  /** Apple: set when the App Store refunded or revoked the transaction. */
  revocationDate?: Date;
  /** Apple `revocationReason`: 0 other, 1 an issue in the app. */
  revocationReason?: number;
  /** Google only. */
  acknowledged?: boolean;
  /** Google only: 0 yet to be consumed, 1 consumed. */
  consumptionState?: number;
  /** Google only: the purchase token. */
  purchaseToken?: string;
  /** Apple `appAccountToken` / Google `obfuscatedExternalAccountId`, when the client set one. */
  accountToken?: string;
}

/** Normalized notification types; `other` keeps the store's own in `rawType`. */
export type StoreNotificationType =
  | 'REFUND'
  | 'REFUND_REVERSED'
  | 'REFUND_DECLINED'
  | 'CONSUMPTION_REQUEST'
  | 'TEST'
  | 'ONE_TIME_PRODUCT_PURCHASED'
  | 'ONE_TIME_PRODUCT_CANCELED'
  | 'other';

export interface StoreNotification {
  store: StoreName;
  /**
   * The key to deduplicate on: Apple `notificationUUID`, Google the Pub/Sub `messageId`. Refusing a replay is the
   * caller's business (both stores retry deliveries).
   */
  notificationId: string;
  type: StoreNotificationType;
  /** The store's own type: Apple `notificationType`, Google the DeveloperNotification member and its type number. */
  rawType: string;
  /** Apple `subtype`. */
  subtype?: string;
  environment?: 'Production' | 'Sandbox';
  /** Apple bundle id or Google package name. */
  appIdentifier: string;
  /** When the store signed (Apple `signedDate`) or the event happened (Google `eventTimeMillis`). */
  eventDate?: Date;
  /** Apple CONSUMPTION_REQUEST: the customer's reason for the refund request (`consumptionRequestReason`). */
  consumptionRequestReason?: string;
  /** Apple: the decoded and verified `signedTransactionInfo`, if present. */
  transaction?: StorePurchase;
  /** Google: the purchase token the event is about (one-time product or voided purchase). */
  purchaseToken?: string;
  /** Google: the product id (one-time product notification `sku`). */
  productId?: string;
  /** Google voided purchase: the order id (-> bankTrxNo), refundType 1 full / 2 partial, productType 1 sub / 2 one-time. */
  orderId?: string;
  refundType?: number;
  productType?: number;
}

/** One refund or void, as listed by the stores' reconciliation calls. */
export interface StoreRefund {
  store: StoreName;
  /** Apple `transactionId` / Google `orderId` (-> bankTrxNo). */
  transactionId: string;
  originalTransactionId?: string;
  purchaseToken?: string;
  productId?: string;
  purchaseDate?: Date;
  refundDate: Date;
  /** Apple revocationReason; Google voidedReason (0 other, 1 remorse, ..., 7 chargeback). */
  reason?: number;
  /** Google voidedSource: 0 user, 1 developer, 2 Google. */
  source?: number;
  quantity?: number;
}
