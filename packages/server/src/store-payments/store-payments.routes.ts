import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { platformErrorResponses, platformSuccess } from '../http/schemas.js';
import { messageListRoute } from '../orders/payments/channel-messages.routes.js';
import { playerAuth } from '../accounts/accounts.service.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import { Order } from '../orders/orders.view.js';
import type { AppRecord, AppService } from '../apps/apps.service.js';
import type { TokenSession } from '../accounts/tokens.service.js';
import type { MacScheme } from '../auth/mac.js';
import type { Md5Scheme } from '../auth/md5.js';
import { AppIdParams } from '../http/route-params.js';
import type { StorePurchases } from './purchases.js';
import type { StoreNotifications } from './notify.js';
import type { StoreConsumption } from './consumption.js';
import type { MessageResult, StoreMessages } from './notifications.js';
import {
  AppleNotificationBody,
  ConsumptionReportBody,
  ConsumptionRequestView,
  toConsumptionRequest,
  AppleTransactionsBody,
  GooglePurchaseBody,
  GooglePushBody,
  NotifyAnswer,
  StoreMessage,
  StoreMessageList,
  StoreMessagesQuery,
  TrxNoParams,
  parseStoreMessagesQuery,
  toMessage,
} from './store-payments.schemas.js';
import { adminRoute } from '../http/api-route.js';
import { appIdBodyMd5 } from '../http/app-id-md5.js';
import { ClientIdQuery } from '../accounts/accounts.schemas.js';
import { clientMac } from '../orders/placement/client-mac.routes.js';

/** The store payments' services, as the routes use them. */
interface StorePayments {
  purchases: StorePurchases;
  notifications: StoreNotifications;
  messages: Pick<StoreMessages, 'list'>;
  consumption: Pick<StoreConsumption, 'report' | 'list'>;
}
type Apps = Pick<AppService, 'get' | 'resolveByAppId'>;

const ok = <T>(data: T, detail = '') => ({ code: 200 as const, msg: 'success', detail, data });

/** The player submits the store's proof of purchase for an order opened at channel 1 or 2 (MAC token of 5.2). */
export function storePurchaseRoutes(services: {
  storePayments: Pick<StorePayments, 'purchases'>;
  mac: MacScheme<AppRecord, TokenSession>;
}): FastifyPluginAsyncTypebox {
  const { purchases } = services.storePayments;
  const mac = clientMac(services.mac, 'await');
  const common = { tags: ['orders'], security: [{ macToken: [] }], querystring: ClientIdQuery, params: TrxNoParams };
  return async (app) => {
    app.post(
      '/order/v1/client/orders/:trxNo/apple-transactions',
      {
        schema: {
          ...common,
          body: AppleTransactionsBody,
          summary:
            'Pay an App Store order (channel 1) with StoreKit 2 signed transactions; several are a merged receipt (2.4 rules 3, 9)',
          response: { 200: platformSuccess(Type.Ref(Order)), ...platformErrorResponses },
        },
        preHandler: mac,
      },
      async (request) => {
        const player = playerAuth(services.mac.caller(request));
        const order = await purchases.apple(player, request.params.trxNo, request.body.signedTransactions);
        return ok(order, 'order paid');
      },
    );

    app.post(
      '/order/v1/client/orders/:trxNo/google-purchases',
      {
        schema: {
          ...common,
          body: GooglePurchaseBody,
          summary: 'Pay a Google Play order (channel 2) with a purchase token; the purchase is then acknowledged',
          response: { 200: platformSuccess(Type.Ref(Order)), ...platformErrorResponses },
        },
        preHandler: mac,
      },
      async (request) => {
        const player = playerAuth(services.mac.caller(request));
        const { clientAmount, clientCurrency, ...rest } = request.body;
        const order = await purchases.google(player, request.params.trxNo, {
          ...rest,
          ...(clientAmount !== undefined ? { clientAmount } : {}),
          ...(clientCurrency !== undefined ? { clientCurrency } : {}),
        });
        return ok(order, 'order paid');
      },
    );
  };
}

