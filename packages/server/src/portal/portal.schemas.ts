import { Type } from '@sinclair/typebox';
import { SafeInteger, Text } from '../http/schemas.js';
import { QueryId, QueryTime, pageQuery } from '../http/admin-query.js';
import { AppPatchBody } from '../apps/apps.schemas.js';
import { SecondFactor } from '../operators/operators.schemas.js';
import { EventState, EventType } from '../delivery/delivery.schemas.js';

const Time = Type.String({ format: 'date-time' });
const AppIds = Type.Array(SafeInteger({ minimum: 1 }), {
  maxItems: 100,
  description: 'The apps the developer sees in the portal (all of its scope).',
});

export const StudioDeveloper = Type.Object(
  {
    name: Type.String(),
    appIds: Type.Array(Type.Integer()),
    disabled: Type.Boolean(),
    lockedUntil: Type.Union([Time, Type.Null()], { description: 'Set while too many failed sign-ins lock it.' }),
    lastLoginAt: Type.Union([Time, Type.Null()]),
    recoveryCodesLeft: Type.Integer(),
    createdAt: Time,
  },
  { $id: 'StudioDeveloper', title: 'Studio developer account' },
);

export const DeveloperCreateBody = Type.Object(
  {
    name: Text({ minLength: 2, maxLength: 64, description: 'Lower-case letters, digits, dot, dash, underscore.' }),
    appIds: AppIds,
    password: Type.Optional(Text({ minLength: 12, maxLength: 1024, description: 'Omitted: one is generated.' })),
  },
  { additionalProperties: false },
);

export const DeveloperCreated = Type.Object({
  developer: Type.Ref(StudioDeveloper),
  password: Type.String({ description: 'The initial password; shown once.' }),
  secondFactor: SecondFactor,
});

export const DeveloperPatchBody = Type.Object(
  { appIds: Type.Optional(AppIds), disabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const DeveloperNameParams = Type.Object({ name: Text({ minLength: 1, maxLength: 64 }) });

export const PortalSession = Type.Object({
  name: Type.String(),
  appIds: Type.Array(Type.Integer()),
  csrfToken: Type.String({ description: 'Send it as X-CSRF-Token on every request that changes something.' }),
});

/** What a studio may change of its app: the URLs the platform calls (4.7-4.10, 6, 4.6), nothing else. */
export const PortalAppPatchBody = Type.Pick(
  AppPatchBody,
  ['callbackUrls', 'roleQueryUrl', 'roleListUrl', 'preOrderCheckUrl', 'cancellationCallbackUrl', 'partnerUrl'],
  { additionalProperties: false, minProperties: 1 },
);

export const PortalAppParams = Type.Object({ appId: QueryId });
export const PortalEventParams = Type.Object({ appId: QueryId, eventId: QueryId });

export const PortalEventQuery = Type.Object(
  {
    state: Type.Optional(EventState),
    type: Type.Optional(EventType),
    from: Type.Optional(QueryTime('Created at or after.')),
    to: Type.Optional(QueryTime('Created before.')),
    ...pageQuery('events'),
  },
  { additionalProperties: false },
);

export const ResendManyBody = Type.Object(
  { eventIds: Type.Array(SafeInteger({ minimum: 1 }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);

export const ConsumptionNoticePortalQuery = Type.Object(
  { userId: Type.Optional(Text({ minLength: 1, maxLength: 128 })), ...pageQuery('notices') },
  { additionalProperties: false },
);
