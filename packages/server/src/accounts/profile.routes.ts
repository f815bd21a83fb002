import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { MacScheme } from '../auth/mac.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { AccountService } from './accounts.service.js';
import type { TokenSession } from './tokens.service.js';
import { ClientIdQuery, Profile } from './accounts.schemas.js';

/** 4.3 Login verification: the game server exchanges the client's MAC token for the profile of 2.2. */
/** What the player-facing account routes use: the accounts and the MAC scheme of 5.2 over their tokens. */
export interface AccountMacDeps {
  accounts: AccountService;
  mac: MacScheme<AppRecord, TokenSession>;
}

export function profileRoutes(deps: AccountMacDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/account/v1/user/profile',
      {
        schema: {
          tags: ['account'],
          summary: "Login verification: the profile (2.2) of the MAC token's user (4.3)",
          security: [{ macToken: [] }],
          querystring: ClientIdQuery,
          response: { 200: Profile, ...platformErrorResponses },
        },
        preHandler: deps.mac.hook({
          clientId: (request) => (request.query as { clientId: string }).clientId,
          replay: 'await',
        }),
      },
      async (request) => {
        const { app: record, token } = deps.mac.caller(request);
        return deps.accounts.profile(record, token);
      },
    );
  };
}
