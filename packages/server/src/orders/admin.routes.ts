import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppService } from '../apps/apps.service.js';
import { AppIdParams } from '../http/route-params.js';
import { PendingSupplement } from './notifications.schemas.js';
import { orderDetails, type OrderDetailsDelivery, type OrderDetailsSources } from './order-details.js';
import type { ProductService } from './catalogue/products.js';
import type { OrderSettingsService } from './catalogue/settings.js';
import type { RefundAbuse } from './refunds/refund-abuse.js';
import type { ConsumptionService } from './consumption/consumption.js';
import {
  CancelBody,
  ConsumptionNoticeQuery,
  Notification,
  OrderQuery,
  Settings,
  SettingsBody,
  SupplementAdmin,
  SupplementQuery,
  TrxNoParams,
  parseOrderQuery,
} from './orders.schemas.js';
import { PageOf, nextBeforeOf } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import { Order } from './orders.view.js';
import { Product, ProductCreateBody, ProductParams, ProductPatchBody } from './catalogue/products.schemas.js';
import { StatusChange } from './status-history.js';
import { ConsumptionNoticeView } from './consumption/consumption.schemas.js';
import { RefundAbuseQuery, Refunders } from './refunds/refund-abuse.schemas.js';
import { WebRefundView } from './refunds/web-refunds.schemas.js';
import { adminRoute } from '../http/api-route.js';

/** Shared schemas of the orders routes, added once at the root (routes.ts). */
export function addOrderSchemas(app: FastifyInstance): void {
  app.addSchema(Order);
  app.addSchema(Product);
  app.addSchema(SupplementAdmin);
  app.addSchema(PendingSupplement);
}

/** What the orders' operator API uses. */
export interface OrderAdminDeps {
  orders: OrderDetailsSources & {
    products: ProductService;
    settings: OrderSettingsService;
    refundAbuse: RefundAbuse;
    consumption: ConsumptionService;
  };
  apps: Pick<AppService, 'get'>;
  delivery: OrderDetailsDelivery;
}

