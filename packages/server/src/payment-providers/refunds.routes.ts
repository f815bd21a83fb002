import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../errors/app-error.js';
import { IdParam } from '../http/route-params.js';
import { adminRoute, portalRoute } from '../http/api-route.js';
import { principalOf } from '../operators/admin-access.routes.js';
import { studioOf } from '../portal/portal-access.routes.js';
import { studioActor } from '../portal/studio-developers.service.js';
import { refusalOf, type RefundRequests, type RefundInput } from './refund-requests.js';
import { RefundBody, RefundRequestList, RefundRequestView, refundRequestView } from './refund-requests.schemas.js';

const TrxNoParams = Type.Object({ trxNo: IdParam() });
const PortalTrxNoParams = Type.Object({ appId: IdParam(), trxNo: IdParam() });

/** What the refund routes use. */
export interface RefundRoutesDeps {
  paymentProviders: { refunds: RefundRequests };
}

const SUMMARY =
  'Refund a web order, whole or in part, through the provider that took it (Stripe, PayPal, Alipay, WeChat Pay); a reason is required';
const DESCRIPTION =
  'Idempotent: the same `idempotencyKey` (or, without one, the same amount and reason) is the same refund, which reaches the provider once. ' +
  '201: a new refund, 200: the same one again; its `state` says what the provider answered (`succeeded`: applied, the game is sent its 2.5; ' +
  '`pending`/`requested`: the webhook or the reconciliation settles it). The provider refusing answers 409 PROVIDER_REFUND_REFUSED ' +
  '(the order stays paid); more than remains unrefunded 409 REFUND_EXCEEDS_PAID.';

/** Answers a request: its refusal as the error, else 201 (new) or 200 (the same one again). */
async function answer(reply: FastifyReply, refunds: RefundRequests, input: RefundInput) {
  const { created, refund } = await refunds.request(input);
  const refused = refusalOf(refund);
  if (refused) throw refused;
  return reply.code(created ? 201 : 200).send(refundRequestView(refund));
}

/** The POST's schema, the admin's and the portal's: they differ only by their path's params. */
const requestRoute = <P>(params: P) => ({
  summary: SUMMARY,
  description: DESCRIPTION,
  params,
  body: RefundBody,
  response: { 200: RefundRequestView, 201: RefundRequestView },
});

/** The request of a refund body, by `requestedBy` (`appId`: the portal's app). */
const inputOf = (trxNo: number, body: Static<typeof RefundBody>, requestedBy: string, appId?: number): RefundInput => ({
  trxNo,
  ...(appId !== undefined ? { appId } : {}),
  ...(body.amount !== undefined ? { amount: body.amount } : {}),
  reason: body.reason,
  idempotencyKey: body.idempotencyKey ?? null,
  requestedBy,
});

const listOf = ({ provider, refunds }: Awaited<ReturnType<RefundRequests['ofOrder']>>) => ({
  webOrder: provider !== null,
  provider,
  refunds: refunds.map(refundRequestView),
});

/** Operators' refunds of web orders (mounted under /admin/v1; permission `orders.refund`). */
export function refundAdminRoutes(services: RefundRoutesDeps): FastifyPluginAsyncTypebox {
  const { refunds } = services.paymentProviders;
  return async (app) => {
    app.post('/orders/:trxNo/refunds', adminRoute(requestRoute(TrxNoParams)), async (request, reply) =>
      answer(reply, refunds, inputOf(request.params.trxNo, request.body, `operator:${principalOf(request).name}`)),
    );

    app.get(
      '/orders/:trxNo/refunds',
      adminRoute({
        summary:
          'The refunds operators and studios asked of a web order, oldest first, with what the provider answered',
        params: TrxNoParams,
        response: { 200: RefundRequestList },
      }),
      async (request) => listOf(await refunds.ofOrder(request.params.trxNo)),
    );
  };
}

/** A studio developer's refunds of its own apps' web orders (mounted under /portal/v1; another app's order is 404). */
export function refundPortalRoutes(services: RefundRoutesDeps): FastifyPluginAsyncTypebox {
  const { refunds } = services.paymentProviders;
  return async (app) => {
    app.post(
      '/apps/:appId/orders/:trxNo/refunds',
      portalRoute(requestRoute(PortalTrxNoParams)),
      async (request, reply) => {
        // The app is the developer's (else 404, portal-access.routes.ts); refunding it is a grant of its own.
        if (!studioOf(request).refundAppIds.includes(request.params.appId))
          throw new AppError('PORTAL_FORBIDDEN', `refunds of app ${request.params.appId} are not among your access`);
        return answer(
          reply,
          refunds,
          inputOf(request.params.trxNo, request.body, studioActor(studioOf(request).name), request.params.appId),
        );
      },
    );

    app.get(
      '/apps/:appId/orders/:trxNo/refunds',
      portalRoute({
        summary: 'The refunds asked of a web order of the app, oldest first',
        params: PortalTrxNoParams,
        response: { 200: RefundRequestList },
      }),
      async (request) => listOf(await refunds.ofOrder(request.params.trxNo, request.params.appId)),
    );
  };
}
