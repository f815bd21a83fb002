import { Type, type Static } from '@sinclair/typebox';
import { MAX_CHANNEL, MAX_QUANTITY, PAYMENT_TYPES, PLATFORMS } from './enums.js';
import { Amount, ProductCode } from './catalogue/products.schemas.js';
import { QueryId, pageQuery, parseId } from '../http/admin-query.js';
import { IdParam } from '../http/route-params.js';
import { parsePage, parseTimeWindow, timeWindowQuery } from '../http/list-query.js';
import { SafeInteger, Text } from '../http/schemas.js';
import { invalidParameter } from '../errors/app-error.js';
import type { OrderFilter } from './orders.repository.js';

const Region = (description: string) =>
  Type.String({ pattern: '^[A-Z]{2}$', description: `${description} ISO 3166-1 alpha-2.` });

/** The order fields the client gives (and the sandbox web payment page), in the spec's own words. */
export const OrderLineInput = Type.Object(
  {
    productCode: ProductCode,
    quantity: Type.Integer({ minimum: 1, maximum: MAX_QUANTITY, description: 'Whole number, at least 1.' }),
  },
  { additionalProperties: false },
);

const PlacementFields = {
  orderId: Type.Optional(
    Type.String({
      pattern: '^[\\x21-\\x7e]{1,64}$',
      description: "The client's order id; becomes `outTrxNo` (2.4 rule 3). Omit it to have one generated.",
    }),
  ),
  products: Type.Array(OrderLineInput, {
    minItems: 1,
    maxItems: 20,
    description: 'A web order may hold several products (2.4 rule 6); a store payment exactly one.',
  }),
  game_server_id: Type.Optional(
    Text({ maxLength: 128, description: 'Echoed as attach.gameServerId; selects the callback URL (4.7).' }),
  ),
  game_role_id: Type.Optional(Text({ maxLength: 128, description: 'Echoed as attach.gameRoleId.' })),
  game_ext: Type.Optional(Text({ maxLength: 2048, description: 'Echoed as attach.gameExt.' })),
  platform: Type.Union(
    PLATFORMS.map((p) => Type.Literal(p)),
    { description: '1 iOS, 2 Android, 3 Web, 4 macOS, 5 Windows, 7 Unknown (2.7).' },
  ),
  channel: Type.Integer({ minimum: 1, maximum: MAX_CHANNEL, description: 'Payment channel (2.7).' }),
  paymentType: Type.Union(
    PAYMENT_TYPES.map((p) => Type.Literal(p)),
    { description: '0 in-app, 1 mobile WAP, 2 JSAPI, 3 QR code (2.7).' },
  ),
  sdkVersion: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}(\\.[0-9]{1,4}){0,3}$',
      description: 'SDK version of the client (iOS below 6.8.1 reports no clientRegion, 2.4 rule 9).',
    }),
  ),
  region: Type.Optional(Region('Region the player chose (web payment without region lock, 2.4 rule 8).')),
};

/** Client order placement (MAC token). The role is required: the game confirms it (4.8) before the order exists. */
export const PlaceOrderBody = Type.Object(
  {
    ...PlacementFields,
    game_server_id: Text({
      minLength: 1,
      maxLength: 128,
      description: 'Server of the role; echoed as attach.gameServerId; selects the callback URL (4.7).',
    }),
    game_role_id: Text({
      minLength: 1,
      maxLength: 128,
      description: 'Role that receives the items; echoed as attach.gameRoleId.',
    }),
    extras: Type.Optional(Text({ maxLength: 2048, description: "Passed to the game's pre-order check (4.10)." })),
  },
  { additionalProperties: false },
);
export type PlaceOrderBody = Static<typeof PlaceOrderBody>;

/** The sandbox's stand-in for the client and the official web payment page (SANDBOX_PAYMENTS only). */
export const SandboxOrderBody = Type.Object(
  {
    appId: SafeInteger({ minimum: 1 }),
    userId: Text({ minLength: 1, maxLength: 64 }),
    origin: Type.Optional(
      Type.Union([Type.Literal('client'), Type.Literal('web_page')], {
        description: 'web_page: an order of the official web payment page (outTrxNo generated).',
      }),
    ),
    ...PlacementFields,
    mergedReceipts: Type.Optional(
      Type.Boolean({
        description: 'Several iOS store receipts merged (channel 1): outTrxNo generated, clientRegion empty.',
      }),
    ),
    ipCountry: Type.Optional(Region('Country of the client IP, as the edge reports it.')),
    registrationRegion: Type.Optional(Region("The player's registration region (web payment with region lock).")),
  },
  { additionalProperties: false },
);
export type SandboxOrderBody = Static<typeof SandboxOrderBody>;

