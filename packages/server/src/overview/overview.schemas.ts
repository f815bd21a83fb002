import { Type, type Static } from '@sinclair/typebox';
import { QueryId, QueryTime } from '../http/admin-query.js';

const DateTime = Type.String({ format: 'date-time' });
const Count = Type.Integer({ minimum: 0 });
const Ms = Type.Union([Type.Integer(), Type.Null()], {
  description: 'Upper bound (ms) of the histogram bucket holding the percentile; null past 30 s.',
});

export const OverviewQuery = Type.Object(
  {
    from: Type.Optional(QueryTime('Start of the window (inclusive); default `to` less 24 hours.')),
    to: Type.Optional(QueryTime('End of the window (exclusive); default now.')),
    appId: Type.Optional(QueryId),
  },
  { additionalProperties: false },
);
export type OverviewQuery = Static<typeof OverviewQuery>;

/** The portal's query: the app is the path's, so no appId. */
export const PortalOverviewQuery = Type.Omit(OverviewQuery, ['appId'], { additionalProperties: false });

export const Overview = Type.Object(
  {
    from: DateTime,
    to: DateTime,
    appId: Type.Union([Type.Integer(), Type.Null()]),
    notifications: Type.Array(
      Type.Object({
        hour: DateTime,
        delivered: Count,
        retrying: Count,
        dead: Count,
        successRate: Type.Union([Type.Number(), Type.Null()], {
          description: 'delivered / all events of the hour, 0-1; null for an hour without events.',
        }),
      }),
      { description: 'Events created per hour (UTC) by their state now: delivered, pending (retrying) or dead.' },
    ),
    latency: Type.Array(
      Type.Object({ url: Type.Union([Type.String(), Type.Null()]), attempts: Count, p50: Ms, p90: Ms, p99: Ms }),
      { description: 'Delivery attempt latency per destination URL, the 10 busiest.' },
    ),
    failureReasons: Type.Array(
      Type.Object({
        outcome: Type.String({ description: 'http_status | timeout | network | refused | no_url' }),
        httpStatus: Type.Union([Type.Integer(), Type.Null()]),
        attempts: Count,
      }),
      { description: 'The 10 most frequent reasons of failed delivery attempts.' },
    ),
    commerce: Type.Array(
      Type.Object({
        day: DateTime,
        orders: Count,
        payments: Count,
        refunds: Count,
        webRefunds: Type.Integer({
          minimum: 0,
          description: 'Of refunds: those made at a web payment provider (issue 39).',
        }),
        disputesLost: Type.Integer({ minimum: 0, description: 'Of refunds: disputes of web payments lost.' }),
        pendingSupplements: Count,
      }),
      {
        description:
          'Per UTC day, by created_at: payment orders, of those succeeded, refund orders (stores and web), supplements still pending.',
      },
    ),
    gameCallFailures: Type.Array(
      Type.Object({ appId: Type.Integer(), kind: Type.String(), calls: Count, failures: Count }),
      { description: 'Game-call tries (4.8-4.10) per app and kind, and those whose outcome is not ok.' },
    ),
    openReports: Type.Array(Type.Object({ appId: Type.Integer(), open: Count, oldestAt: DateTime }), {
      description: 'The open report queue per app now (not limited to the window).',
    }),
  },
  { $id: 'Overview', title: 'Overview' },
);
export type Overview = Static<typeof Overview>;
