import { Type, type Static } from '@sinclair/typebox';
import { PageOf, QueryId as Id, QueryTime as Time, pageQuery } from '../http/admin-query.js';
import { timeWindowQuery } from '../http/list-query.js';
import { IdParam } from '../http/route-params.js';
import { GAME_EVENT_TYPES, TEST_EVENT_KINDS } from './event-types.js';

export { EVENT_TYPES, GAME_EVENT_TYPES } from './event-types.js';

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const EventState = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dead')]);
/** The event list's type filter: the games' event types of the outbox (event-types.ts), one literal each, in its order. */
export const EventType = Type.Union(GAME_EVENT_TYPES.map((t) => Type.Literal(t)));

export const DeliveryEvent = Type.Object(
  {
    eventId: Type.Integer({ description: 'Also the notifyId of the body.' }),
    appId: Type.Integer(),
    type: Type.String({ description: GAME_EVENT_TYPES.join(' | ') }),
    target: Type.String({ description: 'callback (4.7 map by serverId) | cancellation | partner' }),
    serverId: Nullable(Type.String()),
    state: Type.String({ description: 'pending | delivered | dead' }),
    attempts: Type.Integer(),
    nextAttemptAt: Nullable(DateTime),
    createdAt: DateTime,
    deliveredAt: Nullable(DateTime),
    deadAt: Nullable(DateTime),
    lastError: Nullable(Type.String()),
    body: Type.String({ description: 'The JSON body exactly as signed and sent.' }),
  },
  { $id: 'DeliveryEvent', title: 'DeliveryEvent' },
);
export type DeliveryEvent = Static<typeof DeliveryEvent>;

export const DeliveryAttempt = Type.Object(
  {
    attemptNo: Type.Integer(),
    startedAt: DateTime,
    url: Nullable(Type.String()),
    httpStatus: Type.Union([Type.Integer(), Type.Null()]),
    latencyMs: Type.Integer(),
    outcome: Type.String({ description: 'delivered | http_status | timeout | network | refused | no_url' }),
    responseBody: Nullable(Type.String({ description: 'First KB of the answer.' })),
    error: Nullable(Type.String()),
  },
  { $id: 'DeliveryAttempt', title: 'DeliveryAttempt' },
);
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

export const EventListQuery = Type.Object(
  {
    appId: Type.Optional(Id),
    state: Type.Optional(EventState),
    type: Type.Optional(EventType),
    ...timeWindowQuery('Created'),
    ...pageQuery('events'),
  },
  { additionalProperties: false },
);

export const EventList = PageOf('events', Type.Ref(DeliveryEvent));

export const EventIdParams = Type.Object({ eventId: IdParam() });

export const RecoverBody = Type.Object(
  {
    since: Time('Recover events that died at or after this time.'),
  },
  { additionalProperties: false },
);

export const TestEventBody = Type.Object(
  {
    type: Type.Union(TEST_EVENT_KINDS.map((t) => Type.Literal(t))),
    serverId: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_.:-]{1,64}$',
        description: 'Picks the callback URL from the 4.7 map; absent: `default`.',
      }),
    ),
  },
  { additionalProperties: false },
);