/** Operator API of the orders domain, mounted under /admin/v1. */
export function orderAdminRoutes(services: OrderAdminDeps): FastifyPluginAsyncTypebox {
  const { orders: domain } = services;
  return async (app) => {
    app.post(
      '/apps/:appId/products',
      adminRoute({
        summary: 'Add a product: code, name, unit price, currency, store SKUs',
        params: AppIdParams,
        body: ProductCreateBody,
        response: { 201: Type.Ref(Product) },
      }),
      async (request, reply) => reply.code(201).send(await domain.products.create(request.params.appId, request.body)),
    );

    app.get(
      '/apps/:appId/products',
      adminRoute({
        summary: 'List the products of an app',
        params: AppIdParams,
        response: { 200: Type.Object({ products: Type.Array(Type.Ref(Product)) }) },
      }),
      async (request) => ({ products: await domain.products.list(request.params.appId) }),
    );

    app.get(
      '/apps/:appId/products/:productCode',
      adminRoute({
        summary: 'Show a product',
        params: ProductParams,
        response: { 200: Type.Ref(Product) },
      }),
      async (request) => domain.products.get(request.params.appId, request.params.productCode),
    );

    app.patch(
      '/apps/:appId/products/:productCode',
      adminRoute({
        summary: 'Change a product (name, price, store SKUs, status)',
        params: ProductParams,
        body: ProductPatchBody,
        response: { 200: Type.Ref(Product) },
      }),
      async (request) => domain.products.update(request.params.appId, request.params.productCode, request.body),
    );

    app.get(
      '/apps/:appId/order-settings',
      adminRoute({
        summary: 'Order settings of an app',
        params: AppIdParams,
        response: { 200: Settings },
      }),
      async (request) => {
        await services.apps.get(request.params.appId);
        return domain.settings.get(request.params.appId);
      },
    );

    app.put(
      '/apps/:appId/order-settings',
      adminRoute({
        summary:
          'Change the order settings of an app (web region lock, 2.4 rule 8; refusing store orders of players in arrears, 4.5): fields left out keep their value',
        params: AppIdParams,
        body: SettingsBody,
        response: { 200: Settings },
      }),
      async (request) => domain.settings.put(request.params.appId, request.body),
    );

    app.get(
      '/apps/:appId/refund-abuse',
      adminRoute({
        summary:
          'The players of an app with the most refunds in a window: count, amount per currency, pending supplements (4.5), last refund',
        params: AppIdParams,
        querystring: RefundAbuseQuery,
        response: { 200: Refunders },
      }),
      async (request) => {
        const appId = request.params.appId;
        // Bad filters are 400 whatever the app; then an unknown app is 404.
        const query = domain.refundAbuse.parse(appId, request.query);
        await services.apps.get(appId);
        return domain.refundAbuse.refunders(query);
      },
    );

    app.get(
      '/orders',
      adminRoute({
        summary: 'Find orders by trxNo, outTrxNo, app, user, role, status, type or creation time, newest first',
        querystring: OrderQuery,
        response: {
          200: PageOf('orders', Type.Ref(Order)),
        },
      }),
      async (request) => {
        const filter = parseOrderQuery(request.query);
        const orders = await domain.orders.find(filter);
        return { orders, nextBefore: nextBeforeOf(orders, filter.limit, (o) => o.trxNo) };
      },
    );

    app.get(
      '/orders/:trxNo',
      adminRoute({
        summary: 'Show an order with its status history, refund, supplement and notifications',
        params: TrxNoParams,
        response: {
          200: Type.Object({
            order: Type.Ref(Order),
            statusHistory: Type.Array(StatusChange, {
              description: 'Every status the order took, oldest first (empty for orders placed before migration 0009).',
            }),
            refund: Type.Union([Type.Ref(Order), Type.Null()], { description: 'The (first) refund order.' }),
            refunds: Type.Array(Type.Ref(Order), {
              description: 'Every refund order of a payment, oldest first: a web payment may be refunded in parts.',
            }),
            refundedAmount: Type.Number({ description: 'How much of a web payment its refunds gave back.' }),
            webRefunds: Type.Array(WebRefundView, {
              description: 'The refunds and lost disputes of a web payment at its provider (docs/web-payment.md).',
            }),
            supplement: Type.Union([Type.Ref(SupplementAdmin), Type.Null()]),
            notifications: Type.Array(Notification),
          }),
        },
      }),
      async (request) => orderDetails({ ...services.orders, delivery: services.delivery }, request.params.trxNo),
    );

    app.post(
      '/orders/:trxNo/cancel',
      adminRoute({
        summary: 'Cancel an order that is created or awaiting payment (-> 4)',
        params: TrxNoParams,
        body: Type.Optional(CancelBody),
        response: { 200: Type.Ref(Order) },
      }),
      async (request) => domain.orders.cancel(request.params.trxNo, request.body?.reason ?? 'cancelled by an operator'),
    );

    app.get(
      '/supplements',
      adminRoute({
        summary: 'List supplement orders (default: pending), newest first',
        querystring: SupplementQuery,
        response: {
          200: PageOf('supplements', Type.Ref(SupplementAdmin)),
        },
      }),
      async (request) => {
        const q = request.query;
        const status = q.status ?? 'pending';
        const page = parsePage(q);
        const supplements = await domain.refunds.listSupplements({
          ...(q.appId !== undefined ? { appId: Number(q.appId) } : {}),
          ...(q.userId !== undefined ? { userId: q.userId } : {}),
          ...(status === 'all' ? {} : { supplyStatus: status === 'pending' ? 1 : 2 }),
          ...page,
        });
        return { supplements, nextBefore: nextBeforeOf(supplements, page.limit, (x) => x.tradeNo) };
      },
    );

    app.get(
      '/consumption-notices',
      adminRoute({
        summary: 'List in-game consumption notices (4.6), newest first',
        querystring: ConsumptionNoticeQuery,
        response: {
          200: PageOf('notices', ConsumptionNoticeView),
        },
      }),
      async (request) => {
        const q = request.query;
        const page = parsePage(q);
        const notices = await domain.consumption.list({
          ...(q.appId !== undefined ? { appId: Number(q.appId) } : {}),
          ...(q.userId !== undefined ? { userId: q.userId } : {}),
          ...page,
        });
        return { notices, nextBefore: nextBeforeOf(notices, page.limit, (n) => n.noticeId) };
      },
    );
  };
}
