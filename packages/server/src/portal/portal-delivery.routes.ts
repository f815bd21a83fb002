import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PageOf, nextBeforeOf, parseTime } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import { eventFilter } from '../delivery/delivery.routes.js';
import type { DeliveryService } from '../delivery/delivery.service.js';
import type { CallLogService } from '../game-calls/call-log.service.js';
import type { OrdersDomain } from '../orders/orders.module.js';
import { AppIdParams, IdParam } from '../http/route-params.js';
import { DeliveryAttempt, DeliveryEvent, EventList, RecoverBody, TestEventBody } from '../delivery/delivery.schemas.js';
import { GameCall, GameCallList, GameCallListQuery } from '../game-calls/call-log.schemas.js';
import { ConsumptionNoticeView } from '../orders/consumption/consumption.schemas.js';
import { eventOfApp, resendOfApp } from './portal-events.js';
import { ConsumptionNoticePortalQuery, PortalEventQuery, ResendManyBody } from './portal.schemas.js';
import { portalRoute } from '../http/api-route.js';

/**
 * The studio's deliveries and calls in the portal API (/portal/v1/apps/:appId/..., docs/portal.md): events with
 * their attempts, resending and recovering them, test events, the game-call log (4.8-4.10) and the consumption
 * notices (4.6). The same domain functions as the admin API; the app is already checked to be the developer's.
 */
/** An event of one of the studio's apps. */
const PortalEventParams = Type.Object({ appId: IdParam(), eventId: IdParam() });

export function portalDeliveryRoutes(services: {
  delivery: DeliveryService;
  callLog: Pick<CallLogService, 'page'>;
  orders: Pick<OrdersDomain, 'consumption'>;
}): FastifyPluginAsyncTypebox {
  const { delivery } = services;
  return async (app) => {
    // The admin scope's shared schemas are not visible here (each scope has its own).
    app.addSchema(DeliveryEvent);
    app.addSchema(DeliveryAttempt);
    app.addSchema(GameCall);
    app.get(
      '/apps/:appId/events',
      portalRoute({
        summary: "The app's notification events, newest first, by state, type and creation time",
        params: AppIdParams,
        querystring: PortalEventQuery,
        response: { 200: EventList },
      }),
      async (request) => {
        const filter = eventFilter(request.query);
        const events = await delivery.list({ appId: request.params.appId, ...filter });
        return { events, nextBefore: nextBeforeOf(events, filter.limit, (e) => e.eventId) };
      },
    );

    app.get(
      '/apps/:appId/events/:eventId',
      portalRoute({
        summary: 'An event with its attempts: status, latency and the first KB of each answer',
        params: PortalEventParams,
        response: {
          200: Type.Intersect([
            Type.Ref(DeliveryEvent),
            Type.Object({ attemptLog: Type.Array(Type.Ref(DeliveryAttempt)) }),
          ]),
        },
      }),
      async (request) => eventOfApp(delivery, request.params.appId, request.params.eventId),
    );

    app.post(
      '/apps/:appId/events/:eventId/resend',
      portalRoute({
        summary: 'Deliver an event again now (same notifyId and body, fresh signature)',
        params: PortalEventParams,
        response: { 200: Type.Ref(DeliveryEvent) },
      }),
      async (request) => {
        const eventId = request.params.eventId;
        await eventOfApp(delivery, request.params.appId, eventId);
        return delivery.resend(eventId);
      },
    );

    app.post(
      '/apps/:appId/events/resend',
      portalRoute({
        summary: "Deliver several of the app's events again now (all must be the app's, else none is resent)",
        params: AppIdParams,
        body: ResendManyBody,
        response: { 200: Type.Object({ resent: Type.Array(Type.Integer()) }) },
      }),
      async (request) => ({ resent: await resendOfApp(delivery, request.params.appId, request.body.eventIds) }),
    );

    app.post(
      '/apps/:appId/events/recover',
      portalRoute({
        summary: 'Deliver again every dead event of the app that died since a time (after an outage)',
        params: AppIdParams,
        body: RecoverBody,
        response: { 200: Type.Object({ recovered: Type.Integer() }) },
      }),
      async (request) => ({
        recovered: await delivery.recover(request.params.appId, parseTime('since', request.body.since)),
      }),
    );

    app.post(
      '/apps/:appId/test-events',
      portalRoute({
        summary: 'Send a test event, signed and delivered exactly like a real one',
        params: AppIdParams,
        body: TestEventBody,
        response: { 201: Type.Object({ eventId: Type.Integer() }) },
      }),
      async (request, reply) => {
        const eventId = await delivery.sendTestEvent(
          request.params.appId,
          request.body.type,
          request.body.serverId ?? null,
        );
        return reply.code(201).send({ eventId });
      },
    );

    app.get(
      '/apps/:appId/game-calls',
      portalRoute({
        summary: 'The role query, role list and pre-order check calls to the game (4.8-4.10), with why each failed',
        params: AppIdParams,
        querystring: GameCallListQuery,
        response: { 200: GameCallList },
      }),
      async (request) => services.callLog.page(request.params.appId, request.query),
    );

    app.get(
      '/apps/:appId/consumption-notices',
      portalRoute({
        summary: "The app's in-game consumption notices (4.6), newest first",
        params: AppIdParams,
        querystring: ConsumptionNoticePortalQuery,
        response: { 200: PageOf('notices', ConsumptionNoticeView) },
      }),
      async (request) => {
        const { userId } = request.query;
        const page = parsePage(request.query);
        const notices = await services.orders.consumption.list({
          appId: request.params.appId,
          ...(userId !== undefined ? { userId } : {}),
          ...page,
        });
        return { notices, nextBefore: nextBeforeOf(notices, page.limit, (n) => n.noticeId) };
      },
    );
  };
}
