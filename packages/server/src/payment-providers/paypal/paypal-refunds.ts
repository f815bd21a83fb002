import type { Refund } from '@paypal/paypal-server-sdk';
import type { ProviderPaymentRow } from '../payment-providers.repository.js';
import { refundRefused, type RefundCall, type RefundFinding } from '../provider.js';
import { fromPaypalMoney, toPaypalValue } from './amounts.js';
import { PaypalRefusal, type PaypalApi, type PaypalCredentials } from './paypal-api.js';

const PAYPAL_ID = /^[A-Z0-9]{1,64}$/;

/**
 * Refunds a captured PayPal payment (Payments v2: POST /v2/payments/captures/{capture_id}/refund) under the refund's
 * PayPal-Request-Id; PayPal's 422 (REFUND_AMOUNT_EXCEEDED, CAPTURE_FULLY_REFUNDED, REFUND_TIME_LIMIT_EXCEEDED...) is
 * its refusal. The operator's reason goes to the payer as note_to_payer (PayPal takes up to 255 characters).
 */
export async function refundCapture(
  api: PaypalApi,
  creds: PaypalCredentials,
  payment: ProviderPaymentRow,
  r: RefundCall,
): Promise<RefundFinding> {
  const value = toPaypalValue(r.amountMinor, r.currency);
  if (value === null || !payment.provider_trx_id)
    return refundRefused('AMOUNT_INVALID', 'PayPal cannot take this amount');
  try {
    const refund = await api.refundCapture(
      creds,
      payment.provider_trx_id,
      { amount: { currencyCode: r.currency, value }, noteToPayer: [...r.reason].slice(0, 255).join('') },
      r.key,
    );
    return refundFinding(refund);
  } catch (e) {
    if (e instanceof PaypalRefusal && e.failure.status >= 400 && e.failure.status < 500)
      return refundRefused(e.failure.issues[0] ?? (e.failure.name || `HTTP_${e.failure.status}`), e.message);
    throw e;
  }
}

/** GET /v2/payments/refunds/{id}; without an id PayPal never answered: `unknown` (sent again under its request id). */
export async function queryRefund(
  api: PaypalApi,
  creds: PaypalCredentials,
  providerRefundId: string | null,
): Promise<RefundFinding> {
  if (providerRefundId === null) return { state: 'unknown' };
  return refundFinding(await api.getRefund(creds, providerRefundId));
}

/** What a PayPal Refund says: COMPLETED, FAILED or CANCELLED, else pending. */
function refundFinding(refund: Refund): RefundFinding {
  const id = typeof refund.id === 'string' && PAYPAL_ID.test(refund.id) ? refund.id : null;
  if (id === null) return { state: 'pending', providerRefundId: null };
  if (refund.status === 'FAILED' || refund.status === 'CANCELLED')
    return refundRefused(refund.status, `PayPal: the refund ${refund.status}`, id);
  if (refund.status !== 'COMPLETED') return { state: 'pending', providerRefundId: id };
  const money = refund.amount ? fromPaypalMoney(refund.amount.value, refund.amount.currencyCode) : null;
  if (money === null) return { state: 'pending', providerRefundId: id };
  return { state: 'succeeded', providerRefundId: id, ...money };
}
