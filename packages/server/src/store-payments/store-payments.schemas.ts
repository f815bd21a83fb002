import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { NextBefore, QueryTime, pageQuery } from '../http/admin-query.js';
import { MAX_MERGED_TRANSACTIONS } from './purchases.js';

/** A StoreKit 2 JWS (header, payload, signature with a three-certificate x5c): a few kilobytes. */
const Jws = Text({ minLength: 1, maxLength: 65_536, description: 'Compact JWS as StoreKit 2 gives it.' });

export const AppleTransactionsBody = Type.Object(
  {
    signedTransactions: Type.Array(Jws, {
      minItems: 1,
      maxItems: MAX_MERGED_TRANSACTIONS,
      description:
        "StoreKit 2 `Transaction.jwsRepresentation` of the order's purchase; several: a merged receipt (2.4 rules 3, 9).",
    }),
  },
  { additionalProperties: false },
);

export const GooglePurchaseBody = Type.Object(
  {
    packageName: Text({ minLength: 1, maxLength: 256 }),
    productId: Text({ minLength: 1, maxLength: 256, description: "The store product id: the order's channelSkuCode." }),
    purchaseToken: Text({ minLength: 1, maxLength: 4096 }),
    clientAmount: Type.Optional(
      Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,30}(\\.[0-9]{1,20})?$' })], {
        description: 'Client-reported (2.4): the price Play Billing showed (Google does not give it to the server).',
      }),
    ),
    clientCurrency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  },
  { additionalProperties: false },
);

export const TrxNoParams = Type.Object({ trxNo: Type.String({ pattern: '^[0-9]{1,15}$' }) });
export const NotifyParams = Type.Object({ appId: Type.String({ pattern: '^[0-9]{1,15}$' }) });

export const AppleNotificationBody = Type.Object({
  signedPayload: Text({ minLength: 1, maxLength: 262_144 }),
});

/** Pub/Sub's push body; checked by the verifier (Pub/Sub may add fields). */
export const GooglePushBody = Type.Object({
  message: Type.Optional(Type.Unknown()),
  subscription: Type.Optional(Type.Unknown()),
});

/** What the notification endpoints answer (the stores read only the status: 200 acknowledges). */
export const NotifyAnswer = Type.Object(
  {
    outcome: Type.Union(['applied', 'duplicate', 'ignored', 'refused'].map((o) => Type.Literal(o))),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it was refused or ignored: the failed check or the reason (docs/stores.md).',
    }),
  },
  { $id: 'StoreNotifyAnswer', title: 'Store notification answer' },
);

export const StoreMessage = Type.Object(
  {
    messageId: Type.Integer(),
    store: Type.Union([Type.Literal('apple'), Type.Literal('google')]),
    source: Type.Union([Type.Literal('push'), Type.Literal('reconcile')]),
    notificationId: Type.Union([Type.String(), Type.Null()]),
    type: Type.Union([Type.String(), Type.Null()]),
    outcome: Type.String(),
    errorCode: Type.Union([Type.String(), Type.Null()]),
    trxNo: Type.Union([Type.Integer(), Type.Null()]),
    receivedAt: Type.String({ format: 'date-time' }),
    excerpt: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'StoreMessage', title: 'Store message (notification or reconciliation find)' },
);
export type StoreMessage = Static<typeof StoreMessage>;

export const StoreMessagesQuery = Type.Object(
  {
    store: Type.Optional(Type.Union([Type.Literal('apple'), Type.Literal('google')])),
    outcome: Type.Optional(Type.Union(['applied', 'duplicate', 'ignored', 'refused'].map((o) => Type.Literal(o)))),
    since: Type.Optional(QueryTime('Messages received at or after.')),
    ...pageQuery('messages'),
  },
  { additionalProperties: false },
);

export const StoreMessageList = Type.Object({ messages: Type.Array(Type.Ref(StoreMessage)), nextBefore: NextBefore });
