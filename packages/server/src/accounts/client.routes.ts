import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { validationError } from '../http/error-handler.js';
import { apiRoute, type RouteSchema } from '../http/api-route.js';
import type { AccountMacDeps } from './profile.routes.js';
import {
  BindBody,
  CancellationAnswer,
  ClientIdQuery,
  GuestLoginBody,
  LoginAnswer,
  LoginMethodsAnswer,
  OkAnswer,
  ProviderLoginBody,
  UnbindQuery,
} from './accounts.schemas.js';
import { success } from './envelope.js';

/** A login route: the caller has no token yet. */
const loginRoute = apiRoute({ tags: ['account client'] });
/** A signed-in player's route: a MAC token (5.2). */
const macRoute = apiRoute({ tags: ['account client'], security: [{ macToken: [] }] });

/**
 * The client login API (what the client SDK calls; the spec assumes it):
 * logins that mint MAC tokens, then MAC-authenticated linking, logout and
 * cancellation. Parameters of MAC-authenticated calls go in the query, which
 * the MAC covers (`uri` of 5.2).
 */
export function clientRoutes(deps: AccountMacDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const mac = deps.mac.check({
      clientId: (request) => (request.query as { clientId: string }).clientId,
      replay: 'await',
    });
    // Authentication before body validation: a caller without a valid token learns nothing else. The query (the
    // clientId the token is checked against, covered by the MAC) is validated first, by the route's own schema.
    const player = async (request: FastifyRequest) => {
      const validQuery = request.getValidationFunction('querystring')!; // every route of `player` has one
      if (!validQuery(request.query)) throw validationError(validQuery.errors ?? [], 'querystring');
      await mac(request);
    };
    /** A signed-in player's route, authenticated by `player`. */
    const playerRoute = <S extends RouteSchema>(schema: S) => ({ preValidation: player, ...macRoute(schema) });
    const sessionOf = (request: FastifyRequest) => deps.mac.caller(request).token;
    const context = (request: FastifyRequest) => ({
      ip: request.ip,
      country: deps.accounts.edgeCountry(request.socket.remoteAddress, request.headers),
    });

    app.post(
      '/api/account/v1/client/login/guest',
      loginRoute({
        summary: 'Guest login by device id; answers a MAC token',
        body: GuestLoginBody,
        response: { 200: LoginAnswer },
      }),
      async (request) =>
        success(await deps.accounts.loginGuest(request.body.clientId, request.body.deviceId, context(request))),
    );

    app.post(
      '/api/account/v1/client/login',
      loginRoute({
        summary: 'Login through a provider (ID token or sandbox assertion); answers a MAC token',
        body: ProviderLoginBody,
        response: { 200: LoginAnswer },
      }),
      async (request) =>
        success(
          await deps.accounts.loginWithProvider(
            request.body.clientId,
            request.body.provider,
            request.body.credential,
            context(request),
          ),
        ),
    );

    app.post(
      '/api/account/v1/client/bind',
      playerRoute({
        summary: 'Bind another login method to the current account',
        querystring: ClientIdQuery,
        body: BindBody,
        response: { 200: LoginMethodsAnswer },
      }),
      async (request) =>
        success(await deps.accounts.linking.bind(sessionOf(request), request.body.provider, request.body.credential)),
    );

    app.post(
      '/api/account/v1/client/unbind',
      playerRoute({
        summary: "Unbind a login method (never the last, nor the current session's)",
        querystring: UnbindQuery,
        response: { 200: LoginMethodsAnswer },
      }),
      async (request) => success(await deps.accounts.linking.unbind(sessionOf(request), request.query.loginType)),
    );

    app.post(
      '/api/account/v1/client/logout',
      playerRoute({
        summary: 'Revoke the current token',
        querystring: ClientIdQuery,
        response: { 200: OkAnswer },
      }),
      async (request) => {
        await deps.accounts.logout(sessionOf(request));
        return success(true);
      },
    );

    // The cancellation's two steps on the caller's own account: asked for, then withdrawn while it cools off.
    for (const [path, step, summary] of [
      ['cancellation', 'request', "Ask for the account's cancellation (after CANCELLATION_COOLING_OFF_SECONDS)"],
      ['cancellation/withdraw', 'withdraw', 'Withdraw a pending cancellation'],
    ] as const)
      app.post(
        `/api/account/v1/client/${path}`,
        playerRoute({ summary, querystring: ClientIdQuery, response: { 200: CancellationAnswer } }),
        async (request) => success(await deps.accounts.cancellation[step](sessionOf(request))),
      );
  };
}
