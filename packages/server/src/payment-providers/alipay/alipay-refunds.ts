import type { ProviderPaymentRow } from '../payment-providers.repository.js';
import { refundRefused, type RefundCall, type RefundFinding } from '../provider.js';
import { AlipayRefusal, type AlipayApi, type AlipayCredentials } from './alipay-api.js';
import { toYuan } from './alipay-notify.js';

/** Alipay's refund_reason takes up to 256 characters. */
const REASON_MAX = 256;

/**
 * alipay.trade.refund (统一收单交易退款接口) of the order's trade by out_trade_no, refund_amount in yuan, under
 * out_request_no (the refund's key: Alipay refunds once per out_request_no). Alipay has no refund id of its own: the
 * refund is named `trade_no:out_request_no`, as its refund notify names it (`trade_no:out_biz_no`, alipay-notify.ts),
 * so the notify and this answer apply it once between them. `fund_change: N` is the answer to a
 * request Alipay had already taken (or has not moved money for yet): the refund query decides.
 */
export async function alipayRefund(
  api: AlipayApi,
  creds: AlipayCredentials,
  payment: ProviderPaymentRow,
  r: RefundCall,
): Promise<RefundFinding> {
  if (r.currency !== 'CNY') return refundRefused('CURRENCY', 'Alipay refunds CNY only');
  try {
    const answer = await api.exec(creds, 'alipay.trade.refund', {
      out_trade_no: payment.ref,
      refund_amount: toYuan(r.amountMinor),
      refund_reason: [...r.reason].slice(0, REASON_MAX).join(''),
      out_request_no: r.key,
    });
    if (answer.fund_change === 'Y')
      return {
        state: 'succeeded',
        providerRefundId: refundIdOf(payment, r),
        amountMinor: r.amountMinor,
        currency: 'CNY',
      };
    return alipayRefundQuery(api, creds, payment, r);
  } catch (e) {
    if (e instanceof AlipayRefusal) return refundRefused(e.subCode || e.alipayCode, e.message);
    throw e;
  }
}

/**
 * alipay.trade.fastpay.refund.query (统一收单交易退款查询) by out_trade_no and out_request_no: REFUND_SUCCESS (or, as
 * older answers do, the refund_amount alone) is the refund done; an answer without the refund is `unknown`.
 */
export async function alipayRefundQuery(
  api: AlipayApi,
  creds: AlipayCredentials,
  payment: ProviderPaymentRow,
  r: RefundCall,
): Promise<RefundFinding> {
  let answer: Record<string, unknown>;
  try {
    answer = await api.exec(creds, 'alipay.trade.fastpay.refund.query', {
      out_trade_no: payment.ref,
      out_request_no: r.key,
      query_options: ['gmt_refund_pay'],
    });
  } catch (e) {
    if (e instanceof AlipayRefusal && e.subCode === 'ACQ.TRADE_NOT_EXIST') return { state: 'unknown' };
    throw e;
  }
  if (answer.out_request_no !== r.key || typeof answer.refund_amount !== 'string') return { state: 'unknown' };
  if (answer.refund_status !== undefined && answer.refund_status !== 'REFUND_SUCCESS')
    return { state: 'pending', providerRefundId: refundIdOf(payment, r) };
  if (answer.refund_amount !== toYuan(r.amountMinor))
    return { state: 'pending', providerRefundId: refundIdOf(payment, r) };
  return { state: 'succeeded', providerRefundId: refundIdOf(payment, r), amountMinor: r.amountMinor, currency: 'CNY' };
}

/** The refund's name: the trade's trade_no (the payment's provider transaction id) and the request's number. */
const refundIdOf = (payment: ProviderPaymentRow, r: RefundCall) => `${payment.provider_trx_id}:${r.key}`;
