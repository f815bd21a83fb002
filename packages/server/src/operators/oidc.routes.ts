import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors/app-error.js';
import { Text, platformErrorResponses } from '../http/schemas.js';
import type { Config } from '../config/config.js';
import type { OperatorService } from './operators.service.js';
import type { SignInService } from './sign-in.service.js';
import { sessionCookie } from './admin-access.routes.js';
import { LOOPBACK, auditContext, cookieValue } from '../identity/session-access.routes.js';
import { OidcRefused, PENDING_SECONDS, type OidcSignIn } from '../identity/oidc.js';

/** The provider's redirect (OpenID Connect Core 3.1.2.5-6); other parameters a provider adds are let through. */
const CallbackQuery = Type.Object({
  code: Type.Optional(Text({ minLength: 1, maxLength: 2048 })),
  state: Type.Optional(Text({ minLength: 1, maxLength: 512 })),
  iss: Type.Optional(Text({ minLength: 1, maxLength: 512 })),
  error: Type.Optional(Text({ minLength: 1, maxLength: 256 })),
  error_description: Type.Optional(Text({ maxLength: 1024 })),
});

/** The sealed state of a sign-in in progress: sent back only to the callback, and on the provider's redirect (Lax). */
const PENDING_COOKIE = 'gp_oidc_pending';
const PENDING_PATH = '/admin/v1/session/oidc';

function pendingCookie(request: FastifyRequest, value: string, maxAge: number): string {
  const secure = LOOPBACK.has(request.hostname.replace(/:\d+$/, '')) ? '' : '; Secure';
  return `${PENDING_COOKIE}=${value}; Path=${PENDING_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * OpenID Connect sign-in of operators (docs/operators.md, "OpenID Connect"), under /admin/v1: the console's link
 * starts it, the provider redirects back to the callback, which opens the same session cookie as the password
 * sign-in and returns to the console. A refusal returns to the console's sign-in screen with `?oidc=refused`; why
 * is in the audit trail only.
 */
export function oidcRoutes(deps: {
  config: Pick<Config, 'OPERATOR_SESSION_SECONDS'>;
  operators: OperatorService;
  operatorSignIn: SignInService;
  /** Null when OIDC_ISSUER_URL is unset. */
  operatorOidc: OidcSignIn | null;
}): FastifyPluginAsyncTypebox {
  const oidc = deps.operatorOidc;
  const notConfigured = () => new AppError('NOT_FOUND', 'OpenID Connect sign-in is not configured (OIDC_ISSUER_URL)');
  return async (app) => {
    app.get(
      '/session/methods',
      {
        schema: {
          tags: ['admin'],
          summary: 'How operators may sign in to the console: password (always) and OpenID Connect (when configured)',
          response: {
            200: Type.Object({
              password: Type.Boolean(),
              oidc: Type.Boolean(),
              firstRun: Type.Boolean({
                description:
                  'True while the service has no operator account at all: the sign-in screen then points to the break-glass token and the first admin. Nothing more about accounts is told.',
              }),
            }),
          },
        },
      },
      async () => ({ password: true, oidc: oidc !== null, firstRun: !(await deps.operators.people.hasAny()) }),
    );

    app.get(
      '/session/oidc',
      {
        schema: {
          tags: ['admin'],
          summary: "Starts an OpenID Connect sign-in: redirects to the company's identity provider",
          response: { ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        if (!oidc) throw notConfigured();
        const { url, pending } = await oidc.start();
        reply.header('set-cookie', pendingCookie(request, pending, PENDING_SECONDS));
        reply.header('cache-control', 'no-store');
        return reply.redirect(url, 302);
      },
    );

    app.get(
      '/session/oidc/callback',
      {
        schema: {
          tags: ['admin'],
          summary:
            "The identity provider's redirect: checks the answer, signs the operator in (session cookie) and returns to the console",
          querystring: CallbackQuery,
          response: { ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        if (!oidc) throw notConfigured();
        const ctx = auditContext(request);
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        reply.header('cache-control', 'no-store');
        try {
          const name = await oidc.finish(query, cookieValue(request, PENDING_COOKIE));
          const { session } = await deps.operatorSignIn.loginVerified(name, 'OpenID Connect', ctx);
          reply.header('set-cookie', [
            pendingCookie(request, '', 0),
            sessionCookie(request, session, deps.config.OPERATOR_SESSION_SECONDS),
          ]);
          return reply.redirect('/console?oidc=signed-in#/', 302);
        } catch (err) {
          if (err instanceof OidcRefused) await deps.operatorSignIn.refuseUnnamed(err.message, ctx).catch(() => {});
          else if (!(err instanceof AppError) || err.reason !== 'OPERATOR_LOGIN_FAILED') throw err;
          reply.header('set-cookie', pendingCookie(request, '', 0));
          return reply.redirect('/console?oidc=refused', 302);
        }
      },
    );
  };
}
