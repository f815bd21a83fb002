import { Type } from '@sinclair/typebox';
import { SafeInteger, Text } from '../http/schemas.js';
import { QueryTime, pageQuery } from '../http/admin-query.js';
import { AppPatchBody } from '../apps/apps.schemas.js';
import {
  AccountNameParams,
  accountCreateBody,
  accountCreated,
  accountPatchBody,
  accountSchema,
} from '../identity/people.schemas.js';
import { EventState, EventType } from '../delivery/delivery.schemas.js';
import { SandboxFlags } from '../identity/sandbox-flags.js';

const AppIds = Type.Array(SafeInteger({ minimum: 1 }), {
  maxItems: 100,
  description: 'The apps the developer sees in the portal (all of its scope).',
});

const RefundAppIds = Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
  maxItems: 100,
  description:
    'The apps (among appIds) whose web orders the developer may refund in the portal (docs/portal.md "Refunds"); default none.',
});

export const StudioDeveloper = accountSchema(
  { appIds: Type.Array(Type.Integer()), refundAppIds: Type.Array(Type.Integer()) },
  { $id: 'StudioDeveloper', title: 'Studio developer account' },
);

export const DeveloperCreateBody = accountCreateBody({ appIds: AppIds, refundAppIds: Type.Optional(RefundAppIds) });

export const DeveloperCreated = accountCreated('developer', StudioDeveloper);

export const DeveloperPatchBody = accountPatchBody({
  appIds: Type.Optional(AppIds),
  refundAppIds: Type.Optional(RefundAppIds),
});

export const DeveloperNameParams = AccountNameParams;

export const PortalSession = Type.Object({
  name: Type.String(),
  appIds: Type.Array(Type.Integer()),
  refundAppIds: Type.Array(Type.Integer(), { description: 'The apps whose web orders the developer may refund.' }),
  csrfToken: Type.String({ description: 'Send it as X-CSRF-Token on every request that changes something.' }),
  sandbox: SandboxFlags,
});

/** What a studio may change of its app: the URLs the platform calls (4.7-4.10, 6, 4.6), nothing else. */
export const PortalAppPatchBody = Type.Pick(
  AppPatchBody,
  ['callbackUrls', 'roleQueryUrl', 'roleListUrl', 'preOrderCheckUrl', 'cancellationCallbackUrl', 'partnerUrl'],
  { additionalProperties: false, minProperties: 1 },
);

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
