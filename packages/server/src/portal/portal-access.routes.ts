import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { auditContext, sessionPrincipalOf, setScopedCookie } from '../identity/session-access.routes.js';
import type { PortalSignInService, StudioPrincipal } from './portal-sign-in.service.js';
import { studioActor, type StudioDeveloperService } from './studio-developers.service.js';

/**
 * Who is calling the portal API, and is the app theirs (docs/portal.md). One onRequest hook of the /portal/v1 scope:
 * 1. authenticates the portal session cookie (its own cookie, sent to /portal/v1 only; an operator's cookie or token
 *    means nothing here, and a portal cookie means nothing on /admin/v1), with its X-CSRF-Token on every change;
 * 2. on a route with `:appId`, answers 404 NOT_FOUND unless the app is one of the developer's: another studio's app
 *    looks exactly like an app that does not exist (docs/portal.md "Decisions").
 */

export const PORTAL_COOKIE = { name: 'gp_studio_session', path: '/portal/v1' };
/** The portal routes without a session: the sign-ins and the invitee's side of an invitation (its token). */
export const PORTAL_PUBLIC: ReadonlySet<string> = new Set([
  'POST /portal/v1/session',
  'POST /portal/v1/session/passkey-options',
  'POST /portal/v1/session/passkey',
  'POST /portal/v1/invitation',
  'POST /portal/v1/invitation/totp',
  'POST /portal/v1/invitation/passkey-options',
  'POST /portal/v1/invitation/accept',
]);

const principals = new WeakMap<FastifyRequest, StudioPrincipal>();

export function studioOf(request: FastifyRequest): StudioPrincipal {
  const p = principals.get(request);
  if (!p) throw new Error('studioOf: the request was not authenticated');
  return p;
}

export function setPortalCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeSeconds: number) {
  setScopedCookie(request, reply, PORTAL_COOKIE, value, maxAgeSeconds);
}

export interface PortalAccessDeps {
  signIn: PortalSignInService;
  developers: StudioDeveloperService;
}

/** A refused portal request, recorded in the audit trail (event `portal-refused`, within the bound for refusals). */
async function refused(
  request: FastifyRequest,
  deps: PortalAccessDeps,
  who: string,
  note: string,
  error: AppError,
): Promise<AppError> {
  await deps.developers.audit('portal-refused', who, auditContext(request), note, null, error.httpStatus);
  return error;
}

async function authenticate(request: FastifyRequest, deps: PortalAccessDeps): Promise<StudioPrincipal> {
  return sessionPrincipalOf(request, PORTAL_COOKIE.name, (cookie) => deps.signIn.sessionPrincipal(cookie), {
    refuse: (why) =>
      why === 'missing'
        ? refused(
            request,
            deps,
            '(unknown)',
            'no portal session cookie',
            new AppError('PORTAL_UNAUTHORIZED', 'sign in to the studio portal'),
          )
        : refused(
            request,
            deps,
            '(unknown)',
            'a portal session cookie that is unknown or has ended',
            new AppError('PORTAL_UNAUTHORIZED', 'the portal session has ended: sign in again'),
          ),
    csrfRefused: (p, csrf) =>
      deps.developers.audit('portal-csrf-refused', studioActor(p.name), auditContext(request), csrf, null, 403),
  });
}

/** Installs the access hook and the OpenAPI annotation on the /portal/v1 scope (routes.ts), before its routes. */
export function installPortalAccess(scope: FastifyInstance, deps: PortalAccessDeps): void {
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const open = PORTAL_PUBLIC.has(`${methods[0]} ${route.url}`);
    route.schema = {
      ...route.schema,
      tags: ['portal'],
      security: open ? [] : [{ studioSession: [] }],
      description: [
        route.schema?.description,
        open
          ? 'No sign-in needed.'
          : route.url.includes(':appId')
            ? "A studio developer's portal session; the app must be one of the developer's (else 404)."
            : "A studio developer's portal session.",
      ]
        .filter(Boolean)
        .join('\n\n'),
    } as typeof route.schema;
  });
  scope.addHook('onRequest', async (request) => {
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (PORTAL_PUBLIC.has(`${method} ${request.routeOptions.url}`)) return;
    const principal = await authenticate(request, deps);
    principals.set(request, principal);
  });
  // After validation (bad input is 400 wherever it is sent, and validation does not depend on the app), before
  // any handler: an app that is not the developer's is "not found".
  scope.addHook('preHandler', async (request) => {
    // Every portal route's appId is an IdParam, a number once validated; one that is not matches no app (refused).
    const appId = (request.params as { appId?: number } | undefined)?.appId;
    const principal = principals.get(request);
    if (appId !== undefined && !principal?.appIds.includes(appId))
      // Answered as if the app did not exist, but recorded: a developer trying other studios' apps shows.
      throw await refused(
        request,
        deps,
        principal ? studioActor(principal.name) : '(unknown)',
        `app ${appId} is not one of the developer's`,
        new AppError('NOT_FOUND', `app ${appId} does not exist`),
      );
  });
}
