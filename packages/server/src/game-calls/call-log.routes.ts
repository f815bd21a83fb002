import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppIdParams } from '../http/route-params.js';
import type { CallLogService } from './call-log.service.js';
import { GameCall, GameCallList, GameCallListQuery } from './call-log.schemas.js';
import { adminRoute } from '../http/api-route.js';

/** Operator API of the game-call log, mounted under /admin/v1. */
export function callLogRoutes(services: { callLog: CallLogService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(GameCall);

    app.get(
      '/apps/:appId/game-calls',
      adminRoute({
        summary:
          'The role query, role list and pre-order check calls to the game (4.8-4.10), newest first, with outcome and latency',
        params: AppIdParams,
        querystring: GameCallListQuery,
        response: { 200: GameCallList },
      }),
      async (request) => services.callLog.page(request.params.appId, request.query),
    );
  };
}
