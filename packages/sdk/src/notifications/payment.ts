/**
 * Typed payment (2.4) and refund (2.5) notifications, a union discriminated by
 * `trxType` (and `kind`): a refund can never be handled as a payment (2.4 rule 1).
 * Unknown `trxType` values become the `unknown` variant (9: enums may be extended);
 * unknown channel, platform, paymentType and status values pass through as numbers.
 */
import { Fields, PayloadParseError, toObject, type JsonObject } from './fields.js';
import { TrxType } from './enums.js';

/** Product entry of 2.4/2.5. */
export interface NotificationProduct {
  productCode: string;
  quantity: number;
  /** Has a value only for the two store payments; null (or absent) otherwise. */
  channelSkuCode: string | null;
}

/** `attach` of 2.4: echoes of the client's order parameters (a refund carries the original payment's). */
export interface NotificationAttach {
  gameServerId: string;
  gameRoleId: string;
  gameExt: string;
}

interface NotificationCommon {
  notifyId: number;
  /** Notification creation time, Unix ms. */
  notifyTime: number;
  appId: number;
  userId: string;
  /** The platform's unique order number: the idempotency key (2.4 rule 2). */
  trxNo: number;
  /** See Platform. */
  platform: number;
  /** See Channel; new values appear, do not branch on it. */
  channel: number;
  /** See PaymentType. */
  paymentType: number;
  products: NotificationProduct[];
  totalAmount: number;
  /** See OrderStatus. */
  status: number;
  /** Completion time, Unix ms. */
  successTime: number;
  attach: NotificationAttach | null;
  /** The whole parsed body, including fields this SDK version does not know. */
  raw: JsonObject;
}

/** 2.4: a payment succeeded. */
export interface PaymentNotification extends NotificationCommon {
  kind: 'payment';
  trxType: typeof TrxType.PAYMENT;
  /** Merchant order number; not always the client's orderId and no validity check (2.4 rules 3, 4). */
  outTrxNo: string | null;
  currency: string;
  region: string;
  /** Client-reported; only for the two store payments. */
  clientAmount: number | null;
  clientCurrency: string | null;
  clientRegion: string | null;
  /** Channel transaction number (in the samples). */
  bankTrxNo: string | null;
}

/** 2.5: a refund. `trxNo` is the refund order; `originalTrxNo` the payment it refunds. */
export interface RefundNotification extends NotificationCommon {
  kind: 'refund';
  trxType: typeof TrxType.REFUND;
  originalTrxNo: number;
  /** Listed as a number in the 2.5 field table, a currency code elsewhere: either is accepted. */
  currency: string | number;
}

/**
 * A notification whose trxType this SDK version does not know (9: types may be added).
 * Do not grant or revoke anything for it: log it, then accept or reject as you choose.
 * `trxType` is null so that `switch (n.trxType)` narrows cleanly; the value is `unknownTrxType`.
 */
export interface UnknownNotification {
  kind: 'unknown';
  trxType: null;
  unknownTrxType: number;
  notifyId: number | null;
  trxNo: number | null;
  raw: JsonObject;
}

export type Notification = PaymentNotification | RefundNotification | UnknownNotification;

function products(f: Fields): NotificationProduct[] {
  return f.array('products').map((p) => ({
    productCode: p.string('productCode'),
    quantity: p.integer('quantity'),
    channelSkuCode: p.nullableString('channelSkuCode'),
  }));
}

function attach(f: Fields): NotificationAttach | null {
  const a = f.nullableObject('attach');
  return (
    a && { gameServerId: a.string('gameServerId'), gameRoleId: a.string('gameRoleId'), gameExt: a.string('gameExt') }
  );
}

function common(f: Fields): NotificationCommon {
  return {
    notifyId: f.integer('notifyId'),
    notifyTime: f.integer('notifyTime'),
    appId: f.integer('appId'),
    userId: f.string('userId'),
    trxNo: f.integer('trxNo'),
    platform: f.integer('platform'),
    channel: f.integer('channel'),
    paymentType: f.integer('paymentType'),
    products: products(f),
    totalAmount: f.decimal('totalAmount'),
    status: f.integer('status'),
    successTime: f.integer('successTime'),
    attach: attach(f),
    raw: f.o,
  };
}

/**
 * Parses a payment or refund notification body: JSON text, bytes (e.g.
 * `verifiedCallOf(req).rawBody`) or an already parsed value. Throws PayloadParseError
 * naming the field when the body is not a 2.4/2.5 notification.
 */
export function parseNotification(input: unknown): Notification {
  const f = new Fields(toObject(input, 'body'));
  const trxType = f.integer('trxType');
  if (trxType === TrxType.PAYMENT) {
    return {
      ...common(f),
      kind: 'payment',
      trxType,
      outTrxNo: f.nullableString('outTrxNo'),
      currency: f.string('currency'),
      region: f.string('region'),
      clientAmount: f.nullableDecimal('clientAmount'),
      clientCurrency: f.nullableString('clientCurrency'),
      clientRegion: f.nullableString('clientRegion'),
      bankTrxNo: f.nullableString('bankTrxNo'),
    };
  }
  if (trxType === TrxType.REFUND) {
    const c = f.o.currency;
    if (typeof c !== 'string' && !(typeof c === 'number' && Number.isFinite(c))) {
      throw new PayloadParseError(
        'currency',
        c === undefined || c === null ? 'is required' : 'must be a string or a number',
      );
    }
    return { ...common(f), kind: 'refund', trxType, originalTrxNo: f.integer('originalTrxNo'), currency: c };
  }
  const id = (k: string): number | null => (Number.isSafeInteger(f.o[k]) ? (f.o[k] as number) : null);
  return {
    kind: 'unknown',
    trxType: null,
    unknownTrxType: trxType,
    notifyId: id('notifyId'),
    trxNo: id('trxNo'),
    raw: f.o,
  };
}
