import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DeliveryAttempt,
  DeliveryEvent,
  EventIdParams,
  EventList,
  EventListQuery,
  RecoverBody,
  TestEventBody,
} from './delivery.schemas.js';
import { nextBeforeOf, parseTime } from '../http/admin-query.js';
import { parsePage } from '../http/list-query.js';
import { adminRoute } from '../http/api-route.js';
import { AppIdParams } from '../http/route-params.js';
import type { DeliveryService } from './delivery.service.js';

/** The filter of an event list query but its app (the admin API's and the portal's). */
export function eventFilter(q: Omit<Static<typeof EventListQuery>, 'appId'>) {
  return {
    ...(q.state !== undefined ? { state: q.state } : {}),
    ...(q.type !== undefined ? { type: q.type } : {}),
    ...(q.from !== undefined ? { from: parseTime('from', q.from) } : {}),
    ...(q.to !== undefined ? { to: parseTime('to', q.to) } : {}),
    ...parsePage(q),
  };
}

/** Operator API of the delivery engine, mounted under /admin/v1. */
export function deliveryRoutes(services: { delivery: DeliveryService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addSchema(DeliveryEvent);
    app.addSchema(DeliveryAttempt);

    app.get(
      '/events',
      adminRoute({
        summary: 'List outbox events, newest first, by app, state, type and creation time',
        querystring: EventListQuery,
        response: { 200: EventList },
      }),
      async (request) => {
        const { appId } = request.query;
        const filter = eventFilter(request.query);
        const events = await services.delivery.list({
          ...(appId !== undefined ? { appId: Number(appId) } : {}),
          ...filter,
        });
        return { events, nextBefore: nextBeforeOf(events, filter.limit, (e) => e.eventId) };
      },
    );

    app.get(
      '/events/:eventId',
      adminRoute({
        summary: 'Show an event with its attempt log',
        params: EventIdParams,
        response: {
          200: Type.Intersect([
            Type.Ref(DeliveryEvent),
            Type.Object({ attemptLog: Type.Array(Type.Ref(DeliveryAttempt)) }),
          ]),
        },
      }),
      async (request) => services.delivery.get(request.params.eventId),
    );

    app.post(
      '/events/:eventId/resend',
      adminRoute({
        summary: 'Deliver an event again now (same notifyId and body, fresh signature)',
        params: EventIdParams,
        response: { 200: Type.Ref(DeliveryEvent) },
      }),
      async (request) => services.delivery.resend(request.params.eventId),
    );

    app.post(
      '/apps/:appId/events/recover',
      adminRoute({
        summary: 'Deliver again every dead event of an app that died since a time (after an outage)',
        params: AppIdParams,
        body: RecoverBody,
        response: { 200: Type.Object({ recovered: Type.Integer() }) },
      }),
      async (request) => ({
        recovered: await services.delivery.recover(request.params.appId, parseTime('since', request.body.since)),
      }),
    );

    app.post(
      '/apps/:appId/test-events',
      adminRoute({
        summary: 'Send a test event, signed and delivered exactly like a real one',
        params: AppIdParams,
        body: TestEventBody,
        response: { 201: Type.Object({ eventId: Type.Integer() }) },
      }),
      async (request, reply) => {
        const eventId = await services.delivery.sendTestEvent(
          request.params.appId,
          request.body.type,
          request.body.serverId ?? null,
        );
        return reply.code(201).send({ eventId });
      },
    );
  };
}
