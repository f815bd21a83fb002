import { Type, type Static } from '@sinclair/typebox';
import { minorToNumber } from '../money.js';
import type { WebRefundRow } from './web-refunds.store.js';

/** A refund or lost dispute of a web payment as the operator sees it (the order's admin view, the CLI). */
export const WebRefundView = Type.Object(
  {
    refundTrxNo: Type.Integer({ description: 'The refund order (trxType 2) the game was told of (2.5).' }),
    provider: Type.String(),
    providerRefundId: Type.String({ description: "The provider's id of the refund, or of the dispute lost." }),
    kind: Type.String({ description: 'refund | dispute_lost' }),
    amount: Type.Number({ description: 'The amount given back, in the payment currency.' }),
    currency: Type.String(),
    reason: Type.Union([Type.String(), Type.Null()]),
    operator: Type.Union([Type.String(), Type.Null()], {
      description: 'Who asked for it; null: made at the provider.',
    }),
    refundedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'WebRefund' },
);
export type WebRefundView = Static<typeof WebRefundView>;

export function toWebRefundView(r: WebRefundRow): WebRefundView {
  return {
    refundTrxNo: Number(r.refund_trx_no),
    provider: r.provider,
    providerRefundId: r.provider_refund_id,
    kind: r.kind,
    amount: minorToNumber(Number(r.amount_minor), r.currency),
    currency: r.currency,
    reason: r.reason,
    operator: r.operator,
    refundedAt: new Date(Number(r.refunded_at)).toISOString(),
  };
}
