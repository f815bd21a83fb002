import { Type, type Static } from '@sinclair/typebox';
import { PageOf, QueryId, QueryTime, pageQuery, parseId, parseTime } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import { minorToNumber } from '../orders/money.js';
import type { ProviderMessageFilter, ProviderMessageRow } from './payment-providers.repository.js';

const OUTCOMES = ['applied', 'duplicate', 'recorded', 'ignored', 'refused'] as const;

export const ProviderMessage = Type.Object(
  {
    messageId: Type.Integer(),
    provider: Type.String(),
    source: Type.String({ description: 'notify: the webhook; query: the result view asked; reconcile: the job.' }),
    eventId: Type.Union([Type.String(), Type.Null()]),
    type: Type.Union([Type.String(), Type.Null()]),
    outcome: Type.String({ description: OUTCOMES.join(', ') }),
    reason: Type.Union([Type.String(), Type.Null()]),
    trxNo: Type.Union([Type.Integer(), Type.Null()]),
    providerTrxId: Type.Union([Type.String(), Type.Null()]),
    amount: Type.Union([Type.Number(), Type.Null()]),
    currency: Type.Union([Type.String(), Type.Null()]),
    receivedAt: Type.String({ format: 'date-time' }),
    excerpt: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ProviderMessage', title: 'Payment provider message (webhook or query find)' },
);
export type ProviderMessage = Static<typeof ProviderMessage>;

export const ProviderMessagesQuery = Type.Object(
  {
    provider: Type.Optional(Type.String({ pattern: '^[a-z]{2,20}$' })),
    outcome: Type.Optional(Type.Union(OUTCOMES.map((o) => Type.Literal(o)))),
    type: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$', description: 'e.g. charge.refunded' })),
    trxNo: Type.Optional(QueryId),
    since: Type.Optional(QueryTime('Messages received at or after.')),
    ...pageQuery('messages'),
  },
  { additionalProperties: false },
);

export const ProviderMessageList = PageOf('messages', Type.Ref(ProviderMessage));

/** The list's query (admin route and CLI) as a filter. */
export function parseProviderMessagesQuery(
  appId: number,
  q: Static<typeof ProviderMessagesQuery>,
): ProviderMessageFilter {
  return {
    appId,
    ...(q.provider ? { provider: q.provider } : {}),
    ...(q.outcome ? { outcome: q.outcome } : {}),
    ...(q.type ? { type: q.type } : {}),
    ...(q.trxNo !== undefined ? { trxNo: parseId('trxNo', q.trxNo) } : {}),
    ...(q.since !== undefined ? { since: parseTime('since', q.since) } : {}),
    ...parsePage(q),
  };
}

export function toProviderMessage(r: ProviderMessageRow): ProviderMessage {
  const amount = r.amount_minor === null || r.currency === null ? null : safeAmount(Number(r.amount_minor), r.currency);
  return {
    messageId: Number(r.message_id),
    provider: r.provider,
    source: r.source,
    eventId: r.event_id,
    type: r.type,
    outcome: r.outcome,
    reason: r.reason,
    trxNo: r.trx_no === null ? null : Number(r.trx_no),
    providerTrxId: r.provider_trx_id,
    amount,
    currency: r.currency,
    receivedAt: new Date(Number(r.received_at)).toISOString(),
    excerpt: r.excerpt,
  };
}

function safeAmount(minor: number, currency: string): number | null {
  try {
    return minorToNumber(minor, currency);
  } catch {
    return null;
  }
}
