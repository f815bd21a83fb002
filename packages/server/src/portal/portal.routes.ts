import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { sandboxFlags, SandboxFlags } from '../identity/sandbox-flags.js';
import type { Config } from '../config/config.js';
import type { AppService } from '../apps/apps.service.js';
import type { PlatformKeyService } from '../platform-keys/keys.service.js';
import type { PasskeyService } from '../identity/passkeys.service.js';
import type { PortalSignInService } from './portal-sign-in.service.js';
import type { StudioDeveloperService } from './studio-developers.service.js';
import type { OverviewSources } from '../overview/overview.service.js';
import { App, AppList, AppWithSecret } from '../apps/apps.schemas.js';
import { PublicKey } from '../platform-keys/keys.routes.js';
import { LoginBody } from '../operators/operators.schemas.js';
import { auditContext, cookieValue } from '../identity/session-access.routes.js';
import { PORTAL_COOKIE, setPortalCookie, studioOf } from './portal-access.routes.js';
import { PortalAppPatchBody, PortalSession } from './portal.schemas.js';
import { AppIdParams } from '../http/route-params.js';
import type { StudioPrincipal } from './portal-sign-in.service.js';
import { Overview, PortalOverviewQuery } from '../overview/overview.schemas.js';
import { parseOverviewQuery, readOverview } from '../overview/overview.service.js';
import { portalRoute } from '../http/api-route.js';
import { relyingParty } from '../identity/public-origin.routes.js';
import { passkeyCheckOf, registerPasskeyRoutes } from '../identity/passkeys.routes.js';
import { registerInvitationAcceptRoutes } from '../identity/invitations.routes.js';
import { PasskeySignInBody, WebAuthnOptions } from '../identity/passkeys.schemas.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { studioActor } from './studio-developers.service.js';

const sessionView = (p: StudioPrincipal, sandbox: Static<typeof SandboxFlags>) => ({
  name: p.name,
  appIds: p.appIds,
  refundAppIds: p.refundAppIds,
  csrfToken: p.csrfToken,
  sandbox,
});

/**
 * The studio portal API, mounted under /portal/v1 behind portal-access.routes.ts (docs/portal.md): sign-in, the
 * developer's apps with their URLs and md5 secret, and the platform public keys. Every app route goes through the
 * same domain functions as the admin API, so the same checks apply.
 */
/** What the portal's own routes use. */
export interface PortalRoutesDeps {
  config: Pick<Config, 'PUBLIC_ORIGIN' | 'OPERATOR_SESSION_SECONDS' | 'SANDBOX_PAYMENTS' | 'SANDBOX_LOGIN'>;
  apps: Pick<AppService, 'list' | 'get' | 'update' | 'rotateSecret'>;
  keys: Pick<PlatformKeyService, 'list'>;
  portalSignIn: PortalSignInService;
  passkeys: PasskeyService;
  studioDevelopers: StudioDeveloperService;
  /** The studio's overview series (overview.module.ts): no open report queue. */
  overview: { studio: OverviewSources };
}

