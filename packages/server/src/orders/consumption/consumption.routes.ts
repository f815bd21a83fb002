import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { appIdBodyMd5 } from '../../http/app-id-md5.js';
import { apiRoute } from '../../http/api-route.js';
import type { AppRecord, AppService } from '../../apps/apps.service.js';
import type { Md5Scheme } from '../../auth/md5.js';
import type { ConsumptionService } from './consumption.js';
import { ConsumptionNoticeAnswer, ConsumptionNoticeBody } from './consumption.schemas.js';

/** What the consumption notice route uses. */
export interface ConsumptionRoutesDeps {
  md5: Md5Scheme<AppRecord>;
  apps: Pick<AppService, 'resolveByAppId'>;
  orders: { consumption: ConsumptionService };
}

/** A route of the game server's order API (md5 of 5.1); the platform's error answers (2.3) are added. */
const gameRoute = apiRoute({ tags: ['orders'] });

/** 4.6: POST /order/v1/game/pay/notify (game server, md5 of 5.1). */
export function consumptionRoutes(services: ConsumptionRoutesDeps): FastifyPluginAsyncTypebox {
  // 4.6 names its app by appId; its nonce is recorded in the batch that stores the notice (one round trip per batch,
  // not two).
  const md5 = services.md5.hook(appIdBodyMd5((appId) => services.apps.resolveByAppId(appId), 'store'));
  return async (app) => {
    app.post(
      '/order/v1/game/pay/notify',
      {
        ...gameRoute({
          summary: 'In-game consumption notice (4.6): stored and forwarded to the store partner',
          body: ConsumptionNoticeBody,
          response: { 200: ConsumptionNoticeAnswer },
        }),
        preHandler: md5,
      },
      async (request) => {
        const { app, nonce } = services.md5.caller(request);
        const stored = await services.orders.consumption.notify(app.appId, request.body, nonce!);
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
