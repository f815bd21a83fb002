import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { SvcIdAnswer, SvcIdQuery } from './accounts.schemas.js';
import { success } from './envelope.js';

/** 4.4 Platform user id by open id; allow-listed caller IPs only. */
export function svcIdRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/account/v1/svc_id',
      {
        schema: {
          tags: ['account'],
          summary: "Platform user id (svcid) of an open id; caller IP must be on the app's allow-list (4.4)",
          querystring: SvcIdQuery,
          response: { 200: SvcIdAnswer, ...platformErrorResponses },
        },
      },
      async (request) => {
        const { clientId, loginType, openId } = request.query;
        // request.ip: the peer, or X-Forwarded-For only when the peer is in TRUSTED_PROXIES (http/server.ts).
        return success({ svcid: await services.accounts.svcId(clientId, request.ip, loginType, openId) });
      },
    );
  };
}
