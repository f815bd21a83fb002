import { Type, type Static } from '@sinclair/typebox';
import { Cursor, QueryTime } from '../../http/admin-query.js';

/** The most refunds of one app's players (admin and portal routes, `app refunders`; docs/orders.md "Refund abuse"). */
export const RefundAbuseQuery = Type.Object(
  {
    from: Type.Optional(QueryTime('Refunds created at or after; default `to` less 30 days.')),
    to: Type.Optional(QueryTime('Refunds created before; default now. The window is at most 366 days.')),
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{3}$',
        description: 'Only refunds in this ISO 4217 currency (counts and amounts, so the ranking by amount is exact).',
      }),
    ),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'Page size, 1-200 (default 50).' })),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type RefundAbuseQuery = Static<typeof RefundAbuseQuery>;

const DateTime = Type.String({ format: 'date-time' });

export const Refunder = Type.Object({
  userId: Type.String({ description: 'The platform user id of the player.' }),
  refunds: Type.Integer({ description: 'Refund orders (trxType 2) of the player in the window: stores and web.' }),
  webRefunds: Type.Integer({
    description: 'Of `refunds`, those made at a web payment provider (its dashboard, or an operator through it).',
  }),
  disputesLost: Type.Integer({
    description: 'Of `refunds`, web payments the player disputed (chargebacks) and the merchant lost.',
  }),
  refunded: Type.Array(
    Type.Object({
      currency: Type.String(),
      amount: Type.Number({ description: "Sum of the refunds' totalAmount in this currency, an exact decimal." }),
      refunds: Type.Integer(),
    }),
    { description: 'The refunded amount per currency (no exchange rates: amounts in two currencies are not added).' },
  ),
  pendingSupplements: Type.Integer({
    description: 'Supplement orders the player owes the app now (4.5, supplyStatus 1), whatever the window.',
  }),
  lastRefundAt: DateTime,
});

export const Refunders = Type.Object({
  appId: Type.Integer(),
  from: DateTime,
  to: DateTime,
  currency: Type.Union([Type.String(), Type.Null()]),
  refunders: Type.Array(Refunder, {
    description:
      'Most refunds first; equal counts by the larger amount (amounts in minor units scaled to one currency exponent, added without exchange rates), then by userId.',
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` (with the same window) for the next page; null on the last.',
  }),
});
export type Refunders = Static<typeof Refunders>;
