import { Type, type Static } from '@sinclair/typebox';
import { ProviderError, type ProviderFinding, type VerifiedNotification } from '../provider.js';
import { read } from '../stripe/stripe-events.js';
import { rfc3339 } from '../provider-times.js';

/**
 * The fields of WeChat Pay's notifications and transaction answers that we read, checked after the signature verified
 * (signed is still untrusted: a wrong type, an amount past 2^53, NUL in an id is malformed, never a 500). From WeChat
 * Pay's API v3 reference: 支付通知 (TRANSACTION.SUCCESS), 查询订单 (the transaction), 退款结果通知 (REFUND.*).
 */
const Id = (max: number) => Type.String({ pattern: `^[A-Za-z0-9_*|-]{1,${max}}$` });
const Fen = Type.Integer({ minimum: 0, maximum: 100_000_000_000 });

export const WechatpayNotification = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }),
  event_type: Type.String({ pattern: '^[A-Z_.]{1,64}$' }),
  resource_type: Type.Literal('encrypt-resource'),
  resource: Type.Object({
    algorithm: Type.Literal('AEAD_AES_256_GCM'),
    ciphertext: Type.String({ pattern: '^[A-Za-z0-9+/]{1,65536}={0,2}$' }),
    associated_data: Type.Optional(Type.String({ maxLength: 64 })),
    original_type: Type.Optional(Type.String({ maxLength: 64 })),
    nonce: Type.String({ minLength: 1, maxLength: 32 }),
  }),
});
export type WechatpayNotification = Static<typeof WechatpayNotification>;

/** A transaction (the decrypted resource of TRANSACTION.SUCCESS, and the query's answer). */
export const Transaction = Type.Object({
  appid: Id(32),
  mchid: Id(32),
  out_trade_no: Id(32),
  transaction_id: Type.Optional(Id(32)),
  trade_state: Type.String({ pattern: '^[A-Z_]{1,32}$' }),
  attach: Type.Optional(Type.String({ maxLength: 128 })),
  amount: Type.Optional(
    Type.Object({
      total: Type.Optional(Fen),
      payer_total: Type.Optional(Fen),
      currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
      payer_currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    }),
  ),
});
export type Transaction = Static<typeof Transaction>;

/** A refund's result (the decrypted resource of REFUND.SUCCESS, REFUND.ABNORMAL, REFUND.CLOSED). */
const Refund = Type.Object({
  mchid: Id(32),
  out_trade_no: Id(32),
  transaction_id: Id(32),
  out_refund_no: Id(64),
  refund_id: Id(32),
  refund_status: Type.String({ pattern: '^[A-Z_]{1,32}$' }),
  /** RFC 3339, when the refund succeeded (REFUND.SUCCESS). */
  success_time: Type.Optional(Type.String({ maxLength: 40 })),
  amount: Type.Object({ total: Fen, refund: Fen, payer_total: Type.Optional(Fen), payer_refund: Type.Optional(Fen) }),
});

/** Our out_trade_no of an order: GP and its trxNo in 12 digits or more (WeChat Pay wants 6 to 32 characters). */
export const outTradeNoOf = (trxNo: number) => `GP${String(trxNo).padStart(12, '0')}`;
/** The trxNo an out_trade_no of ours names; null when it is not one of ours. */
export function trxNoOfOutTradeNo(outTradeNo: string): number | null {
  const m = /^GP([0-9]{12,15})$/.exec(outTradeNo);
  const n = m ? Number(m[1]) : 0;
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

/**
 * What a transaction says of its payment: paid (SUCCESS, and REFUND: paid, refunded since), closed (CLOSED, REVOKED),
 * failed (PAYERROR), or still open (NOTPAY, USERPAYING). Amounts are fen of CNY, our minor units of CNY.
 */
export function transactionFinding(t: Transaction, what: string): ProviderFinding {
  const trxNo = trxNoOfOutTradeNo(t.out_trade_no);
  const ref = t.out_trade_no;
  switch (t.trade_state) {
    case 'SUCCESS':
    case 'REFUND': {
      if (!t.transaction_id || t.amount?.total === undefined || !t.amount.currency)
        throw new ProviderError('malformed', `${what}: a paid transaction without transaction_id or amount`);
      return {
        kind: 'paid',
        ref,
        trxNo,
        providerTrxId: t.transaction_id,
        amountMinor: t.amount.total,
        currency: t.amount.currency,
      };
    }
    case 'CLOSED':
    case 'REVOKED':
      return { kind: 'closed', ref, trxNo };
    case 'PAYERROR':
      return { kind: 'failed', ref, trxNo, reason: 'payerror' };
    default:
      return { kind: 'open' };
  }
}

/**
 * A verified, decrypted notification as what it reports (docs/web-payment.md, "WeChat Pay"). `plain` is the resource
 * decrypted; `expect` the merchant and app the settings name (a transaction of another merchant is refused).
 */
export function notificationOf(
  n: WechatpayNotification,
  plain: string,
  expect: { mchId: string; wechatAppId: string },
): VerifiedNotification {
  let resource: unknown;
  try {
    resource = JSON.parse(plain);
  } catch {
    throw new ProviderError('malformed', 'the decrypted resource is not JSON');
  }
  const base = { eventId: n.id, type: n.event_type };
  if (n.event_type === 'TRANSACTION.SUCCESS') {
    const t = read(Transaction, resource, 'resource');
    if (t.mchid !== expect.mchId || t.appid !== expect.wechatAppId)
      throw new ProviderError('refused', "resource: the transaction is not of this app's merchant id and appid");
    // Only a SUCCESS pays: a TRANSACTION.SUCCESS naming another state changes nothing (the query tells the rest).
    const finding: ProviderFinding =
      t.trade_state === 'SUCCESS'
        ? transactionFinding(t, 'resource')
        : { kind: 'ignored', reason: `trade_state_${t.trade_state.toLowerCase()}` };
    return {
      ...base,
      finding,
      excerpt: {
        id: n.id,
        type: n.event_type,
        out_trade_no: t.out_trade_no,
        transaction_id: t.transaction_id ?? null,
        trade_state: t.trade_state,
        total: t.amount?.total ?? null,
        currency: t.amount?.currency ?? null,
      },
    };
  }
  if (n.event_type.startsWith('REFUND.')) {
    const r = read(Refund, resource, 'resource');
    if (r.mchid !== expect.mchId)
      throw new ProviderError('refused', "resource: the refund is not of this app's merchant id");
    const excerpt = {
      id: n.id,
      type: n.event_type,
      out_trade_no: r.out_trade_no,
      transaction_id: r.transaction_id,
      refund_id: r.refund_id,
      refund_status: r.refund_status,
      refund: r.amount.refund,
    };
    // A refund that succeeded (in the merchant platform, or an operator's): applied once by WeChat Pay's refund_id.
    if (r.refund_status !== 'SUCCESS')
      return { ...base, finding: { kind: 'ignored', reason: `refund_${r.refund_status.toLowerCase()}` }, excerpt };
    const at = r.success_time === undefined ? null : rfc3339(r.success_time, 'resource.success_time');
    return {
      ...base,
      finding: {
        kind: 'refund',
        providerTrxId: r.transaction_id,
        id: r.refund_id,
        amountMinor: r.amount.refund,
        currency: 'CNY',
        reason: null,
        completed: [{ id: r.refund_id, amountMinor: r.amount.refund, at }],
      },
      excerpt,
    };
  }
  return { ...base, finding: { kind: 'ignored', reason: 'not_handled' }, excerpt: { id: n.id, type: n.event_type } };
}
