import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../crypto/secret-box.js';
import { AppError } from '../errors/app-error.js';
import { mayCall, routeAccess } from './permissions.js';
import { annotateRequestSpan } from '../http/request-tracing.js';
import type { OperatorService, Principal } from './operators.service.js';
import { auditContext, scopedCookie, sessionPrincipalOf } from '../identity/session-access.routes.js';
import type { OperatorTokenService } from './operator-tokens.service.js';
import type { SignInService } from './sign-in.service.js';

/**
 * Who is calling the admin API, and may they (docs/operators.md). One onRequest hook of the /admin/v1 scope:
 * 1. authenticates: `Authorization: Bearer` with the break-glass ADMIN_TOKEN (role admin, unless
 *    ADMIN_TOKEN_ENABLED=false) or an operator API token; else the console's session cookie, which must bring its
 *    X-CSRF-Token on any request that changes something;
 * 2. authorizes: the route's permission from the one table (permissions.ts) against the caller's role; a route the
 *    table does not name is for admins only. 403 OPERATOR_FORBIDDEN in the admin envelope.
 * Every refusal is recorded in the audit trail with the caller as far as known (refused, token-refused, csrf-refused,
 * forbidden), within the trail's bound for refusals (admin-audit/refusals.ts).
 * It also writes each route's permission into the OpenAPI document (`x-permission`).
 */

export const SESSION_COOKIE = 'gp_operator_session';
/** The cookie is sent to the admin API only. */
export const SESSION_COOKIE_PATH = '/admin/v1';

const principals = new WeakMap<FastifyRequest, Principal>();

/** The authenticated caller of an admin route (not on the `public` sign-in route). */
export function principalOf(request: FastifyRequest): Principal {
  const p = principals.get(request);
  if (!p) throw new Error('principalOf: the request was not authenticated');
  return p;
}

/**
 * The name a route records as who acted (a moderation decision's moderator, a ban's actor): an operator account's
 * own name, whatever the request says; with the break-glass token, the name the caller gave (as before accounts).
 */
export function actingName(request: FastifyRequest, given: string | undefined): string | undefined {
  const p = principals.get(request);
  return p && p.kind !== 'break-glass' ? p.name : given;
}

/** HttpOnly, SameSite=Strict, path /admin/v1; Secure unless the console is reached on loopback (plain HTTP). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeSeconds: number) {
  reply.header('set-cookie', sessionCookie(request, value, maxAgeSeconds));
}

/** The console session cookie's Set-Cookie value (the password and the OpenID Connect sign-ins set it). */
export function sessionCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  return scopedCookie(request, { name: SESSION_COOKIE, path: SESSION_COOKIE_PATH }, value, maxAgeSeconds);
}

export interface AccessDeps {
  adminToken: string;
  adminTokenEnabled: boolean;
  operators: OperatorService;
  signIn: SignInService;
  tokens: OperatorTokenService;
}

const unauthorized = (detail: string) =>
  new AppError('ADMIN_UNAUTHORIZED', detail, { headers: { 'www-authenticate': 'Bearer realm="admin"' } });

/**
 * A refused request whose caller is not known, recorded in the audit trail (event `refused`, within the trail's
 * bound for refusals: admin-audit/refusals.ts) before the 401 is answered.
 */
async function refuse(request: FastifyRequest, deps: AccessDeps, note: string, detail: string): Promise<AppError> {
  await deps.operators.audit('refused', '(unknown)', auditContext(request), note, null, 401);
  return unauthorized(detail);
}

async function authenticate(request: FastifyRequest, deps: AccessDeps): Promise<Principal> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match)
      throw await refuse(
        request,
        deps,
        'an Authorization header that is not Bearer <token>',
        'send Authorization: Bearer <operator token or ADMIN_TOKEN>',
      );
    const token = match[1]!;
    if (deps.adminTokenEnabled && safeEqual(token, deps.adminToken))
      return { kind: 'break-glass', operatorId: null, name: 'ADMIN_TOKEN', role: 'admin' };
    // A known operator token that is refused (revoked, expired, ...) is recorded as token-refused there.
    const p = await deps.tokens.principal(token, auditContext(request));
    if (!p)
      throw await refuse(
        request,
        deps,
        'a bearer token that is neither an operator token nor the admin token',
        'the bearer token is neither an operator token nor the admin token',
      );
    return p;
  }
  return sessionPrincipalOf(request, SESSION_COOKIE, (cookie) => deps.signIn.sessionPrincipal(cookie), {
    refuse: (why) =>
      why === 'missing'
        ? refuse(request, deps, 'no credentials', 'sign in to the console, or send Authorization: Bearer <token>')
        : refuse(
            request,
            deps,
            'a console session cookie that is unknown or has ended',
            'the console session has ended: sign in again',
          ),
    csrfRefused: (p, csrf) =>
      deps.operators.audit('csrf-refused', p.name, auditContext(request), csrf, p.operatorId, 403),
  });
}

/** Installs the access hook and the OpenAPI annotation on the /admin/v1 scope (routes.ts), before its routes. */
export function installAdminAccess(scope: FastifyInstance, deps: AccessDeps): void {
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const access = routeAccess(methods[0]!, route.url);
    const text =
      access === 'public'
        ? 'No sign-in needed.'
        : access === 'self'
          ? 'Any signed-in operator.'
          : `Permission: \`${access ?? 'admin only (not in the permission table)'}\`.`;
    route.schema = {
      ...route.schema,
      // Every credential the hook takes; none for the sign-in itself.
      security: access === 'public' ? [] : [{ adminBearer: [] }, { operatorSession: [] }],
      'x-permission': access ?? 'admin-only',
      description: [route.schema?.description, text].filter(Boolean).join('\n\n'),
    } as typeof route.schema;
  });
  scope.addHook('onRequest', async (request) => {
    const access = routeAccess(request.method, request.routeOptions.url ?? '');
    if (access === 'public') return;
    const principal = await authenticate(request, deps);
    principals.set(request, principal);
    // Who acted, on the request's span (issue 41): the operator's name and role, never a credential.
    annotateRequestSpan(request, { 'operator.name': principal.name, 'operator.role': principal.role });
    if (!mayCall(principal.role, access)) {
      // The refusal is recorded with who asked (within the trail's bound for refusals).
      await deps.operators.audit(
        'forbidden',
        principal.name,
        auditContext(request),
        `the role ${principal.role} lacks ${access ?? 'admin'}`,
        principal.operatorId,
        403,
      );
      throw new AppError(
        'OPERATOR_FORBIDDEN',
        `the role ${principal.role} lacks ${access ?? 'admin (this route is not in the permission table)'}`,
        { data: { permission: access ?? null, role: principal.role } },
      );
    }
  });
}