export const SandboxPayBody = Type.Object(
  {
    outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
    bankTrxNo: Type.Optional(Text({ minLength: 1, maxLength: 128, description: "The channel's transaction number." })),
    clientAmount: Type.Optional(Amount('Store payments: the amount the client reports it paid.')),
    clientCurrency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'Store payments: the currency the client paid in.' }),
    ),
    clientRegion: Type.Optional(Region('Store payments: the region the client paid from.')),
    reason: Type.Optional(Text({ maxLength: 500, description: 'Why the payment failed.' })),
  },
  { additionalProperties: false },
);
export type SandboxPayBody = Static<typeof SandboxPayBody>;

export const SandboxRefundBody = Type.Object(
  {
    bankRefundNo: Type.Optional(
      Text({ minLength: 1, maxLength: 128, description: "The store's refund transaction number." }),
    ),
  },
  { additionalProperties: false },
);

export const CancelBody = Type.Object(
  {
    reason: Type.Optional(Text({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const TrxNoParams = Type.Object({ trxNo: IdParam() });

export const OrderQuery = Type.Object(
  {
    appId: Type.Optional(QueryId),
    trxNo: Type.Optional(QueryId),
    outTrxNo: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    userId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    roleId: Type.Optional(Text({ minLength: 1, maxLength: 128 })),
    status: Type.Optional(
      Type.String({
        pattern: '^[0-4]$',
        description: '2.7: 0 succeeded, 1 created, 2 awaiting payment, 3 failed, 4 cancelled.',
      }),
    ),
    trxType: Type.Optional(
      Type.String({ pattern: '^[0-2]$', description: '0 payment, 1 supplement payment, 2 refund.' }),
    ),
    ...timeWindowQuery('Orders created'),
    ...pageQuery('orders'),
  },
  { additionalProperties: false },
);

/** One digit of an enum (status 0-4, trxType 0-2). */
function parseDigit(field: string, value: string, max: number): number {
  if (!/^[0-9]$/.test(value) || Number(value) > max) throw invalidParameter(field, `must be 0-${max}`);
  return Number(value);
}

/** The operator's order search (admin route and `order find`) as a repository filter; every field checked. */
export function parseOrderQuery(q: Static<typeof OrderQuery>): OrderFilter {
  return {
    ...(q.appId !== undefined ? { appId: parseId('appId', q.appId) } : {}),
    ...(q.trxNo !== undefined ? { trxNo: parseId('trxNo', q.trxNo) } : {}),
    ...(q.outTrxNo !== undefined ? { outTrxNo: q.outTrxNo } : {}),
    ...(q.userId !== undefined ? { userId: q.userId } : {}),
    ...(q.roleId !== undefined ? { roleId: q.roleId } : {}),
    ...(q.status !== undefined ? { status: parseDigit('status', q.status, 4) } : {}),
    ...(q.trxType !== undefined ? { trxType: parseDigit('trxType', q.trxType, 2) } : {}),
    ...parseTimeWindow(q),
    ...parsePage(q),
  };
}

export const SupplementQuery = Type.Object(
  {
    appId: Type.Optional(QueryId),
    userId: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('supplemented'), Type.Literal('all')])),
    ...pageQuery('supplements (by tradeNo)'),
  },
  { additionalProperties: false },
);

export const ConsumptionNoticeQuery = Type.Object(
  {
    appId: Type.Optional(QueryId),
    userId: Type.Optional(Text({ minLength: 1, maxLength: 128 })),
    ...pageQuery('notices'),
  },
  { additionalProperties: false },
);

export const SupplementAdmin = Type.Object(
  {
    tradeNo: Type.Integer(),
    productId: Type.String(),
    currency: Type.String(),
    outTradeNo: Type.String(),
    bankTradeNo: Type.Union([Type.String(), Type.Null()]),
    refundAmount: Type.Number(),
    channelId: Type.Integer(),
    channelType: Type.Integer(),
    supplyStatus: Type.Integer({ description: '1 pending supplement, 2 supplemented.' }),
    platform: Type.Integer(),
    appId: Type.Integer(),
    userId: Type.String(),
    originalTrxNo: Type.Integer(),
    payingTrxNo: Type.Union([Type.Integer(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    suppliedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'SupplementAdmin', title: 'Supplement (operator view)' },
);

export const Notification = Type.Object({
  notifyId: Type.Integer(),
  type: Type.String(),
  target: Type.String(),
  state: Type.String({ description: 'pending | delivered | dead' }),
  attempts: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  body: Type.Unknown({ description: 'The JSON body, as sent.' }),
  attemptLog: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'Delivery attempts (see GET /admin/v1/events/{eventId}).',
  }),
});

const WEB_REGION_LOCK =
  '2.4 rule 8: web payments take the registration region (true) or the region the player chose (false).';
const REFUSE_IN_ARREARS =
  'Refuse new store orders (channels 1, 2) of a player with a pending supplement (4.5) in this app, before the game is asked: 40945 SUPPLEMENT_PENDING. Default false.';
const ACCOUNT_BINDING =
  "How a store transaction's account token (Apple appAccountToken, Google obfuscatedExternalAccountId) must match the player submitting it: required (a transaction without the player's token is refused, storeError wrong_account), when_present (default: a token of another player is refused, none is accepted), off (not checked).";
const AccountBinding = Type.Union([Type.Literal('required'), Type.Literal('when_present'), Type.Literal('off')], {
  description: ACCOUNT_BINDING,
});
const CONSUMPTION_CONSENT =
  "The studio's statement that its players consented to consumption data going to Apple (customerConsented); set: CONSUMPTION_REQUEST notifications are answered with Send Consumption Information; null: off (default).";
const RefundPreference = Type.Union(
  [Type.Literal('DECLINE'), Type.Literal('GRANT_FULL'), Type.Literal('GRANT_PRORATED'), Type.Null()],
  { description: 'Apple refundPreference sent with consumption information; null: none (Apple decides).' },
);
/** A change of the order settings: each field given is set, each left out keeps its value. */
export const SettingsBody = Type.Object(
  {
    webRegionLock: Type.Optional(Type.Boolean({ description: WEB_REGION_LOCK })),
    refuseStoreOrdersInArrears: Type.Optional(Type.Boolean({ description: REFUSE_IN_ARREARS })),
    accountBinding: Type.Optional(AccountBinding),
    consumptionConsent: Type.Optional(
      Type.Union([Text({ minLength: 10, maxLength: 2000 }), Type.Null()], { description: CONSUMPTION_CONSENT }),
    ),
    refundPreference: Type.Optional(RefundPreference),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const Settings = Type.Object({
  appId: Type.Integer(),
  webRegionLock: Type.Boolean({ description: WEB_REGION_LOCK }),
  refuseStoreOrdersInArrears: Type.Boolean({ description: REFUSE_IN_ARREARS }),
  accountBinding: AccountBinding,
  consumptionConsent: Type.Union([Type.String(), Type.Null()], { description: CONSUMPTION_CONSENT }),
  consumptionConsentedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  refundPreference: RefundPreference,
});

/** The typed next step of a payment (channels/channel.ts `PaymentStep`; docs/orders.md, "Payment steps"). */
export const PaymentStepSchema = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('redirect', { description: 'A provider-hosted page: send the browser to url.' }),
      channel: Type.String(),
      url: Type.String(),
    }),
    Type.Object({
      kind: Type.Literal('hosted', {
        description: "The platform's own hosted step (the sandbox's pay, fail, cancel).",
      }),
      channel: Type.String(),
      outcomes: Type.Array(Type.String()),
      complete: Type.String({ description: 'The operator call that completes it (sandbox).' }),
    }),
    Type.Object({
      kind: Type.Literal('qr', {
        description: 'A code the payer scans with a phone app (WeChat Pay Native): show image, follow the order.',
      }),
      channel: Type.String(),
      code: Type.String({ description: 'What the code says (weixin://...).' }),
      image: Type.String({ description: 'The code drawn: a PNG data URL (data:image/png;base64,...).' }),
    }),
    Type.Object({
      kind: Type.Literal('store', { description: 'Buy productId in the store, then submit the proof to submit.' }),
      channel: Type.Literal('store'),
      store: Type.String({ description: 'apple | google' }),
      productId: Type.Union([Type.String(), Type.Null()]),
      submit: Type.String(),
      appAccountToken: Type.Optional(
        Type.String({
          format: 'uuid',
          description:
            "App Store: pass it to StoreKit 2's purchase option appAccountToken; the platform checks it (docs/stores.md).",
        }),
      ),
      obfuscatedAccountId: Type.Optional(
        Type.String({
          description:
            'Google Play: pass it to BillingFlowParams.setObfuscatedAccountId; the platform checks it (docs/stores.md).',
        }),
      ),
    }),
  ],
  { description: 'The next step of the payment; its result arrives later (follow the order).' },
);
