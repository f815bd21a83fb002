import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { Services } from '../services.js';
import { ConsumptionNoticeAnswer, ConsumptionNoticeBody } from './consumption.schemas.js';

/** 4.6: POST /order/v1/game/pay/notify (game server, md5 of 5.1). */
export function consumptionRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/order/v1/game/pay/notify',
      {
        schema: {
          tags: ['orders'],
          summary: 'In-game consumption notice (4.6): stored and forwarded to the store partner',
          body: ConsumptionNoticeBody,
          response: { 200: ConsumptionNoticeAnswer, ...platformErrorResponses },
        },
      },
      async (request) => {
        const stored = await services.orders.consumption.notify(services, request.body);
        return {
          code: 200 as const,
          msg: 'success',
          detail: stored ? 'notice stored' : 'notice already stored',
          data: true as const,
        };
      },
    );
  };
}