export function portalRoutes(services: PortalRoutesDeps): FastifyPluginAsyncTypebox {
  const { apps, portalSignIn, passkeys, studioDevelopers } = services;
  const overviewSources = services.overview.studio;
  const sandbox = sandboxFlags(services.config);
  const rp = (request: FastifyRequest) => relyingParty(services.config.PUBLIC_ORIGIN, request, 'Studio portal');
  const passkeyOf = passkeyCheckOf(passkeys, studioDevelopers.people, rp);
  const signedIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    r: { session: string; principal: StudioPrincipal },
  ) => {
    setPortalCookie(request, reply, r.session, services.config.OPERATOR_SESSION_SECONDS);
    return sessionView(r.principal, sandbox);
  };
  return async (app) => {
    app.addSchema(Overview);
    app.post(
      '/session',
      portalRoute({
        summary: 'Portal sign-in: name, password and a TOTP code (or a recovery code); sets the portal cookie',
        body: LoginBody,
        response: { 200: PortalSession },
      }),
      async (request, reply) =>
        signedIn(request, reply, await portalSignIn.login(request.body, auditContext(request), passkeyOf(request))),
    );

    app.post(
      '/session/passkey-options',
      portalRoute({
        summary: 'The options of a passkey sign-in (navigator.credentials.get); the challenge is good once',
        response: { 200: WebAuthnOptions },
      }),
      async (request) => passkeys.signInOptions('studio', rp(request)),
    );

    app.post(
      '/session/passkey',
      portalRoute({
        summary: 'Portal sign-in with a passkey alone (no name needed); sets the portal cookie',
        body: PasskeySignInBody,
        response: { 200: PortalSession },
      }),
      async (request, reply) =>
        signedIn(
          request,
          reply,
          await portalSignIn.loginWithPasskey(request.body.response, passkeyOf(request), auditContext(request)),
        ),
    );

    registerInvitationAcceptRoutes(app, {
      invitations: studioDevelopers.invitations,
      rp,
      ctx: auditContext,
      tags: ['portal'],
    });

    registerPasskeyRoutes(app, {
      passkeys,
      tags: ['portal'],
      rp,
      person: async (request) => (await studioDevelopers.people.repo.byId(studioOf(request).developerId))!,
      audit: (request, event, note) =>
        studioDevelopers.audit(event, studioActor(studioOf(request).name), auditContext(request), note),
    });

    app.get(
      '/session',
      portalRoute({
        summary: 'Who is signed in, the apps it sees and the CSRF token of the session',
        response: { 200: PortalSession },
      }),
      async (request) => sessionView(studioOf(request), sandbox),
    );

    app.delete(
      '/session',
      portalRoute({ summary: 'Sign out of the portal', response: { 204: Type.Null() } }),
      async (request, reply) => {
        await portalSignIn.logout(studioOf(request), auditContext(request));
        if (cookieValue(request, PORTAL_COOKIE.name) !== undefined) setPortalCookie(request, reply, '', 0);
        return reply.code(204).send(null);
      },
    );

    app.get('/apps', portalRoute({ summary: "The developer's apps", response: { 200: AppList } }), async (request) => {
      const mine = new Set(studioOf(request).appIds);
      return { apps: (await apps.list()).filter((a) => mine.has(a.appId)) };
    });

    app.get(
      '/apps/:appId',
      portalRoute({
        summary: 'Show an app with its callback and game URLs',
        params: AppIdParams,
        response: { 200: Type.Ref(App) },
      }),
      async (request) => apps.get(request.params.appId),
    );

    app.patch(
      '/apps/:appId',
      portalRoute({
        summary: 'Set the callback URLs (4.7) and the game URLs (4.8-4.10, 6, 4.6), checked as the admin API does',
        params: AppIdParams,
        body: PortalAppPatchBody,
        response: { 200: Type.Ref(App) },
      }),
      async (request) => apps.update(request.params.appId, request.body),
    );

    app.get(
      '/apps/:appId/overview',
      portalRoute({
        summary:
          "The app's overview for a window: notifications per hour by outcome, attempt latency, failure reasons, orders per day and game-call failures (no report queue)",
        params: AppIdParams,
        querystring: PortalOverviewQuery,
        response: { 200: Type.Ref(Overview) },
      }),
      async (request) =>
        readOverview(overviewSources, {
          ...parseOverviewQuery(request.query, Date.now()),
          appId: request.params.appId,
        }),
    );

    app.post(
      '/apps/:appId/rotate-secret',
      portalRoute({
        summary: 'New md5 secret, answered once; the previous one stays valid for SECRET_GRACE_SECONDS',
        params: AppIdParams,
        response: { 200: AppWithSecret },
      }),
      async (request) => {
        const { app: rotated, secret } = await apps.rotateSecret(request.params.appId);
        return { ...rotated, secret };
      },
    );

    app.get(
      '/platform-keys',
      portalRoute({
        summary: 'The platform public keys (PEM) that verify the calls and notifications the platform signs (5.3)',
        response: { 200: Type.Object({ keys: Type.Array(PublicKey) }) },
      }),
      async () => ({ keys: await services.keys.list() }),
    );
  };
}
