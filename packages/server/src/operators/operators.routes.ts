import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { SESSION_COOKIE, principalOf, setSessionCookie } from './admin-access.routes.js';
import { auditContext, cookieValue } from '../identity/session-access.routes.js';
import { ROLE_PERMISSIONS } from './permissions.js';
import { registerAccountRoutes } from '../identity/people.routes.js';
import {
  LoginBody,
  Operator,
  OperatorCreateBody,
  OperatorCreated,
  OperatorPatchBody,
  OperatorToken,
  SessionView,
  TokenCreateBody,
  TokenIdParams,
  TokenQuery,
} from './operators.schemas.js';
import type { Principal } from './operators.service.js';
import { sandboxFlags, type SandboxFlags } from '../identity/sandbox-flags.js';

type SandboxFlagsView = Static<typeof SandboxFlags>;

const tags = ['admin'];

const sessionView = (p: Principal, sandbox: SandboxFlagsView) => ({
  name: p.name,
  role: p.role,
  via: p.kind,
  permissions: [...ROLE_PERMISSIONS[p.role]],
  csrfToken: p.csrfToken ?? null,
  sandbox,
});

/** Sign-in, operator accounts and their API tokens, mounted under /admin/v1 (docs/operators.md). */
export function operatorRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { operators, operatorSignIn, operatorTokens } = services;
  const sandbox = sandboxFlags(services.config);
  return async (app) => {
    app.addSchema(OperatorToken);

    app.post(
      '/session',
      {
        schema: {
          tags,
          summary: 'Console sign-in: name, password and a TOTP code (or a recovery code); sets the session cookie',
          body: LoginBody,
          response: { 200: SessionView, ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        const { session, csrfToken, operator } = await operatorSignIn.login(request.body, auditContext(request));
        setSessionCookie(request, reply, session, services.config.OPERATOR_SESSION_SECONDS);
        return sessionView(
          { kind: 'session', operatorId: null, name: operator.name, role: operator.role, csrfToken },
          sandbox,
        );
      },
    );

    app.get(
      '/session',
      {
        schema: {
          tags,
          summary: 'Who is signed in, with the role, its permissions and the CSRF token of a console session',
          response: { 200: SessionView, ...platformErrorResponses },
        },
      },
      async (request) => sessionView(principalOf(request), sandbox),
    );

    app.delete(
      '/session',
      {
        schema: {
          tags,
          summary: 'Sign out: ends the console session and clears its cookie',
          response: { 204: Type.Null(), ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        await operatorSignIn.logout(principalOf(request), auditContext(request));
        if (cookieValue(request, SESSION_COOKIE) !== undefined) setSessionCookie(request, reply, '', 0);
        return reply.code(204).send(null);
      },
    );

    registerAccountRoutes(app, {
      path: '/operators',
      listKey: 'operators',
      accounts: operators,
      schemas: {
        view: Operator,
        created: OperatorCreated,
        createBody: OperatorCreateBody,
        patchBody: OperatorPatchBody,
      },
      summaries: {
        list: 'List operator accounts',
        create: 'Create an operator; answers its initial password, TOTP secret and recovery codes once',
        get: 'Show an operator',
        patch: "Change an operator's role or disable it (its sessions end; its tokens stop working)",
        resetTotp: 'New TOTP secret and recovery codes (shown once); the old ones and the sessions end',
        resetPassword: 'New password (given or generated, shown once); lifts a lock and ends the sessions',
      },
      actor: (request) => principalOf(request).name,
      ctx: auditContext,
    });

    app.get(
      '/operator-tokens',
      {
        schema: {
          tags,
          summary: "The caller's API tokens (admins and support: any operator's), never their values",
          querystring: TokenQuery,
          response: { 200: Type.Object({ tokens: Type.Array(Type.Ref(OperatorToken)) }), ...platformErrorResponses },
        },
      },
      async (request) => ({ tokens: await operatorTokens.list(principalOf(request), request.query.operator) }),
    );

    app.post(
      '/operator-tokens',
      {
        schema: {
          tags,
          summary: 'A new API token for scripts and the CLI; its value is answered once',
          body: TokenCreateBody,
          response: {
            201: Type.Object({ token: Type.String(), info: Type.Ref(OperatorToken) }),
            ...platformErrorResponses,
          },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await operatorTokens.create(principalOf(request), request.body, auditContext(request))),
    );

    app.delete(
      '/operator-tokens/:tokenId',
      {
        schema: {
          tags,
          summary: 'Revoke an API token (yours; admins: any)',
          params: TokenIdParams,
          response: { 200: Type.Ref(OperatorToken), ...platformErrorResponses },
        },
      },
      async (request) =>
        operatorTokens.revoke(principalOf(request), Number(request.params.tokenId), auditContext(request)),
    );
  };
}
