import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PAGE_DEFAULT, PAGE_MAX, parseLimit, parseTime } from '../http/admin-query.js';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { AppIdParams, GameCall, GameCallList, GameCallListQuery } from './call-log.schemas.js';

/** Operator API of the game-call log, mounted under /admin/v1. */
export function callLogRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(GameCall);

    app.get('/apps/:appId/game-calls', {
      schema: {
        tags: ['admin'], security: [{ adminBearer: [] }],
        summary: 'The role query, role list and pre-order check calls to the game (4.8-4.10), newest first, with outcome and latency',
        params: AppIdParams, querystring: GameCallListQuery, response: { 200: GameCallList, ...platformErrorResponses },
      },
    }, async (request) => {
      const q = request.query;
      const limit = parseLimit('limit', q.limit, PAGE_DEFAULT, PAGE_MAX);
      const calls = await services.callLog.list({
        appId: Number(request.params.appId),
        ...(q.kind !== undefined ? { kind: q.kind } : {}),
        ...(q.outcome !== undefined ? { outcome: q.outcome } : {}),
        ...(q.roleId !== undefined ? { roleId: q.roleId } : {}),
        ...(q.serverId !== undefined ? { serverId: q.serverId } : {}),
        ...(q.userId !== undefined ? { userId: q.userId } : {}),
        ...(q.failed === 'true' ? { failed: true } : {}),
        ...(q.from !== undefined ? { from: parseTime('from', q.from) } : {}),
        ...(q.to !== undefined ? { to: parseTime('to', q.to) } : {}),
        ...(q.before !== undefined ? { before: Number(q.before) } : {}),
        limit,
      });
      return { calls, nextBefore: calls.length === limit ? calls[calls.length - 1]!.callId : null };
    });
  };
}
