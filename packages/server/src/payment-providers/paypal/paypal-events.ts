import { Type, type Static } from '@sinclair/typebox';
import type { Order } from '@paypal/paypal-server-sdk';
import { ProviderError, type ProviderFinding, type VerifiedNotification } from '../provider.js';
import { read } from '../stripe/stripe-events.js';
import { fromPaypalMoney } from './amounts.js';
import { rfc3339 } from '../provider-times.js';

/**
 * The fields of PayPal's webhook events and Orders v2 answers that we read, checked after the signature verified (a
 * signed event is still untrusted input: a wrong type, an amount that is not a decimal of its currency, NUL in an id
 * is refused as malformed, never a 500). From PayPal's API reference: Webhooks event names (Payments: capture and
 * refund resources; Disputes), Orders v2 (order, purchase unit, capture).
 */
const PaypalId = Type.String({ pattern: '^[A-Z0-9]{1,64}$' });
const Money = Type.Object({
  currency_code: Type.String({ pattern: '^[A-Z]{3}$' }),
  value: Type.String({ pattern: '^[0-9]{1,20}(\\.[0-9]{1,10})?$' }),
});
const Word = Type.String({ pattern: '^[A-Z_]{1,64}$' });
const Link = Type.Object({ href: Type.String({ maxLength: 2000 }), rel: Type.String({ maxLength: 64 }) });

export const PaypalEvent = Type.Object({
  id: Type.String({ pattern: '^WH-[A-Za-z0-9-]{1,120}$' }),
  event_type: Type.String({ pattern: '^[A-Z_.]{1,100}$' }),
  resource: Type.Object({}),
});

const Capture = Type.Object({
  id: PaypalId,
  status: Word,
  amount: Money,
  custom_id: Type.Optional(Type.String({ maxLength: 255 })),
  supplementary_data: Type.Optional(
    Type.Object({ related_ids: Type.Optional(Type.Object({ order_id: Type.Optional(PaypalId) })) }),
  ),
});
type Capture = Static<typeof Capture>;

/** A refund (PAYMENT.CAPTURE.REFUNDED, and PAYMENT.CAPTURE.REVERSED): its `up` link names the capture. */
const Refund = Type.Object({
  id: PaypalId,
  amount: Type.Optional(Money),
  /** COMPLETED, PENDING, CANCELLED, FAILED. */
  status: Type.Optional(Word),
  /** RFC 3339 (2025-01-01T10:00:00Z). */
  create_time: Type.Optional(Type.String({ maxLength: 40 })),
  note_to_payer: Type.Optional(Type.String({ maxLength: 255 })),
  links: Type.Array(Link, { maxItems: 20 }),
});

const Dispute = Type.Object({
  dispute_id: Type.String({ pattern: '^[A-Z0-9-]{1,64}$' }),
  reason: Type.Optional(Word),
  status: Type.Optional(Word),
  dispute_amount: Type.Optional(Money),
  disputed_transactions: Type.Array(Type.Object({ seller_transaction_id: PaypalId }), { minItems: 1, maxItems: 50 }),
  dispute_outcome: Type.Optional(Type.Object({ outcome_code: Type.Optional(Word) })),
});

/** The order's trxNo as we put it in `custom_id`; null when it is not one (a payment of something else). */
const trxNoOf = (customId: string | undefined) =>
  customId !== undefined && /^[1-9][0-9]{0,14}$/.test(customId) ? Number(customId) : null;

/** Our money of a PayPal amount; malformed when the currency is unknown or the value not a decimal of it. */
function money(m: Static<typeof Money>, what: string): { amountMinor: number; currency: string } {
  const found = fromPaypalMoney(m.value, m.currency_code);
  if (!found) throw new ProviderError('malformed', `${what}: ${m.value} ${m.currency_code} is not an amount we know`);
  return found;
}

/** The capture a refund or reversal is of: its `up` link (…/v2/payments/captures/{id}). */
function capturedBy(links: Array<Static<typeof Link>>, what: string): string {
  for (const l of links) {
    const m = l.rel === 'up' ? /\/v2\/payments\/captures\/([A-Z0-9]{1,64})$/.exec(l.href) : null;
    if (m) return m[1]!;
  }
  throw new ProviderError('malformed', `${what}.links: no "up" link to the refunded capture`);
}

/** What a capture says of its payment: paid, still pending, or failed. */
function captureFinding(c: Capture, orderId: string | null, what: string): ProviderFinding {
  const trxNo = trxNoOf(c.custom_id);
  // COMPLETED, and a capture refunded since: paid either way (the refund is a message of its own).
  if (c.status === 'COMPLETED' || c.status === 'REFUNDED' || c.status === 'PARTIALLY_REFUNDED')
    return { kind: 'paid', ref: orderId, trxNo, providerTrxId: c.id, ...money(c.amount, `${what}.amount`) };
  if (c.status === 'DECLINED' || c.status === 'FAILED')
    return { kind: 'failed', ref: orderId, trxNo, reason: `capture ${c.status.toLowerCase()}` };
  return { kind: 'open' };
}

