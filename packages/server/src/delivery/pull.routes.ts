import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invalidParameter } from '../errors/app-error.js';
import { platformErrorResponses, platformSuccess, Text } from '../http/schemas.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { Md5Scheme } from '../auth/md5.js';
import type { DeliveryService } from './delivery.service.js';
import { parseLimit } from '../http/admin-query.js';

const Digits = (description: string) => Type.String({ pattern: '^[0-9]{1,15}$', description });

const PullQuery = Type.Object(
  {
    clientId: Text({ minLength: 1, maxLength: 64 }),
    since: Type.Optional(Digits('Unix milliseconds: notifications created at or after. Default 0.')),
    cursor: Type.Optional(Digits('notifyId of the last notification already seen (nextCursor of the previous page).')),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1-500, default 100.' })),
    nonce: Text({ minLength: 1, maxLength: 128 }),
    timestamp: Type.String({ pattern: '^[0-9]{1,12}$', description: 'Unix seconds.' }),
    sign: Text({ description: 'md5 of 5.1 over every other query parameter.' }),
  },
  { additionalProperties: false },
);

const Notification = Type.Object({
  notifyId: Type.Integer(),
  type: Type.String({ description: 'payment | refund | cancellation | test' }),
  serverId: Type.Union([Type.String(), Type.Null()]),
  state: Type.String({ description: 'pending | delivered | dead' }),
  attempts: Type.Integer(),
  createdAt: Type.Integer({ description: 'Unix milliseconds.' }),
  deliveredAt: Type.Union([Type.Integer(), Type.Null()]),
  body: Type.String({ description: 'The notification body exactly as signed and POSTed to the callback.' }),
});

/**
 * Pull reconciliation (an extension beyond the spec): a game server lists its
 * app's notifications since a time or after a cursor, with their bodies and
 * delivery state, to catch up without waiting for retries. Signed with the
 * md5 scheme of 5.1 over the query parameters; answers the 2.3 envelope.
 */
export function pullRoutes(services: {
  md5: Md5Scheme<AppRecord>;
  delivery: DeliveryService;
}): FastifyPluginAsyncTypebox {
  const md5 = services.md5.hook({ from: 'query', clientId: (query) => query.clientId, recordNonce: 'hook' });
  return async (app) => {
    app.get(
      '/api/notify/v1/events',
      {
        schema: {
          tags: ['extensions'],
          summary: "List this app's notifications with their delivery state (pull reconciliation, extension)",
          querystring: PullQuery,
          response: {
            200: platformSuccess(
              Type.Object({ list: Type.Array(Notification), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
            ),
            ...platformErrorResponses,
          },
        },
        preHandler: [
          async (request) => {
            parseLimit('limit', request.query.limit, 100, 500); // 400 naming the field before the signature
          },
          md5,
        ],
      },
      async (request) => {
        const q = request.query;
        const limit = parseLimit('limit', q.limit, 100, 500);
        const gameApp = services.md5.caller(request).app;
        const since = q.since === undefined ? 0 : Number(q.since);
        const after = q.cursor === undefined ? 0 : Number(q.cursor);
        if (!Number.isSafeInteger(since)) throw invalidParameter('since', 'must be Unix milliseconds');
        const rows = await services.delivery.events.forGame(gameApp.appId, { since, after, limit });
        return {
          code: 200 as const,
          msg: 'success',
          detail: '',
          data: {
            list: rows.map((r) => ({
              notifyId: r.event_id,
              type: r.type,
              serverId: r.server_id,
              state: r.state,
              attempts: r.attempts,
              createdAt: r.created_at,
              deliveredAt: r.delivered_at,
              body: r.body,
            })),
            nextCursor: rows.length === limit ? String(rows[rows.length - 1]!.event_id) : null,
          },
        };
      },
    );
  };
}
