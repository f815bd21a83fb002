import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NextBefore, nextBeforeOf, parseTime } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import { eventFilter } from '../delivery/delivery.routes.js';
import type { Services } from '../services.js';
import { DeliveryAttempt, DeliveryEvent, EventList, RecoverBody, TestEventBody } from '../delivery/delivery.schemas.js';
import { GameCall, GameCallList, GameCallListQuery, parseGameCallQuery } from '../game-calls/call-log.schemas.js';
import { ConsumptionNoticeView } from '../orders/consumption/consumption.schemas.js';
import { appIdOf } from './portal-access.routes.js';
import { eventOfApp, resendOfApp } from './portal-events.js';
import {
  ConsumptionNoticePortalQuery,
  PortalAppParams,
  PortalEventParams,
  PortalEventQuery,
  ResendManyBody,
} from './portal.schemas.js';
import { portalRoute } from '../http/api-route.js';

/**
 * The studio's deliveries and calls in the portal API (/portal/v1/apps/:appId/..., docs/portal.md): events with
 * their attempts, resending and recovering them, test events, the game-call log (4.8-4.10) and the consumption
 * notices (4.6). The same domain functions as the admin API; the app is already checked to be the developer's.
 */
export function portalDeliveryRoutes(services: Services): FastifyPluginAsyncTypebox {
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
        params: PortalAppParams,
        querystring: PortalEventQuery,
        response: { 200: EventList },
      }),
      async (request) => {
        const filter = eventFilter(request.query);
        const events = await delivery.list({ appId: appIdOf(request), ...filter });
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
      async (request) => eventOfApp(delivery, appIdOf(request), Number(request.params.eventId)),
    );

    app.post(
      '/apps/:appId/events/:eventId/resend',
      portalRoute({
        summary: 'Deliver an event again now (same notifyId and body, fresh signature)',
        params: PortalEventParams,
        response: { 200: Type.Ref(DeliveryEvent) },
      }),
      async (request) => {
        const eventId = Number(request.params.eventId);
        await eventOfApp(delivery, appIdOf(request), eventId);
        return delivery.resend(eventId);
      },
    );

    app.post(
      '/apps/:appId/events/resend',
      portalRoute({
        summary: "Deliver several of the app's events again now (all must be the app's, else none is resent)",
        params: PortalAppParams,
        body: ResendManyBody,
        response: { 200: Type.Object({ resent: Type.Array(Type.Integer()) }) },
      }),
      async (request) => ({ resent: await resendOfApp(delivery, appIdOf(request), request.body.eventIds) }),
    );

    app.post(
      '/apps/:appId/events/recover',
      portalRoute({
        summary: 'Deliver again every dead event of the app that died since a time (after an outage)',
        params: PortalAppParams,
        body: RecoverBody,
        response: { 200: Type.Object({ recovered: Type.Integer() }) },
      }),
      async (request) => ({
        recovered: await delivery.recover(appIdOf(request), parseTime('since', request.body.since)),
      }),
    );

    app.post(
      '/apps/:appId/test-events',
      portalRoute({
        summary: 'Send a test event, signed and delivered exactly like a real one',
        params: PortalAppParams,
        body: TestEventBody,
        response: { 201: Type.Object({ eventId: Type.Integer() }) },
      }),
      async (request, reply) => {
        const eventId = await delivery.sendTestEvent(
          appIdOf(request),
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
        params: PortalAppParams,
        querystring: GameCallListQuery,
        response: { 200: GameCallList },
      }),
      async (request) => {
        const filter = parseGameCallQuery(appIdOf(request), request.query);
        const calls = await services.callLog.list(filter);
        return { calls, nextBefore: nextBeforeOf(calls, filter.limit, (c) => c.callId) };
      },
    );

    app.get(
      '/apps/:appId/consumption-notices',
      portalRoute({
        summary: "The app's in-game consumption notices (4.6), newest first",
        params: PortalAppParams,
        querystring: ConsumptionNoticePortalQuery,
        response: {
          200: Type.Object({ notices: Type.Array(ConsumptionNoticeView), nextBefore: NextBefore }),
        },
      }),
      async (request) => {
        const { userId } = request.query;
        const page = parsePage(request.query);
        const notices = await services.orders.consumption.list({
          appId: appIdOf(request),
          ...(userId !== undefined ? { userId } : {}),
          ...page,
        });
        return { notices, nextBefore: nextBeforeOf(notices, page.limit, (n) => n.noticeId) };
      },
    );
  };
}
