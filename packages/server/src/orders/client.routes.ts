import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses, platformSuccess } from '../http/schemas.js';
import type { Services } from '../services.js';
import { PendingSupplement } from './notifications.schemas.js';
import { Order } from './orders.view.js';

const ClientIdQuery = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64, description: 'Client id issued by the platform.' }) });
const TradeNoParams = Type.Object({ tradeNo: Type.String({ pattern: '^[0-9]{1,15}$' }) });
const security = [{ macToken: [] }];

export const PlacedOrder = Type.Object({
  order: Type.Ref(Order),
  payment: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], { description: 'What the client needs to pay; null when an earlier identical order is answered.' }),
  created: Type.Boolean({ description: 'false: the same request was placed before and that order is answered (2.4 rule 5).' }),
});

const ok = <T>(data: T, detail = '') => ({ code: 200 as const, msg: 'success', detail, data });

/** The player's order API (MAC token of 5.2): arrears (4.5) and supplement payment. */
export function orderClientRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { orders: domain } = services;
  return async (app) => {
    app.get('/order/v1/user/arrears', {
      schema: {
        tags: ['orders'], security, querystring: ClientIdQuery,
        summary: 'Pending supplement orders of the token\'s user after store refunds (4.5)',
        response: { 200: platformSuccess(Type.Object({ list: Type.Array(Type.Ref(PendingSupplement)) })), ...platformErrorResponses },
      },
    }, async (request) => {
      const player = await services.accounts.authenticatePlayer(request, request.query.clientId);
      return ok({ list: await domain.refunds.arrears(player.appId, player.userId) });
    });

    app.post('/order/v1/user/arrears/:tradeNo/pay', {
      schema: {
        tags: ['orders'], security, querystring: ClientIdQuery, params: TradeNoParams,
        summary: 'Pay a pending supplement order: opens a supplement payment (trxType 1); paid, it sends no notification (2.5 rule 3)',
        response: { 200: platformSuccess(PlacedOrder), ...platformErrorResponses },
      },
    }, async (request) => {
      const player = await services.accounts.authenticatePlayer(request, request.query.clientId);
      return ok(await domain.refunds.startSupplementPayment(player.appId, player.userId, Number(request.params.tradeNo)));
    });
  };
}
