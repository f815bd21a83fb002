import { Type, type Static } from '@sinclair/typebox';

/** Wire formats the game receives (2.4, 2.5) and reads (2.6), defined once; tests check bodies against them. */

export const ProductEntry = Type.Object(
  {
    productCode: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    channelSkuCode: Type.String({ description: 'Store SKU for the two store payments; empty string otherwise.' }),
  },
  { additionalProperties: false },
);

export const Attach = Type.Object(
  {
    gameServerId: Type.String(),
    gameRoleId: Type.String(),
    gameExt: Type.String(),
  },
  { additionalProperties: false },
);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const PaymentNotification = Type.Object(
  {
    notifyId: Type.Integer(),
    notifyTime: Type.Integer(),
    appId: Type.Integer(),
    userId: Type.String(),
    trxNo: Type.Integer(),
    trxType: Type.Literal(0),
    outTrxNo: Nullable(Type.String()),
    platform: Type.Integer(),
    channel: Type.Integer(),
    paymentType: Type.Integer(),
    products: Type.Array(ProductEntry, { minItems: 1 }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    region: Type.String(),
    clientAmount: Nullable(Type.Number()),
    clientCurrency: Nullable(Type.String()),
    clientRegion: Nullable(Type.String()),
    totalAmount: Type.Number(),
    status: Type.Literal(0),
    successTime: Type.Integer(),
    attach: Nullable(Attach),
    bankTrxNo: Nullable(Type.String()),
  },
  { additionalProperties: false, $id: 'PaymentNotification', title: 'Payment notification (2.4)' },
);
export type PaymentNotification = Static<typeof PaymentNotification>;

export const RefundNotification = Type.Object(
  {
    notifyId: Type.Integer(),
    appId: Type.Integer(),
    notifyTime: Type.Integer(),
    userId: Type.String(),
    trxNo: Type.Integer(),
    originalTrxNo: Type.Integer(),
    trxType: Type.Literal(2),
    platform: Type.Integer(),
    channel: Type.Integer(),
    paymentType: Type.Integer(),
    products: Type.Array(ProductEntry, { minItems: 1 }),
    currency: Type.String({
      pattern: '^[A-Z]{3}$',
      description: 'ISO 4217 code (a string, like 2.4; the field table of 2.5 says number).',
    }),
    totalAmount: Type.Number(),
    status: Type.Literal(0),
    successTime: Type.Integer(),
    attach: Nullable(Attach),
  },
  { additionalProperties: false, $id: 'RefundNotification', title: 'Refund notification (2.5)' },
);
export type RefundNotification = Static<typeof RefundNotification>;

export const PendingSupplement = Type.Object(
  {
    tradeNo: Type.Integer({ description: 'Platform refund order number.' }),
    productId: Type.String({ description: 'Store SKU of the refunded product.' }),
    currency: Type.String(),
    outTradeNo: Type.String({ description: "Our merchant order number of the supplement (not the game's order id)." }),
    bankTradeNo: Nullable(Type.String()),
    refundAmount: Type.Number(),
    channelId: Type.Integer(),
    channelType: Type.Integer(),
    supplyStatus: Type.Literal(1),
    platform: Type.Integer(),
  },
  { additionalProperties: false, $id: 'PendingSupplement', title: 'Pending supplement order (2.6)' },
);
export type PendingSupplement = Static<typeof PendingSupplement>;