/** The stores' notification endpoints (URLs shown with the app's store settings). 200 acknowledges a message. */
export function storeNotifyRoutes(services: {
  storePayments: Pick<StorePayments, 'notifications'>;
}): FastifyPluginAsyncTypebox {
  const { notifications } = services.storePayments;
  const answer = (r: MessageResult, push = false) => {
    if (r.outcome !== 'refused') return ok({ outcome: r.outcome, reason: r.reason });
    throw new AppError(
      push && PUSH_AUTH.includes(r.reason ?? '') ? 'STORE_PUSH_UNAUTHENTICATED' : 'STORE_MESSAGE_REFUSED',
      `refused: ${r.reason}`,
      { data: { outcome: r.outcome, reason: r.reason } },
    );
  };
  const responses = { 200: platformSuccess(Type.Ref(NotifyAnswer)), ...platformErrorResponses };
  return async (app) => {
    app.addSchema(NotifyAnswer);
    app.post(
      '/notify/v1/apple/:appId',
      {
        schema: {
          tags: ['stores'],
          params: AppIdParams,
          body: AppleNotificationBody,
          summary: 'App Store Server Notifications V2 of an app (REFUND refunds the order: 2.5, 4.5)',
          response: responses,
        },
      },
      async (request) => answer(await notifications.apple(request.params.appId, request.body.signedPayload)),
    );
    app.post(
      '/notify/v1/google/:appId',
      {
        schema: {
          tags: ['stores'],
          params: AppIdParams,
          body: GooglePushBody,
          summary:
            'Google Play real-time developer notifications of an app, by Pub/Sub push with an OIDC token (voided purchases refund: 2.5, 4.5)',
          response: responses,
        },
      },
      async (request) =>
        answer(await notifications.google(request.params.appId, request.headers.authorization, request.body), true),
    );
  };
}

/** Refusals of a push's token: 401; any other refusal 400. */
const PUSH_AUTH = ['missing_token', 'wrong_audience', 'wrong_issuer', 'wrong_service_account', 'expired'];

/** Admin API: the store messages of an app, newest first (mounted under /admin/v1). */
export function storeMessageRoutes(services: {
  storePayments: Pick<StorePayments, 'messages'>;
  apps: Apps;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(StoreMessage);
    messageListRoute(app, services.apps, {
      path: '/apps/:appId/store-messages',
      summary:
        'Every message the stores sent for an app (and every refund the reconciliation found), verified or not, with its outcome',
      querystring: StoreMessagesQuery,
      response: StoreMessageList,
      filter: parseStoreMessagesQuery,
      messages: async (filter) => (await services.storePayments.messages.list(filter)).map(toMessage),
    });
  };
}

/** The game reports a store purchase's consumption (5.1 md5; issue 27): sent to Apple when it asks. */
export function storeConsumptionRoutes(services: {
  storePayments: Pick<StorePayments, 'consumption'>;
  md5: Md5Scheme<AppRecord>;
  apps: Apps;
}): FastifyPluginAsyncTypebox {
  const md5 = services.md5.hook(appIdBodyMd5((appId) => services.apps.resolveByAppId(appId), 'hook'));
  return async (app) => {
    app.post(
      '/order/v1/game/orders/:trxNo/consumption',
      {
        schema: {
          tags: ['orders'],
          summary:
            "Report how much of a store purchase the player consumed (milliunits): Apple's consumption requests are answered with it (docs/stores.md)",
          params: TrxNoParams,
          body: ConsumptionReportBody,
          response: {
            200: platformSuccess(Type.Object({ trxNo: Type.Integer(), consumptionPercentage: Type.Integer() })),
            ...platformErrorResponses,
          },
        },
        preHandler: md5,
      },
      async (request) => {
        const trxNo = request.params.trxNo;
        if (request.body.trxNo !== trxNo) throw invalidParameter('trxNo', "is not the path's trxNo");
        const { app: caller } = services.md5.caller(request);
        await services.storePayments.consumption.report(caller.appId, trxNo, request.body.consumptionPercentage);
        return ok({ trxNo, consumptionPercentage: request.body.consumptionPercentage }, 'consumption recorded');
      },
    );
  };
}

/** Admin API: an app's Apple consumption requests and what was sent (mounted under /admin/v1). */
export function storeConsumptionAdminRoutes(services: {
  storePayments: Pick<StorePayments, 'consumption'>;
  apps: Apps;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/apps/:appId/store-consumption-requests',
      adminRoute({
        summary: "Apple's consumption requests of an app, newest first, with what was sent and its delivery",
        params: AppIdParams,
        response: {
          200: Type.Object({ requests: Type.Array(ConsumptionRequestView) }),
        },
      }),
      async (request) => {
        const appId = request.params.appId;
        await services.apps.get(appId);
        const rows = await services.storePayments.consumption.list(appId, 200);
        return { requests: rows.map(toConsumptionRequest) };
      },
    );
  };
}
