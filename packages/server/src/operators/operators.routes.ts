import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Config } from '../config/config.js';
import type { PasskeyService } from '../identity/passkeys.service.js';
import type { OperatorTokenService } from './operator-tokens.service.js';
import type { SignInService } from './sign-in.service.js';
import { SESSION_COOKIE, principalOf, setSessionCookie } from './admin-access.routes.js';
import { auditContext, cookieValue } from '../identity/session-access.routes.js';
import { ROLE_PERMISSIONS } from './permissions.js';
import { registerAdminAccountRoutes } from './admin-accounts.routes.js';
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
import type { OperatorService, Principal } from './operators.service.js';
import { AppError } from '../errors/app-error.js';
import { relyingParty } from '../identity/public-origin.routes.js';
import { passkeyCheckOf, registerPasskeyRoutes } from '../identity/passkeys.routes.js';
import { registerInvitationAcceptRoutes } from '../identity/invitations.routes.js';
import { PasskeySignInBody, WebAuthnOptions } from '../identity/passkeys.schemas.js';
import type { FastifyRequest } from 'fastify';
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
/** What the console's sign-in, accounts and tokens routes use. */
export interface OperatorRoutesDeps {
  config: Pick<Config, 'PUBLIC_ORIGIN' | 'OPERATOR_SESSION_SECONDS' | 'SANDBOX_PAYMENTS' | 'SANDBOX_LOGIN'>;
  operators: OperatorService;
  operatorSignIn: SignInService;
  operatorTokens: OperatorTokenService;
  passkeys: PasskeyService;
}

export function operatorRoutes(deps: OperatorRoutesDeps): FastifyPluginAsyncTypebox {
  const { operators, operatorSignIn, operatorTokens, passkeys } = deps;
  const sandbox = sandboxFlags(deps.config);
  const rp = (request: FastifyRequest) => relyingParty(deps.config.PUBLIC_ORIGIN, request, 'Operator console');
  const passkeyOf = passkeyCheckOf(passkeys, operators.people, rp);
  const signedIn =
    (request: FastifyRequest, reply: Parameters<typeof setSessionCookie>[1]) =>
    (r: { session: string; csrfToken: string; operator: { name: string; role: Principal['role'] } }) => {
      setSessionCookie(request, reply, r.session, deps.config.OPERATOR_SESSION_SECONDS);
      return sessionView(
        {
          kind: 'session',
          operatorId: null,
          name: r.operator.name,
          role: r.operator.role,
          csrfToken: r.csrfToken,
        },
        sandbox,
      );
    };
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
      async (request, reply) =>
        signedIn(request, reply)(await operatorSignIn.login(request.body, auditContext(request), passkeyOf(request))),
    );

    app.post(
      '/session/passkey-options',
      {
        schema: {
          tags,
          summary: 'The options of a passkey sign-in (navigator.credentials.get); the challenge is good once',
          response: { 200: WebAuthnOptions, ...platformErrorResponses },
        },
      },
      async (request) => passkeys.signInOptions('platform', rp(request)),
    );

    app.post(
      '/session/passkey',
      {
        schema: {
          tags,
          summary: 'Console sign-in with a passkey alone (no name needed); sets the session cookie',
          body: PasskeySignInBody,
          response: { 200: SessionView, ...platformErrorResponses },
        },
      },
      async (request, reply) =>
        signedIn(
          request,
          reply,
        )(await operatorSignIn.loginWithPasskey(request.body.response, passkeyOf(request), auditContext(request))),
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

    registerAdminAccountRoutes(app, deps.config, {
      path: '/operators',
      listKey: 'operators',
      invitationsPath: '/operator-invitations',
      what: 'operator',
      accounts: operators,
      schemas: {
        view: Operator,
        created: OperatorCreated,
        createBody: OperatorCreateBody,
        patchBody: OperatorPatchBody,
      },
      summaries: {
        list: 'List operator accounts',
        create:
          'Invite an operator: answers the invitation and its link (mailed instead with SMTP_URL and an email); the first admin is answered its password and second factor once',
        get: 'Show an operator',
        patch: "Change an operator's role or disable it (its sessions end; its tokens stop working)",
      },
    });

    registerInvitationAcceptRoutes(app, { invitations: operators.invitations, rp, ctx: auditContext, tags });

    registerPasskeyRoutes(app, {
      passkeys,
      tags,
      rp,
      person: async (request) => {
        const p = principalOf(request);
        const row =
          p.kind === 'session' && p.operatorId !== null ? await operators.people.repo.byId(p.operatorId) : undefined;
        if (!row) throw new AppError('CONFLICT', 'passkeys are managed in a console session, not with a token');
        return row;
      },
      audit: (request, event, note) => {
        const p = principalOf(request);
        return operators.audit(event, p.name, auditContext(request), note, p.operatorId);
      },
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
      async (request) => operatorTokens.revoke(principalOf(request), request.params.tokenId, auditContext(request)),
    );
  };
}
