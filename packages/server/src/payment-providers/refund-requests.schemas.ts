import { Type } from '@sinclair/typebox';
import { minorToNumber } from '../orders/money.js';
import { SafeNumber, Text } from '../http/schemas.js';
import type { RefundRequestRow } from './refund-requests.repository.js';

/** What an operator (or a studio developer in the portal) sends to refund a web order. */
export const RefundBody = Type.Object(
  {
    amount: Type.Optional(
      Type.Union(
        [
          Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]{1,3})?$', description: 'Decimal text, e.g. "2.50".' }),
          SafeNumber({ exclusiveMinimum: 0 }),
        ],
        {
          description:
            "How much to refund, in the order's currency (at most its decimals). Absent: all that remains unrefunded.",
        },
      ),
    ),
    reason: Text({
      minLength: 1,
      maxLength: 500,
      description: 'Why (required): kept with the refund and in the audit trail; providers that take one show it.',
    }),
    idempotencyKey: Type.Optional(
      Type.String({
        pattern: '^[!-~]{8,100}$',
        description:
          'The same key again is the same refund (retries, double clicks): 8-100 printable ASCII characters. Absent: the amount and reason are the key.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RefundRequestState = Type.Union(
  ['requested', 'pending', 'succeeded', 'refused'].map((s) => Type.Literal(s)),
  {
    description:
      'requested: not answered by the provider yet (sent again by the reconciliation); pending: taken, not finished; succeeded: refunded (the game got its 2.5); refused: the provider said no, the order stays paid.',
  },
);

export const RefundRequestView = Type.Object(
  {
    refundRequestId: Type.Integer(),
    appId: Type.Integer(),
    trxNo: Type.Integer(),
    provider: Type.String(),
    amount: Type.Number(),
    currency: Type.String(),
    reason: Type.String(),
    state: RefundRequestState,
    providerRefundId: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
    requestedBy: Type.String(),
    requestedAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'RefundRequest' },
);

export const RefundRequestList = Type.Object({
  webOrder: Type.Boolean({ description: 'Whether the order was paid through a provider (refundable here).' }),
  provider: Type.Union([Type.String(), Type.Null()]),
  refunds: Type.Array(RefundRequestView),
});

export function refundRequestView(r: RefundRequestRow) {
  return {
    refundRequestId: Number(r.refund_request_id),
    appId: Number(r.app_id),
    trxNo: Number(r.trx_no),
    provider: r.provider,
    amount: minorToNumber(Number(r.amount_minor), r.currency),
    currency: r.currency,
    reason: r.reason,
    state: r.state,
    providerRefundId: r.provider_refund_id,
    error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
    requestedBy: r.requested_by,
    requestedAt: new Date(Number(r.requested_at)).toISOString(),
    updatedAt: new Date(Number(r.updated_at)).toISOString(),
  };
}
