import { Type, type Static } from '@sinclair/typebox';
import { isCurrency, minorToText, toMinor } from '../../orders/money.js';
import { ProviderError, type ProviderFinding, type VerifiedNotification } from '../provider.js';
import { read } from '../stripe/stripe-events.js';
import { beijingTime } from '../provider-times.js';

/**
 * The fields of Alipay's asynchronous notify (异步通知, `notify_type=trade_status_sync`) and of its trade query
 * answer that we read, from Alipay's API reference (alipay.trade.page.pay / wap.pay: 异步通知参数;
 * alipay.trade.query: 响应参数). Read after the signature verified: a signed notify is still untrusted input, so an
 * amount that is not a yuan decimal, an out_trade_no that is not ours, NUL... is refused as malformed, never a 500.
 */
const Yuan = Type.String({ pattern: '^[0-9]{1,11}(\\.[0-9]{1,2})?$' });
/** Alipay's trade_no: digits (28 today); kept to what Alipay documents (64 characters at most). */
const TradeNo = Type.String({ pattern: '^[0-9A-Za-z]{1,64}$' });
const OutTradeNo = Type.String({ pattern: '^[0-9A-Za-z_-]{1,64}$' });
const TradeStatus = Type.Union(
  ['WAIT_BUYER_PAY', 'TRADE_CLOSED', 'TRADE_SUCCESS', 'TRADE_FINISHED'].map((s) => Type.Literal(s)),
);

export const AlipayNotify = Type.Object({
  notify_id: Type.String({ pattern: '^[0-9A-Za-z_-]{1,128}$' }),
  notify_type: Type.String({ pattern: '^[a-z_]{1,64}$' }),
  app_id: Type.String({ pattern: '^[0-9]{1,32}$' }),
  trade_no: TradeNo,
  out_trade_no: OutTradeNo,
  trade_status: Type.Optional(TradeStatus),
  total_amount: Type.Optional(Yuan),
  /** Cross-border trades name the currency the order was priced in; domestic ones are CNY and carry none. */
  trans_currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  /** A refund's notify: the refunded total so far, its request number, its time. */
  refund_fee: Type.Optional(Yuan),
  out_biz_no: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z_-]{1,64}$' })),
  gmt_refund: Type.Optional(Type.String({ maxLength: 40 })),
});
type AlipayNotify = Static<typeof AlipayNotify>;

/** Alipay's amounts are yuan (元) with at most two decimals: our minor units of CNY (fen) by the ISO 4217 exponent. */
export function toYuan(minor: number): string {
  return minorToText(minor, 'CNY');
}

function money(value: string, currency: string, what: string): { amountMinor: number; currency: string } {
  if (!isCurrency(currency)) throw new ProviderError('malformed', `${what}: ${currency} is not a currency we know`);
  try {
    return { amountMinor: toMinor(what, value, currency), currency };
  } catch {
    throw new ProviderError('malformed', `${what}: ${value} is not an amount of ${currency}`);
  }
}

/** Our trxNo in out_trade_no (its decimal digits); null when it is not one (a trade of something else). */
const trxNoOf = (outTradeNo: string) => (/^[1-9][0-9]{0,14}$/.test(outTradeNo) ? Number(outTradeNo) : null);

/** What a trade's status says (a notify or the query answer): paid, closed, or still waiting. */
function tradeFinding(t: {
  trade_no: string;
  out_trade_no: string;
  trade_status?: string;
  total_amount?: string;
  trans_currency?: string;
}): ProviderFinding {
  const ref = t.out_trade_no;
  const trxNo = trxNoOf(ref);
  if (t.trade_status === 'TRADE_SUCCESS' || t.trade_status === 'TRADE_FINISHED') {
    if (t.total_amount === undefined) throw new ProviderError('malformed', 'a paid trade without total_amount');
    const found = money(t.total_amount, t.trans_currency ?? 'CNY', 'total_amount');
    return { kind: 'paid', ref, trxNo, providerTrxId: t.trade_no, ...found };
  }
  if (t.trade_status === 'TRADE_CLOSED') return { kind: 'closed', ref, trxNo };
  return { kind: 'open' };
}

/**
 * A verified notify as what it reports (docs/web-payment.md, "Alipay"): TRADE_SUCCESS and TRADE_FINISHED pay (the
 * second, sent when the refund window ends, finds the order paid already), TRADE_CLOSED closes an unpaid trade, a
 * notify with refund_fee reports a refund (applied once: provider-refunds.ts), WAIT_BUYER_PAY is ignored.
 */
export function notificationOf(raw: unknown): VerifiedNotification {
  const n: AlipayNotify = read(AlipayNotify, raw, 'notify');
  const excerpt = {
    notify_id: n.notify_id,
    notify_type: n.notify_type,
    trade_no: n.trade_no,
    out_trade_no: n.out_trade_no,
    trade_status: n.trade_status ?? null,
    total_amount: n.total_amount ?? null,
    refund_fee: n.refund_fee ?? null,
  };
  const base = { eventId: n.notify_id, type: `${n.notify_type}:${n.trade_status ?? 'none'}`, excerpt };
  if (n.refund_fee !== undefined) {
    // Alipay notifies a refund on the paid trade: TRADE_SUCCESS with refund_fee (partial), TRADE_CLOSED (full).
    // refund_fee is the trade's refunded total so far; out_biz_no the refund request's number, unique per trade.
    const refunded = money(n.refund_fee, n.trans_currency ?? 'CNY', 'refund_fee');
    const id = `${n.trade_no}:${n.out_biz_no ?? `total-${refunded.amountMinor}`}`;
    const at = n.gmt_refund === undefined ? null : beijingTime(n.gmt_refund, 'gmt_refund');
    return {
      ...base,
      finding: {
        kind: 'refund',
        providerTrxId: n.trade_no,
        id,
        ...refunded,
        reason: null,
        completed:
          refunded.amountMinor > 0 ? [{ id, amountMinor: refunded.amountMinor, amountIs: 'total_refunded', at }] : [],
      },
    };
  }
  if (n.notify_type !== 'trade_status_sync') return { ...base, finding: { kind: 'ignored', reason: 'not_handled' } };
  const finding = tradeFinding(n);
  if (finding.kind === 'open') return { ...base, finding: { kind: 'ignored', reason: 'wait_buyer_pay' } };
  return { ...base, finding };
}

/** alipay.trade.query's answer (code 10000), the fields we read checked. */
const QueryAnswer = Type.Object({
  trade_no: TradeNo,
  out_trade_no: OutTradeNo,
  trade_status: TradeStatus,
  total_amount: Yuan,
  trans_currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
});

/** What Alipay's trade query says of a trade. */
export function queryFinding(answer: unknown): ProviderFinding {
  return tradeFinding(read(QueryAnswer, answer, 'alipay_trade_query_response'));
}
