/**
 * Roles and the one permission table of the admin API (docs/operators.md). Every admin route is named here by its
 * method and route pattern with the permission it needs; one hook enforces it (operators/admin-access.routes.ts)
 * and the OpenAPI document shows it (`x-permission`). A route missing from ROUTE_PERMISSIONS is open to `admin`
 * only (a safe default), and the role-walk test fails on it naming the route.
 */
export const ROLES = ['admin', 'operator', 'moderator', 'support'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The studio role a studio developer holds on each of its apps (a grant with an app, identity/): the whole of the
 * portal API for that app, and nothing of the admin API (docs/operators.md "One identity model").
 */
export const STUDIO_ROLE = 'developer';

/**
 * A second studio role on an app, beside STUDIO_ROLE: the developer may also refund the app's web orders through the
 * portal (docs/portal.md "Refunds"). Given by an operator per app (`refundAppIds`), never implied.
 */
export const STUDIO_REFUND_ROLE = 'refunds';

export const PERMISSIONS = [
  'apps.read',
  'apps.write',
  'keys.read',
  'keys.write',
  'users.read',
  'users.write',
  'users.moderate',
  'orders.read',
  'orders.write',
  'orders.refund',
  'delivery.read',
  'delivery.write',
  'game-calls.read',
  'sandbox.use',
  'reports.read',
  'reports.moderate',
  'audit.read',
  'operators.read',
  'operators.write',
  'overview.read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Route markers that are not permissions: `public` needs no sign-in (the login), `self` any signed-in operator. */
export type RouteAccess = Permission | 'public' | 'self';

const reads = PERMISSIONS.filter((p) => p.endsWith('.read'));

/**
 * What each role may do. `support` reads everything and changes nothing: the admin API never answers a secret on a
 * read (app secrets and tokens are answered once, by the write that makes them), so reading is safe to hand out.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  // Everything but the platform keys' writes, moderation and the operator accounts.
  operator: PERMISSIONS.filter(
    (p) => !['keys.write', 'users.moderate', 'reports.moderate', 'operators.read', 'operators.write'].includes(p),
  ),
  moderator: ['reports.read', 'reports.moderate', 'users.read', 'users.moderate'],
  support: reads,
};

/** The permission table: `METHOD /admin/v1/route` -> what it needs. HEAD follows GET. */
export const ROUTE_PERMISSIONS: Record<string, RouteAccess> = {
  // admin-audit
  'GET /admin/v1/admin-actions': 'audit.read',
  // apps and their store settings
  'POST /admin/v1/apps': 'apps.write',
  'GET /admin/v1/apps': 'apps.read',
  'GET /admin/v1/apps/:appId': 'apps.read',
  'PATCH /admin/v1/apps/:appId': 'apps.write',
  'POST /admin/v1/apps/:appId/rotate-secret': 'apps.write',
  'GET /admin/v1/apps/:appId/store-settings': 'apps.read',
  'PUT /admin/v1/apps/:appId/store-settings/apple': 'apps.write',
  'PUT /admin/v1/apps/:appId/store-settings/google': 'apps.write',
  'DELETE /admin/v1/apps/:appId/store-settings/:store': 'apps.write',
  'GET /admin/v1/apps/:appId/store-messages': 'orders.read',
  'GET /admin/v1/apps/:appId/store-consumption-requests': 'orders.read',
  'GET /admin/v1/apps/:appId/payment-providers': 'apps.read',
  'PUT /admin/v1/apps/:appId/payment-providers/:provider': 'apps.write',
  'DELETE /admin/v1/apps/:appId/payment-providers/:provider': 'apps.write',
  'GET /admin/v1/apps/:appId/provider-messages': 'orders.read',
  'GET /admin/v1/apps/:appId/web-pay': 'apps.read',
  'PUT /admin/v1/apps/:appId/web-pay': 'apps.write',
  'GET /admin/v1/apps/:appId/precheck-messages': 'apps.read',
  'PUT /admin/v1/apps/:appId/precheck-messages/:code/:lang': 'apps.write',
  'DELETE /admin/v1/apps/:appId/precheck-messages/:code': 'apps.write',
  'DELETE /admin/v1/apps/:appId/precheck-messages/:code/:lang': 'apps.write',
  // platform keys
  'GET /admin/v1/platform-keys': 'keys.read',
  'POST /admin/v1/platform-keys/rotate': 'keys.write',
  'POST /admin/v1/platform-keys/:kid/retire': 'keys.write',
  // accounts
  'GET /admin/v1/users': 'users.read',
  'GET /admin/v1/users/:userId': 'users.read',
  'POST /admin/v1/users/:userId/revoke-tokens': 'users.moderate',
  'POST /admin/v1/users/:userId/ban': 'users.moderate',
  'POST /admin/v1/users/:userId/unban': 'users.moderate',
  'POST /admin/v1/accounts/process-cancellations': 'users.write',
  'POST /admin/v1/sandbox/login-assertions': 'sandbox.use',
  // delivery and game calls
  'GET /admin/v1/events': 'delivery.read',
  'GET /admin/v1/events/:eventId': 'delivery.read',
  'POST /admin/v1/events/:eventId/resend': 'delivery.write',
  'POST /admin/v1/apps/:appId/events/recover': 'delivery.write',
  'POST /admin/v1/apps/:appId/test-events': 'delivery.write',
  'GET /admin/v1/apps/:appId/game-calls': 'game-calls.read',
  // orders
  'GET /admin/v1/apps/:appId/products': 'orders.read',
  'POST /admin/v1/apps/:appId/products': 'orders.write',
  'PATCH /admin/v1/apps/:appId/products/:productCode': 'orders.write',
  'GET /admin/v1/apps/:appId/products/:productCode': 'orders.read',
  'GET /admin/v1/apps/:appId/order-settings': 'orders.read',
  'PUT /admin/v1/apps/:appId/order-settings': 'orders.write',
  'GET /admin/v1/apps/:appId/refund-abuse': 'orders.read',
  'GET /admin/v1/orders': 'orders.read',
  'GET /admin/v1/orders/:trxNo': 'orders.read',
  'POST /admin/v1/orders/:trxNo/cancel': 'orders.write',
  'POST /admin/v1/orders/:trxNo/refunds': 'orders.refund',
  'GET /admin/v1/orders/:trxNo/refunds': 'orders.read',
  'GET /admin/v1/supplements': 'orders.read',
  'GET /admin/v1/consumption-notices': 'orders.read',
  'POST /admin/v1/sandbox/orders': 'sandbox.use',
  'POST /admin/v1/sandbox/orders/:trxNo/pay': 'sandbox.use',
  'POST /admin/v1/sandbox/orders/:trxNo/refund': 'sandbox.use',
  // reports and moderation
  'GET /admin/v1/reports': 'reports.read',
  'GET /admin/v1/reports/reportees': 'reports.read',
  'GET /admin/v1/reports/:reportId': 'reports.read',
  'POST /admin/v1/reports/:reportId/moderation': 'reports.moderate',
  'GET /admin/v1/moderation/audit': 'reports.read',
  // the console's overview (overview/): counts across delivery, orders, game calls and reports
  'GET /admin/v1/overview': 'overview.read',
  // operators (this domain)
  'POST /admin/v1/session': 'public',
  'POST /admin/v1/session/passkey-options': 'public',
  'POST /admin/v1/session/passkey': 'public',
  'POST /admin/v1/invitation': 'public',
  'POST /admin/v1/invitation/totp': 'public',
  'POST /admin/v1/invitation/passkey-options': 'public',
  'POST /admin/v1/invitation/accept': 'public',
  'GET /admin/v1/passkeys': 'self',
  'POST /admin/v1/passkeys/options': 'self',
  'POST /admin/v1/passkeys': 'self',
  'DELETE /admin/v1/passkeys/:passkeyId': 'self',
  'GET /admin/v1/session/methods': 'public',
  'GET /admin/v1/session/oidc': 'public',
  'GET /admin/v1/session/oidc/callback': 'public',
  'GET /admin/v1/session': 'self',
  'DELETE /admin/v1/session': 'self',
  'GET /admin/v1/operators': 'operators.read',
  'POST /admin/v1/operators': 'operators.write',
  'GET /admin/v1/operators/:name': 'operators.read',
  'PATCH /admin/v1/operators/:name': 'operators.write',
  'POST /admin/v1/operators/:name/reset': 'operators.write',
  'GET /admin/v1/operator-invitations': 'operators.read',
  'POST /admin/v1/operator-invitations/:invitationId/resend': 'operators.write',
  'POST /admin/v1/operator-invitations/:invitationId/revoke': 'operators.write',
  'GET /admin/v1/operator-tokens': 'self',
  'POST /admin/v1/operator-tokens': 'self',
  'DELETE /admin/v1/operator-tokens/:tokenId': 'self',
  // studio developer accounts of the portal (portal/)
  'GET /admin/v1/studio-developers': 'operators.read',
  'POST /admin/v1/studio-developers': 'operators.write',
  'GET /admin/v1/studio-developers/:name': 'operators.read',
  'PATCH /admin/v1/studio-developers/:name': 'operators.write',
  'POST /admin/v1/studio-developers/:name/reset': 'operators.write',
  'GET /admin/v1/studio-developer-invitations': 'operators.read',
  'POST /admin/v1/studio-developer-invitations/:invitationId/resend': 'operators.write',
  'POST /admin/v1/studio-developer-invitations/:invitationId/revoke': 'operators.write',
};

/** The declared access of a route, or undefined when the table does not name it. */
export function routeAccess(method: string, url: string): RouteAccess | undefined {
  return ROUTE_PERMISSIONS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}

/** Whether `role` may call a route declared `access`; an undeclared route is for `admin` only. */
export function mayCall(role: Role, access: RouteAccess | undefined): boolean {
  if (access === 'public' || access === 'self') return true;
  if (access === undefined) return role === 'admin';
  return ROLE_PERMISSIONS[role].includes(access);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** A token's role may be its owner's, `support` (read-only), or any when the owner is an admin. */
export function mayGrant(owner: Role, tokenRole: Role): boolean {
  return owner === 'admin' || tokenRole === owner || tokenRole === 'support';
}
