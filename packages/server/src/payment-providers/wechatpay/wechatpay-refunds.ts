import { Type } from '@sinclair/typebox';
import type { ProviderPaymentRow } from '../payment-providers.repository.js';
import { refundRefused, type RefundCall, type RefundFinding } from '../provider.js';
import { read } from '../stripe/stripe-events.js';
import { WechatpayRefusal, type WechatpayApi, type WechatpayMerchant } from './wechatpay-api.js';

/** WeChat Pay's refund `reason` takes up to 80 characters (it is shown to the payer). */
const REASON_MAX = 80;

/** The fields of a refund (API v3 申请退款 / 查询单笔退款) that we read, checked before they are trusted. */
const WechatRefund = Type.Object({
  refund_id: Type.String({ pattern: '^[0-9A-Za-z_]{1,64}$' }),
  out_refund_no: Type.String({ pattern: '^[0-9A-Za-z_\\-|*@]{1,64}$' }),
  status: Type.String({ pattern: '^[A-Z_]{1,32}$' }),
  amount: Type.Object({
    refund: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    currency: Type.Literal('CNY'),
  }),
});

/**
 * POST /v3/refund/domestic/refunds (申请退款) of the transaction by out_trade_no, under out_refund_no (the refund's key:
 * the same out_refund_no is the same refund), amount in fen with the transaction's total. A 4xx is WeChat Pay's
 * refusal (NOT_ENOUGH, INVALID_REQUEST, USER_ACCOUNT_ABNORMAL...); a 5xx or no answer is 'unreachable'.
 */
export async function wechatRefund(
  api: WechatpayApi,
  m: WechatpayMerchant,
  payment: ProviderPaymentRow,
  r: RefundCall,
): Promise<RefundFinding> {
  if (r.currency !== 'CNY') return refundRefused('CURRENCY', 'WeChat Pay refunds CNY only');
  try {
    const answer = await api.refund(m, {
      out_trade_no: payment.ref,
      out_refund_no: r.key,
      reason: [...r.reason].slice(0, REASON_MAX).join(''),
      amount: { refund: r.amountMinor, total: Number(payment.amount_minor), currency: 'CNY' },
    });
    return refundFinding(answer, r);
  } catch (e) {
    if (e instanceof WechatpayRefusal && e.code === 'refused') return refundRefused(e.wxCode, e.message);
    throw e;
  }
}

/** GET /v3/refund/domestic/refunds/{out_refund_no} (查询单笔退款); RESOURCE_NOT_EXISTS is `unknown`. */
export async function wechatRefundQuery(
  api: WechatpayApi,
  m: WechatpayMerchant,
  r: RefundCall,
): Promise<RefundFinding> {
  try {
    return refundFinding(await api.refundQuery(m, r.key), r);
  } catch (e) {
    if (e instanceof WechatpayRefusal && e.wxCode === 'RESOURCE_NOT_EXISTS') return { state: 'unknown' };
    throw e;
  }
}

/** SUCCESS is done; CLOSED and ABNORMAL failed for good; PROCESSING is still pending. */
function refundFinding(answer: unknown, r: RefundCall): RefundFinding {
  const refund = read(WechatRefund, answer, 'refund');
  if (refund.out_refund_no !== r.key) return { state: 'pending', providerRefundId: refund.refund_id };
  if (refund.status === 'SUCCESS')
    return {
      state: 'succeeded',
      providerRefundId: refund.refund_id,
      amountMinor: refund.amount.refund,
      currency: 'CNY',
    };
  if (refund.status === 'CLOSED' || refund.status === 'ABNORMAL')
    return refundRefused(refund.status, `WeChat Pay: the refund is ${refund.status}`, refund.refund_id);
  return { state: 'pending', providerRefundId: refund.refund_id };
}
