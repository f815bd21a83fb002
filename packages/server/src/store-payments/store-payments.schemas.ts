import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { SafeInteger, Text } from '../http/schemas.js';
import { IdParam } from '../http/route-params.js';
import { Amount } from '../orders/catalogue/products.schemas.js';
import { PageOf, QueryTime, pageQuery, parseTime } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import { invalidParameter } from '../errors/app-error.js';
import type { MessageFilter, StoreMessageRow } from './store-payments.repository.js';
import type { StoreConsumptionRequestsTable } from './store-payments.tables.js';
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
      Amount('Client-reported (2.4): the price Play Billing showed (Google gives the server no price).'),
    ),
    clientCurrency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  },
  { additionalProperties: false },
);

export const TrxNoParams = Type.Object({ trxNo: IdParam() });

export const AppleNotificationBody = Type.Object(
  { signedPayload: Text({ minLength: 1, maxLength: 262_144 }) },
  { additionalProperties: false },
);

const PushText = (maxLength: number) => Type.Optional(Text({ maxLength }));

/**
 * Pub/Sub's push body (wrapped, not "payload unwrapping"), every documented field; `message.data` is decoded and
 * checked by the verifier. Unknown fields are refused like everywhere (docs/stores.md).
 */
export const GooglePushBody = Type.Object(
  {
    message: Type.Object(
      {
        data: PushText(65_536),
        messageId: PushText(128),
        message_id: PushText(128),
        publishTime: PushText(64),
        publish_time: PushText(64),
        orderingKey: PushText(1024),
        attributes: Type.Optional(
          Type.Record(Text({ maxLength: 256 }), Text({ maxLength: 1024 }), {
            maxProperties: 100,
            additionalProperties: false,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    subscription: PushText(512),
    deliveryAttempt: Type.Optional(SafeInteger({ minimum: 0 })),
  },
  { additionalProperties: false },
);

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
    source: Type.Union([Type.Literal('push'), Type.Literal('reconcile'), Type.Literal('client')]),
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

export const StoreMessageList = PageOf('messages', Type.Ref(StoreMessage));

const OUTCOMES = ['applied', 'duplicate', 'ignored', 'refused'];

/** The list's query (admin route and `store-messages list`) as a filter; every field checked. */
export function parseStoreMessagesQuery(appId: number, q: Static<typeof StoreMessagesQuery>): MessageFilter {
  if (q.store !== undefined && q.store !== 'apple' && q.store !== 'google')
    throw invalidParameter('store', 'must be apple or google');
  if (q.outcome !== undefined && !OUTCOMES.includes(q.outcome))
    throw invalidParameter('outcome', `must be ${OUTCOMES.join(', ')}`);
  return {
    appId,
    ...(q.store ? { store: q.store } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
    ...(q.since !== undefined ? { since: parseTime('since', q.since) } : {}),
    ...parsePage(q),
  };
}

export function toMessage(r: StoreMessageRow): StoreMessage {
  return {
    messageId: Number(r.message_id),
    store: r.store,
    source: r.source,
    notificationId: r.notification_id,
    type: r.type,
    outcome: r.outcome,
    errorCode: r.error_code,
    trxNo: r.trx_no === null ? null : Number(r.trx_no),
    receivedAt: new Date(Number(r.received_at)).toISOString(),
    excerpt: r.excerpt,
  };
}

/** POST /order/v1/game/orders/{trxNo}/consumption (5.1 md5): every field signed; trxNo repeated so it is signed. */
export const ConsumptionReportBody = Type.Object(
  {
    appId: SafeInteger({ minimum: 1, description: 'Application id.' }),
    trxNo: SafeInteger({ minimum: 1, description: "The order's trxNo (the path's, repeated so that it is signed)." }),
    consumptionPercentage: SafeInteger({
      minimum: 0,
      maximum: 100_000,
      description: "How much of the purchase the player consumed, in milliunits (Apple's: 100000 is all of it).",
    }),
    nonce: Text({ minLength: 1, maxLength: 128, description: 'One-time random string (5.1).' }),
    timestamp: SafeInteger({ minimum: 0, description: 'Unix seconds (a number, 5.1).' }),
    sign: Text({ description: 'md5 signature of 5.1.' }),
  },
  { additionalProperties: false },
);

export const ConsumptionRequestView = Type.Object({
  requestId: Type.Integer(),
  transactionId: Type.String(),
  trxNo: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], { description: "Apple's consumptionRequestReason." }),
  state: Type.String({
    description:
      'queued (sent through the outbox: see eventState) | skipped_no_consent | unknown_transaction | expired',
  }),
  eventId: Type.Union([Type.Integer(), Type.Null()]),
  eventState: Type.Union([Type.String(), Type.Null()], { description: 'pending | delivered | dead' }),
  attempts: Type.Union([Type.Integer(), Type.Null()]),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  body: Type.Union([Type.Unknown(), Type.Null()], { description: 'The ConsumptionRequest sent to Apple.' }),
  requestedAt: Type.String({ format: 'date-time' }),
  deadlineAt: Type.String({ format: 'date-time' }),
});
export type ConsumptionRequestView = Static<typeof ConsumptionRequestView>;

const isoOf = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

/** A recorded consumption request with its outbox event, as the admin API and the CLI show it. */
export function toConsumptionRequest(
  r: Omit<Selectable<StoreConsumptionRequestsTable>, 'app_id'> & {
    event?: { state: string; attempts: number; delivered_at: number | null; last_error: string | null } | undefined;
  },
): ConsumptionRequestView {
  return {
    requestId: Number(r.request_id),
    transactionId: r.transaction_id,
    trxNo: r.trx_no === null ? null : Number(r.trx_no),
    reason: r.reason,
    state: r.state,
    eventId: r.event_id === null ? null : Number(r.event_id),
    eventState: r.event?.state ?? null,
    attempts: r.event ? Number(r.event.attempts) : null,
    sentAt: isoOf(r.event?.delivered_at),
    lastError: r.event?.last_error ?? null,
    body: r.body === null ? null : (JSON.parse(r.body) as unknown),
    requestedAt: isoOf(r.requested_at)!,
    deadlineAt: isoOf(r.deadline_at)!,
  };
}
