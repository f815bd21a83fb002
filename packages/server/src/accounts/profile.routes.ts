import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { ClientIdQuery, Profile } from './accounts.schemas.js';

/** 4.3 Login verification: the game server exchanges the client's MAC token for the profile of 2.2. */
export function profileRoutes(services: Services): FastifyPluginAsyncTypebox {
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
        preHandler: services.mac.hook({
          clientId: (request) => (request.query as { clientId: string }).clientId,
          replay: 'await',
        }),
      },
      async (request) => {
        const { app: record, token } = services.mac.caller(request);
        return services.accounts.profile(record, token);
      },
    );
  };
}
