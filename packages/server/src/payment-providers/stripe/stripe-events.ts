import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { isCurrency } from '../../orders/money.js';
import { ProviderError, type CompletedRefund, type ProviderFinding, type VerifiedNotification } from '../provider.js';
import { fromStripeAmount } from './amounts.js';

/**
 * The fields of Stripe's events that we read, checked after the signature verified (a signed event is still
 * untrusted input: a wrong type, a number past 2^53 or NUL in an id is refused as malformed, never a 500). From the
 * API reference: Event, Checkout Session, PaymentIntent, Charge, Dispute.
 */
const StripeId = (prefix: string) => Type.String({ pattern: `^${prefix}_[A-Za-z0-9_]{1,250}$` });
const Amount = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Currency = Type.String({ pattern: '^[a-z]{3}$' });
const TrxNo = Type.String({ pattern: '^[1-9][0-9]{0,14}$' });
const Word = Type.String({ pattern: '^[a-z_]{1,64}$' });
const Metadata = Type.Object({ trxNo: Type.Optional(TrxNo) });

export const StripeEvent = Type.Object({
  id: StripeId('evt'),
  type: Type.String({ pattern: '^[a-z_.]{1,100}$' }),
  data: Type.Object({ object: Type.Object({}) }),
});

export const StripeSession = Type.Object({
  id: StripeId('cs'),
  status: Type.Union([Word, Type.Null()]),
  payment_status: Word,
  amount_total: Type.Union([Amount, Type.Null()]),
  currency: Type.Union([Currency, Type.Null()]),
  client_reference_id: Type.Union([TrxNo, Type.Null()]),
  payment_intent: Type.Union([StripeId('pi'), Type.Null()]),
});
export type StripeSession = Static<typeof StripeSession>;

const PaymentIntent = Type.Object({
  id: StripeId('pi'),
  amount_received: Amount,
  currency: Currency,
  metadata: Metadata,
});
/** Unix seconds (Stripe's `created`), up to the year 5138. */
const Seconds = Type.Integer({ minimum: 0, maximum: 99_999_999_999 });
/** A Refund (refund.created, refund.updated, and the list of a charge that includes it). */
const Refund = Type.Object({
  id: Type.String({ pattern: '^(re|pyr)_[A-Za-z0-9_]{1,250}$' }),
  amount: Amount,
  currency: Currency,
  status: Type.Union([Word, Type.Null()]),
  created: Seconds,
  payment_intent: Type.Optional(Type.Union([StripeId('pi'), Type.Null()])),
  reason: Type.Optional(Type.Union([Word, Type.Null()])),
});
type Refund = Static<typeof Refund>;
const Charge = Type.Object({
  id: StripeId('ch'),
  payment_intent: StripeId('pi'),
  amount_refunded: Amount,
  currency: Currency,
  /** Listed when the webhook's API version includes it (it is expandable since 2022-11-15): the refunds, newest first. */
  refunds: Type.Optional(Type.Object({ data: Type.Array(Refund, { maxItems: 100 }) })),
});
const Dispute = Type.Object({
  id: Type.String({ pattern: '^(dp|du)_[A-Za-z0-9_]{1,250}$' }),
  payment_intent: StripeId('pi'),
  amount: Amount,
  currency: Currency,
  reason: Type.Union([Word, Type.Null()]),
  status: Word,
});

/** `value` as `schema` says, or ProviderError('malformed') naming the first field that is not. */
export function read<T extends TSchema>(schema: T, value: unknown, what: string): Static<T> {
  const error = Value.Errors(schema, value).First();
  if (error) throw new ProviderError('malformed', `${what}${error.path.replace(/\//g, '.')}: ${error.message}`);
  return value as Static<T>;
}

/** Our money of a Stripe amount and currency; malformed when the currency is unknown or the amount not whole. */
function money(amount: number, currency: string, what: string): { amountMinor: number; currency: string } {
  const code = currency.toUpperCase();
  const minor = isCurrency(code) ? fromStripeAmount(amount, code) : null;
  if (minor === null) throw new ProviderError('malformed', `${what}: ${amount} ${currency} is not an amount we know`);
  return { amountMinor: minor, currency: code };
}

const trxNoOf = (s: string | null | undefined) => (s ? Number(s) : null);

/** What a Checkout Session says: paid, still open, or closed (its status and payment status). */
export function sessionFinding(s: StripeSession): ProviderFinding {
  if (s.status === 'expired') return { kind: 'closed', ref: s.id, trxNo: trxNoOf(s.client_reference_id) };
  if (s.status !== 'complete' || s.payment_status !== 'paid') return { kind: 'open' };
  if (s.payment_intent === null || s.amount_total === null || s.currency === null)
    throw new ProviderError('malformed', 'a paid Checkout Session without payment_intent, amount_total or currency');
  return {
    kind: 'paid',
    ref: s.id,
    trxNo: trxNoOf(s.client_reference_id),
    providerTrxId: s.payment_intent,
    ...money(s.amount_total, s.currency, 'data.object.amount_total'),
  };
}

