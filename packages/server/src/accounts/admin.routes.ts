import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Text } from '../http/schemas.js';
import type { AccountService } from './accounts.service.js';
import {
  BanBody,
  CancellationRun,
  LiftedAnswer,
  RevokedAnswer,
  UserDetail,
  UserFindQuery,
  UserIdParams,
  UserList,
} from './accounts.schemas.js';
import { SandboxAssertionBody } from './providers/sandbox.js';
import { actingName } from '../operators/admin-access.routes.js';
import { adminRoute } from '../http/api-route.js';

/** Admin API of accounts, mounted under /admin/v1. */
/** What the operator's account routes use. */
export interface AccountAdminRoutesDeps {
  accounts: AccountService;
}

export function accountAdminRoutes(deps: AccountAdminRoutesDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/users',
      adminRoute({
        summary: 'Find users by exactly one of userId, userCode, openId (+ loginType), email',
        querystring: UserFindQuery,
        response: { 200: UserList },
      }),
      async (request) => ({ users: await deps.accounts.users.find(request.query) }),
    );

    app.get(
      '/users/:userId',
      adminRoute({
        summary: 'A user with bound login methods, sessions (tokens), apps and bans',
        params: UserIdParams,
        response: { 200: UserDetail },
      }),
      async (request) => deps.accounts.users.detail(request.params.userId),
    );

    app.post(
      '/users/:userId/revoke-tokens',
      adminRoute({
        summary: 'Revoke every token of a user',
        params: UserIdParams,
        response: { 200: RevokedAnswer },
      }),
      async (request) => ({ revoked: await deps.accounts.users.revokeTokens(request.params.userId) }),
    );

    app.post(
      '/users/:userId/ban',
      adminRoute({
        summary: 'Ban a user: tokens revoked now, logins refused (40302) until the ban ends',
        params: UserIdParams,
        body: BanBody,
        response: {
          201: Type.Object({
            banId: Type.Integer(),
            reason: Type.String(),
            until: Type.Union([Type.String(), Type.Null()]),
            actor: Type.String(),
            createdAt: Type.String(),
            liftedAt: Type.Union([Type.String(), Type.Null()]),
            liftedBy: Type.Union([Type.String(), Type.Null()]),
          }),
        },
      }),
      async (request, reply) => {
        const { reason, until, actor } = request.body;
        const ban = await deps.accounts.bans.banUser(request.params.userId, {
          reason,
          until: until === null ? null : Date.parse(until),
          actor: actingName(request, actor) ?? 'admin-api',
        });
        return reply.code(201).send(ban);
      },
    );

    app.post(
      '/users/:userId/unban',
      adminRoute({
        summary: 'Lift every ban in force on a user',
        params: UserIdParams,
        querystring: Type.Object({ actor: Type.Optional(Text({ minLength: 1, maxLength: 100 })) }),
        response: { 200: LiftedAnswer },
      }),
      async (request) => ({
        lifted: await deps.accounts.bans.liftBan(
          request.params.userId,
          actingName(request, request.query.actor) ?? 'admin-api',
        ),
      }),
    );

    app.post(
      '/accounts/process-cancellations',
      adminRoute({
        summary: 'Cancel now every account whose cooling-off has ended (the periodic job does it too)',
        response: { 200: CancellationRun },
      }),
      async () => ({ cancelled: (await deps.accounts.cancellation.processDue()).map(String) }),
    );

    const sandbox = deps.accounts.sandbox;
    if (sandbox) {
      app.post(
        '/sandbox/login-assertions',
        adminRoute({
          summary: 'Mint a sandbox login assertion (SANDBOX_LOGIN only)',
          body: SandboxAssertionBody,
          response: {
            201: Type.Object({ assertion: Type.String(), expiresAt: Type.String() }),
          },
        }),
        async (request, reply) => reply.code(201).send(sandbox.mint(request.body)),
      );
    }
  };
}
