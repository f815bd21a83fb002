import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Text } from '../http/schemas.js';
import { PageOf, nextBeforeOf, pageQuery } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import type { OrdersDomain } from '../orders/orders.module.js';
import { Order, type Order as OrderView } from '../orders/orders.view.js';
import { RefundAbuseQuery, Refunders } from '../orders/refunds/refund-abuse.schemas.js';
import { AppIdParams } from '../http/route-params.js';
import { portalRoute } from '../http/api-route.js';

/**
 * An order as a studio sees it: what its game receives of the order in the notifications (2.4, 2.5) and its status;
 * not the platform's own bookkeeping (origin, failure reason, merged receipts).
 */
const PortalOrder = Type.Omit(Order, ['origin', 'failureReason', 'mergedReceipts'], {
  title: 'Order (studio view)',
});
const portalOrder = ({ origin: _o, failureReason: _f, mergedReceipts: _m, ...order }: OrderView) => order;

const PortalPlayerOrdersQuery = Type.Object(
  {
    userId: Text({ minLength: 1, maxLength: 64, description: 'The player (platform user id) whose orders to list.' }),
    ...pageQuery('orders (by trxNo)'),
  },
  { additionalProperties: false },
);

/**
 * Refund abuse in sight for a studio (docs/portal.md): its app's players with the most refunds, and one player's
 * orders of the app, read-only. The app is already checked to be the developer's (portal-access.routes.ts).
 */
export function portalOrderRoutes(services: {
  orders: Pick<OrdersDomain, 'refundAbuse' | 'orders'>;
}): FastifyPluginAsyncTypebox {
  const { orders: domain } = services;
  return async (app) => {
    app.get(
      '/apps/:appId/refund-abuse',
      portalRoute({
        summary:
          "The app's players with the most refunds in a window: count, amount per currency, pending supplements (4.5), last refund",
        params: AppIdParams,
        querystring: RefundAbuseQuery,
        response: { 200: Refunders },
      }),
      async (request) => domain.refundAbuse.refunders(domain.refundAbuse.parse(request.params.appId, request.query)),
    );

    app.get(
      '/apps/:appId/orders',
      portalRoute({
        summary: "One player's orders of the app (payments, supplement payments, refunds), newest first, read-only",
        params: AppIdParams,
        querystring: PortalPlayerOrdersQuery,
        response: { 200: PageOf('orders', PortalOrder) },
      }),
      async (request) => {
        const page = parsePage(request.query);
        const orders = await domain.orders.find({ appId: request.params.appId, userId: request.query.userId, ...page });
        return { orders: orders.map(portalOrder), nextBefore: nextBeforeOf(orders, page.limit, (o) => o.trxNo) };
      },
    );
  };
}
