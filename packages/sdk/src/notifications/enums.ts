/**
 * Enumerations of spec 2.2 and 2.7 as named constants. The wire values are plain
 * numbers and the platform may add values (9), so fields stay typed `number`:
 * compare with these constants, and keep a default branch for values you do not know.
 */

/** 2.7 `trxType`. Only PAYMENT and REFUND are notified today. */
export const TrxType = { PAYMENT: 0, SUPPLEMENT: 1, REFUND: 2 } as const;

/** 2.7 `platform`. */
export const Platform = { IOS: 1, ANDROID: 2, WEB: 3, MACOS: 4, WINDOWS: 5, UNKNOWN: 7 } as const;

/** 2.7 `paymentType`. */
export const PaymentType = { IN_APP: 0, MOBILE_WAP: 1, JSAPI: 2, QR_CODE: 3 } as const;

/** 2.7 order `status`. */
export const OrderStatus = { SUCCEEDED: 0, CREATED: 1, AWAITING_PAYMENT: 2, FAILED: 3, CANCELLED: 4 } as const;

/**
 * 2.7 `channel` (the ones the spec names; 6-14 and 16-17 are third-party providers).
 * New channels are added over time: do not branch on channel.
 */
export const Channel = {
  IOS_APP_STORE: 1,
  ANDROID_APP_STORE: 2,
  CHAT_APP_WALLET: 3,
  PAYMENT_APP: 4,
  INTERNATIONAL_WALLET: 5,
  INTERNATIONAL_PAYMENT_APP: 15,
} as const;

/** 2.2 `loginType`. */
export const LoginType = {
  GUEST: 0,
  IOS_STORE: 2,
  ANDROID_STORE: 3,
  SOCIAL_NETWORK: 4,
  GAME_STORE: 5,
  CHAT_APP: 6,
  MICROBLOG: 7,
  LIVE_STREAMING: 9,
  GAME_DISTRIBUTION: 10,
  PHONE: 11,
} as const;

/** 2.6 `supplyStatus` of a pending supplement order. */
export const SupplyStatus = { PENDING: 1 } as const;
