/** Enumerations of spec 2.7. Games must tolerate new values (9); so do we where we only pass them through. */

export const TrxType = { PAYMENT: 0, SUPPLEMENT: 1, REFUND: 2 } as const;

export const OrderStatus = { SUCCEEDED: 0, CREATED: 1, AWAITING_PAYMENT: 2, FAILED: 3, CANCELLED: 4 } as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

export const Platform = { IOS: 1, ANDROID: 2, WEB: 3, MACOS: 4, WINDOWS: 5, UNKNOWN: 7 } as const;
export const PLATFORMS = [1, 2, 3, 4, 5, 7] as const;

export const PaymentType = { IN_APP: 0, MOBILE_WAP: 1, JSAPI: 2, QR_CODE: 3 } as const;
export const PAYMENT_TYPES = [0, 1, 2, 3] as const;

export const Channel = { IOS_STORE: 1, ANDROID_STORE: 2 } as const;
/** 1-17 today (2.7); new channels may be added. */
export const MAX_CHANNEL = 17;

/** The two store payments (2.4): client-reported fields, store SKUs, refunds (6) and supplements (4.5). */
export function isStoreChannel(channel: number): boolean {
  return channel === Channel.IOS_STORE || channel === Channel.ANDROID_STORE;
}

/** Supplement states (3). Only 1 is on the wire (2.6); a supplemented order is no longer listed. */
export const SupplyStatus = { PENDING: 1, SUPPLEMENTED: 2 } as const;

/** Most units of one product in one order. */
export const MAX_QUANTITY = 10_000;
