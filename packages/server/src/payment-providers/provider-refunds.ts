import type { ProviderRefund, WebRefundResult } from '../orders/refunds/web-refunds.js';
import type { FindingResult } from './finding-result.js';
import type { ProviderFinding } from './provider.js';
import type { ProviderPaymentRow } from './payment-providers.repository.js';

/** Applies a provider refund or lost dispute to its order (OrdersDomain.webRefunds.apply). */
export type ApplyRefund = (refund: ProviderRefund) => Promise<WebRefundResult>;

type RefundFinding = Extract<ProviderFinding, { kind: 'refund' | 'dispute' }>;

/**
 * What a verified refund or dispute finding does to the payment it names (docs/web-payment.md, "Refunds and
 * disputes"): each completed refund, and a lost dispute, applied once by the provider's id of it; an open, won or
 * closed dispute and a refund not completed recorded for operators. A refund the order cannot take (more than what
 * remains, another currency, an order not paid) is refused (4xx: the provider retries, operators see it).
 */
export async function applyRefundFinding(
  apply: ApplyRefund,
  provider: string,
  payment: ProviderPaymentRow,
  f: RefundFinding,
  now: number,
): Promise<FindingResult> {
  const trxNo = Number(payment.trx_no);
  const base = { appId: Number(payment.app_id), trxNo, provider, reason: f.reason };
  const refunds: ProviderRefund[] = [];
  if (f.kind === 'dispute') {
    if (f.status !== 'lost') return { outcome: 'recorded', reason: `dispute_${f.status}`, trxNo, verified: true };
    if (f.amountMinor === null || f.currency === null)
      return { outcome: 'refused', reason: 'no_amount', trxNo, verified: true };
    refunds.push({
      ...base,
      providerRefundId: f.id,
      amountMinor: f.amountMinor,
      currency: f.currency,
      kind: 'dispute_lost',
      refundedAt: f.at ?? now,
    });
  } else {
    if (f.completed.length === 0) return { outcome: 'recorded', reason: 'refund_not_completed', trxNo, verified: true };
    if (f.currency === null) return { outcome: 'refused', reason: 'no_amount', trxNo, verified: true };
    for (const r of f.completed)
      refunds.push({
        ...base,
        providerRefundId: r.id,
        amountMinor: r.amountMinor,
        amountIs: r.amountIs ?? 'this_refund',
        currency: f.currency,
        kind: 'refund',
        refundedAt: r.at ?? now,
      });
  }
  const results: WebRefundResult[] = [];
  // One at a time: refunds of one payment take its row lock in turn anyway.
  for (const r of refunds) results.push(await apply(r));
  const refused = results.find((r) => REFUSED[r.outcome]);
  if (refused) return { outcome: 'refused', reason: REFUSED[refused.outcome]!, trxNo, verified: true };
  if (results.some((r) => r.outcome === 'applied'))
    return { outcome: 'applied', reason: f.kind === 'dispute' ? 'dispute_lost' : 'refunded', trxNo, verified: true };
  return { outcome: 'duplicate', reason: 'refund_applied_before', trxNo, verified: true };
}

/** The web refund outcomes that refuse the message, and the reason recorded. */
const REFUSED: Partial<Record<WebRefundResult['outcome'], string>> = {
  exceeds_remaining: 'refund_exceeds_remaining',
  not_paid: 'order_not_paid',
  unknown_order: 'unknown_order',
  currency_mismatch: 'currency_mismatch',
  invalid_amount: 'invalid_amount',
};