/** A verified event as what it reports (docs/web-payment.md, "PayPal"): the events we subscribe to, others ignored. */
export function notificationOf(raw: unknown): VerifiedNotification {
  const event = read(PaypalEvent, raw, 'event');
  const resource: unknown = event.resource;
  const base = { eventId: event.id, type: event.event_type };
  const excerpt = { id: event.id, type: event.event_type };
  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED':
    case 'PAYMENT.CAPTURE.PENDING':
    case 'PAYMENT.CAPTURE.DECLINED':
    case 'PAYMENT.CAPTURE.DENIED': {
      const c = read(Capture, resource, 'resource');
      const orderId = c.supplementary_data?.related_ids?.order_id ?? null;
      const finding: ProviderFinding =
        event.event_type === 'PAYMENT.CAPTURE.DENIED'
          ? { kind: 'failed', ref: orderId, trxNo: trxNoOf(c.custom_id), reason: 'capture denied' }
          : captureFinding(c, orderId, 'resource');
      const noOrder = orderId === null && trxNoOf(c.custom_id) === null;
      return {
        ...base,
        finding:
          finding.kind === 'open'
            ? { kind: 'ignored', reason: `capture_${c.status.toLowerCase()}` }
            : noOrder
              ? { kind: 'ignored', reason: 'no_order_reference' }
              : finding,
        excerpt: {
          ...excerpt,
          capture: c.id,
          status: c.status,
          order: orderId,
          amount: c.amount.value,
          currency: c.amount.currency_code,
          trxNo: c.custom_id?.slice(0, 20) ?? null,
        },
      };
    }
    case 'PAYMENT.CAPTURE.REFUNDED':
    case 'PAYMENT.CAPTURE.REVERSED': {
      const r = read(Refund, resource, 'resource');
      const capture = capturedBy(r.links, 'resource');
      if (!r.amount) throw new ProviderError('malformed', 'resource.amount: a refund without its amount');
      const amount = money(r.amount, 'resource.amount');
      const at = r.create_time === undefined ? null : rfc3339(r.create_time, 'resource.create_time');
      const done = r.status === undefined || r.status === 'COMPLETED';
      return {
        ...base,
        // A reversal is money taken back without the merchant (a chargeback, PayPal's decision): a dispute lost.
        finding:
          event.event_type === 'PAYMENT.CAPTURE.REVERSED'
            ? {
                kind: 'dispute',
                providerTrxId: capture,
                id: r.id,
                ...amount,
                reason: 'reversed',
                status: done ? 'lost' : 'open',
                at,
              }
            : {
                kind: 'refund',
                providerTrxId: capture,
                id: r.id,
                ...amount,
                reason: r.note_to_payer ?? null,
                completed: done ? [{ id: r.id, amountMinor: amount.amountMinor, at }] : [],
              },
        excerpt: {
          ...excerpt,
          refund: r.id,
          capture,
          amount: r.amount.value,
          currency: r.amount.currency_code,
          status: r.status ?? null,
        },
      };
    }
    // The money of a dispute moves by PAYMENT.CAPTURE.REVERSED (and REFUNDED): the dispute itself is recorded.
    case 'CUSTOMER.DISPUTE.CREATED':
    case 'CUSTOMER.DISPUTE.RESOLVED': {
      const d = read(Dispute, resource, 'resource');
      const capture = d.disputed_transactions[0]!.seller_transaction_id;
      const amount = d.dispute_amount
        ? money(d.dispute_amount, 'resource.dispute_amount')
        : { amountMinor: null, currency: null };
      const outcome = d.dispute_outcome?.outcome_code ?? null;
      return {
        ...base,
        finding: {
          kind: 'dispute',
          providerTrxId: capture,
          id: d.dispute_id,
          ...amount,
          reason: d.reason ?? null,
          status:
            event.event_type === 'CUSTOMER.DISPUTE.CREATED'
              ? 'open'
              : outcome === 'RESOLVED_SELLER_FAVOUR'
                ? 'won'
                : 'closed',
          at: null,
        },
        excerpt: { ...excerpt, dispute: d.dispute_id, capture, reason: d.reason ?? null, outcome },
      };
    }
    default:
      return { ...base, finding: { kind: 'ignored', reason: 'not_handled' }, excerpt };
  }
}

/** An Orders v2 order as the SDK answers it, the fields we read checked. */
const OrderAnswer = Type.Object({
  id: PaypalId,
  status: Word,
  purchaseUnits: Type.Optional(
    Type.Array(
      Type.Object({
        payments: Type.Optional(
          Type.Object({
            captures: Type.Optional(
              Type.Array(
                Type.Object({
                  id: PaypalId,
                  status: Word,
                  amount: Type.Object({ currencyCode: Money.properties.currency_code, value: Money.properties.value }),
                  customId: Type.Optional(Type.String({ maxLength: 255 })),
                }),
                { maxItems: 50 },
              ),
            ),
          }),
        ),
      }),
      { maxItems: 10 },
    ),
  ),
});

/**
 * What an order says of its payment (the query, the capture's answer): `approved` (the player approved it: ours to
 * capture), paid / open / failed by its capture, or closed (voided).
 */
export function orderFinding(answer: Order): ProviderFinding | { kind: 'approved'; ref: string } {
  const order = read(OrderAnswer, answer, 'order');
  if (order.status === 'APPROVED') return { kind: 'approved', ref: order.id };
  if (order.status === 'VOIDED') return { kind: 'closed', ref: order.id, trxNo: null };
  if (order.status !== 'COMPLETED') return { kind: 'open' };
  const c = order.purchaseUnits?.[0]?.payments?.captures?.[0];
  if (!c) throw new ProviderError('malformed', 'a COMPLETED order without a capture');
  const capture = {
    ...c,
    amount: { currency_code: c.amount.currencyCode, value: c.amount.value },
    custom_id: c.customId,
  };
  return captureFinding(capture, order.id, 'order.purchase_units.0.payments.captures.0');
}
