import { Type, type Static } from '@sinclair/typebox';
import { isCurrency } from '../../orders/money.js';
import { ProviderError, refundRefused, type RefundFinding } from '../provider.js';
import { fromStripeAmount } from './amounts.js';

/** The fields of Stripe's Refund object that we read (API reference: Refunds), checked before they are trusted. */
export const StripeRefund = Type.Object({
  id: Type.String({ pattern: '^re_[A-Za-z0-9_]{1,250}$' }),
  amount: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  currency: Type.String({ pattern: '^[a-z]{3}$' }),
  status: Type.String({ pattern: '^[a-z_]{1,64}$' }),
  failure_reason: Type.Optional(Type.Union([Type.String({ pattern: '^[a-z_]{1,64}$' }), Type.Null()])),
});
export type StripeRefund = Static<typeof StripeRefund>;

/** What a Refund's status says: succeeded, failed or canceled (refused), anything else still pending. */
export function refundFinding(r: StripeRefund): RefundFinding {
  if (r.status === 'failed' || r.status === 'canceled')
    return refundRefused(r.failure_reason ?? r.status, `Stripe: the refund ${r.status}`, r.id);
  if (r.status !== 'succeeded') return { state: 'pending', providerRefundId: r.id };
  const currency = r.currency.toUpperCase();
  const amountMinor = isCurrency(currency) ? fromStripeAmount(r.amount, currency) : null;
  if (amountMinor === null)
    throw new ProviderError('malformed', `refund: ${r.amount} ${r.currency} is not an amount we know`);
  return { state: 'succeeded', providerRefundId: r.id, amountMinor, currency };
}