/** A verified event as what it reports (docs/web-payment.md, "Stripe"): the events we subscribe to, others ignored. */
export function notificationOf(raw: unknown): VerifiedNotification {
  const event = read(StripeEvent, raw, 'event');
  const object: unknown = event.data.object;
  const base = { eventId: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const s = read(StripeSession, object, 'data.object');
      const finding = sessionFinding(s);
      return {
        ...base,
        finding: finding.kind === 'open' ? { kind: 'ignored', reason: `payment_status_${s.payment_status}` } : finding,
        excerpt: sessionExcerpt(event, s),
      };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = read(StripeSession, object, 'data.object');
      const trxNo = trxNoOf(s.client_reference_id);
      return {
        ...base,
        finding:
          event.type === 'checkout.session.expired'
            ? { kind: 'closed', ref: s.id, trxNo }
            : { kind: 'failed', ref: s.id, trxNo, reason: 'the asynchronous payment failed' },
        excerpt: sessionExcerpt(event, s),
      };
    }
    case 'payment_intent.succeeded': {
      const pi = read(PaymentIntent, object, 'data.object');
      const trxNo = trxNoOf(pi.metadata.trxNo);
      const excerpt = {
        id: event.id,
        type: event.type,
        paymentIntent: pi.id,
        amount: pi.amount_received,
        currency: pi.currency,
      };
      if (trxNo === null) return { ...base, finding: { kind: 'ignored', reason: 'no_order_reference' }, excerpt };
      return {
        ...base,
        finding: {
          kind: 'paid',
          ref: null,
          trxNo,
          providerTrxId: pi.id,
          ...money(pi.amount_received, pi.currency, 'data.object.amount_received'),
        },
        excerpt: { ...excerpt, trxNo },
      };
    }
    case 'charge.refunded': {
      const c = read(Charge, object, 'data.object');
      const listed = c.refunds?.data ?? [];
      return {
        ...base,
        finding: {
          kind: 'refund',
          providerTrxId: c.payment_intent,
          id: c.id,
          ...money(c.amount_refunded, c.currency, 'data.object.amount_refunded'),
          reason: null,
          completed: listed.flatMap((r, i) => completed(r, `data.object.refunds.data.${i}`, c.currency)),
        },
        excerpt: {
          id: event.id,
          type: event.type,
          charge: c.id,
          paymentIntent: c.payment_intent,
          amountRefunded: c.amount_refunded,
          currency: c.currency,
          refunds: listed.map((r) => r.id).join(' ') || null,
        },
      };
    }
    // A refund as it is made and as it completes (a card refund usually succeeds at once).
    case 'refund.created':
    case 'refund.updated':
    case 'charge.refund.updated': {
      const r = read(Refund, object, 'data.object');
      const excerpt = {
        id: event.id,
        type: event.type,
        refund: r.id,
        paymentIntent: r.payment_intent ?? null,
        amount: r.amount,
        currency: r.currency,
        status: r.status,
      };
      if (!r.payment_intent) return { ...base, finding: { kind: 'ignored', reason: 'no_payment_intent' }, excerpt };
      return {
        ...base,
        finding: {
          kind: 'refund',
          providerTrxId: r.payment_intent,
          id: r.id,
          ...money(r.amount, r.currency, 'data.object.amount'),
          reason: r.reason ?? null,
          completed: completed(r, 'data.object'),
        },
        excerpt,
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const d = read(Dispute, object, 'data.object');
      return {
        ...base,
        finding: {
          kind: 'dispute',
          providerTrxId: d.payment_intent,
          id: d.id,
          ...money(d.amount, d.currency, 'data.object.amount'),
          reason: d.reason,
          // A dispute is open until closed; closed lost: the amount went back to the cardholder.
          status:
            event.type === 'charge.dispute.created'
              ? 'open'
              : d.status === 'lost'
                ? 'lost'
                : d.status === 'won'
                  ? 'won'
                  : 'closed',
          at: null,
        },
        excerpt: {
          id: event.id,
          type: event.type,
          dispute: d.id,
          paymentIntent: d.payment_intent,
          amount: d.amount,
          currency: d.currency,
          reason: d.reason,
          status: d.status,
        },
      };
    }
    default:
      return {
        ...base,
        finding: { kind: 'ignored', reason: 'not_handled' },
        excerpt: { id: event.id, type: event.type },
      };
  }
}

/** A refund that succeeded, as one to apply (its amount in our minor units); none while pending or failed. */
function completed(r: Refund, what: string, currency = r.currency): CompletedRefund[] {
  if (r.currency !== currency) throw new ProviderError('malformed', `${what}.currency: not the charge's ${currency}`);
  if (r.status !== 'succeeded') return [];
  return [{ id: r.id, amountMinor: money(r.amount, r.currency, `${what}.amount`).amountMinor, at: r.created * 1000 }];
}

function sessionExcerpt(event: { id: string; type: string }, s: StripeSession) {
  return {
    id: event.id,
    type: event.type,
    session: s.id,
    status: s.status,
    paymentStatus: s.payment_status,
    paymentIntent: s.payment_intent,
    amountTotal: s.amount_total,
    currency: s.currency,
    trxNo: s.client_reference_id,
  };
}
