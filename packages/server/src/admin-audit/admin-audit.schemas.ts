import { Type, type Static } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { invalidParameter } from '../errors/app-error.js';
import { PageOf, pageQuery } from '../http/admin-query.js';
import { parsePage, parseTimeWindow, timeWindowQuery } from '../http/list-query.js';
import type { ActionFilter } from './admin-actions.repository.js';

export const AdminAction = Type.Object(
  {
    actionId: Type.Integer(),
    at: Type.String({ format: 'date-time', description: 'When the request reached its handler.' }),
    operator: Type.Union([Type.String(), Type.Null()], {
      description:
        'The authenticated operator (ADMIN_TOKEN for the break-glass token; the name tried for a failed sign-in). Before operator accounts: the X-Operator header.',
    }),
    event: Type.Union([Type.String(), Type.Null()], {
      description:
        'null for a request; else login, login-failed, login-locked, logout, operator-created, role-changed, operator-disabled, operator-enabled, invitation-created, invitation-resent, invitation-revoked, invitation-accepted (under the invitee name), passkey-added, passkey-removed, token-created, token-revoked, and the refusals (recorded within AUDIT_REFUSALS_PER_MINUTE): refused (401, caller unknown), token-refused, forbidden (403, the role lacks the permission), csrf-refused; the portal: portal-login, portal-login-failed, portal-login-locked, portal-logout, portal-refused (401, or an app of another studio), portal-csrf-refused.',
    }),
    note: Type.Union([Type.String(), Type.Null()], {
      description: 'What the event was about, or the X-Operator header as sent (never trusted).',
    }),
    method: Type.String(),
    route: Type.String({ description: 'The route, e.g. /admin/v1/orders/:trxNo/cancel.' }),
    path: Type.String({ description: 'The path as sent, without its query.' }),
    ip: Type.String(),
    requestId: Type.String({ description: 'The x-request-id of the request (find it in the logs).' }),
    status: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The HTTP status answered; null when the service stopped before answering.',
    }),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'AdminAction', title: 'Admin action (audit trail)' },
);
export type AdminAction = Static<typeof AdminAction>;

export const ADMIN_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const AdminActionQuery = Type.Object(
  {
    operator: Type.Optional(Text({ minLength: 1, maxLength: 100 })),
    method: Type.Optional(Type.Union(ADMIN_METHODS.map((m) => Type.Literal(m)))),
    ...timeWindowQuery('Actions'),
    ...pageQuery('actions'),
  },
  { additionalProperties: false },
);

export const AdminActionList = PageOf('actions', Type.Ref(AdminAction));

/** The trail's query (admin route and `admin-actions list`) as a filter; every field checked. */
export function parseAdminActionQuery(q: Static<typeof AdminActionQuery>): ActionFilter {
  if (q.method !== undefined && !(ADMIN_METHODS as readonly string[]).includes(q.method))
    throw invalidParameter('method', `must be ${ADMIN_METHODS.join(', ')}`);
  return {
    ...(q.operator !== undefined ? { operator: q.operator } : {}),
    ...(q.method !== undefined ? { method: q.method } : {}),
    ...parseTimeWindow(q),
    ...parsePage(q),
  };
}
