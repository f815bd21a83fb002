import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, invalidParameter } from '../../errors/app-error.js';
import { platformErrorResponses } from '../../http/schemas.js';
import type { AppService } from '../../apps/apps.service.js';
import type { OrderService } from '../orders.service.js';
import type { ClientReport } from './channels/channel.js';
import { checkCurrency, toMinor } from '../money.js';
import {
  PaymentStepSchema,
  SandboxOrderBody,
  SandboxPayBody,
  SandboxRefundBody,
  TrxNoParams,
  type SandboxPayBody as PayBody,
} from '../orders.schemas.js';
import { Order } from '../orders.view.js';

const tags = ['sandbox'];
const security = [{ adminBearer: [] }];

/** What the sandbox routes use. */
export interface SandboxDeps {
  orders: { orders: Pick<OrderService, 'place' | 'applyChannelEvent'>; sandboxEnabled: boolean };
  apps: Pick<AppService, 'get'>;
}

/**
 * The sandbox channel's operator side (/admin/v1/sandbox): it plays the store
 * or payment provider (complete, fail, refund) and the official web payment
 * page (place an order for a player). Refused unless SANDBOX_PAYMENTS is on,
 * which the configuration never allows in production mode.
 */
export function sandboxRoutes(services: SandboxDeps): FastifyPluginAsyncTypebox {
  const { orders: domain } = services;
  return async (app) => {
    app.addHook('onRequest', async () => {
      if (!domain.sandboxEnabled)
        throw new AppError(
          'SANDBOX_DISABLED',
          'set SANDBOX_PAYMENTS=true (never in production mode) to use the sandbox channel',
        );
    });

    app.post(
      '/sandbox/orders',
      {
        schema: {
          tags,
          security,
          summary: 'Place an order for a player as the client or the official web payment page would (no game calls)',
          body: SandboxOrderBody,
          response: {
            201: Type.Object({
              order: Type.Ref(Order),
              payment: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()]),
              paymentStep: Type.Union([PaymentStepSchema, Type.Null()]),
              created: Type.Boolean(),
            }),
            ...platformErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const b = request.body;
        await services.apps.get(b.appId);
        const placed = await domain.orders.place({
          appId: b.appId,
          userId: b.userId,
          origin: b.origin ?? 'client',
          orderId: b.orderId ?? null,
          products: b.products,
          gameServerId: b.game_server_id ?? null,
          gameRoleId: b.game_role_id ?? null,
          gameExt: b.game_ext ?? null,
          platform: b.platform,
          channel: b.channel,
          paymentType: b.paymentType,
          mergedReceipts: b.mergedReceipts ?? false,
          sdkVersion: b.sdkVersion ?? null,
          ipCountry: b.ipCountry ?? null,
          chosenRegion: b.region ?? null,
          registrationRegion: b.registrationRegion ?? null,
        });
        return reply.code(placed.created ? 201 : 200).send(placed);
      },
    );

    app.post(
      '/sandbox/orders/:trxNo/pay',
      {
        schema: {
          tags,
          security,
          summary: 'Complete (success) or fail the payment of an order awaiting payment',
          params: TrxNoParams,
          body: SandboxPayBody,
          response: { 200: Type.Ref(Order), ...platformErrorResponses },
        },
      },
      async (request) => {
        const trxNo = request.params.trxNo;
        const b = request.body;
        if (b.outcome === 'failure') {
          return domain.orders.applyChannelEvent({
            kind: 'failed',
            trxNo,
            reason: b.reason ?? 'payment failed (sandbox)',
          });
        }
        return domain.orders.applyChannelEvent({
          kind: 'paid',
          trxNo,
          bankTrxNo: b.bankTrxNo ?? null,
          client: clientReport(b),
        });
      },
    );

    app.post(
      '/sandbox/orders/:trxNo/refund',
      {
        schema: {
          tags,
          security,
          summary: 'Refund a paid store order as the store would (2.5); answers the refund order',
          params: TrxNoParams,
          body: Type.Optional(SandboxRefundBody),
          response: { 201: Type.Ref(Order), ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        const refund = await domain.orders.applyChannelEvent({
          kind: 'refunded',
          trxNo: request.params.trxNo,
          bankRefundNo: request.body?.bankRefundNo ?? null,
        });
        return reply.code(201).send(refund);
      },
    );
  };
}

/** The client-reported store fields (2.4): amount and currency together, the amount within the currency's decimals. */
export function clientReport(b: PayBody): ClientReport | null {
  if (b.clientAmount === undefined && b.clientCurrency === undefined && b.clientRegion === undefined) return null;
  if (b.clientAmount === undefined)
    throw invalidParameter('clientAmount', 'is required with clientCurrency or clientRegion');
  if (b.clientCurrency === undefined) throw invalidParameter('clientCurrency', 'is required with clientAmount');
  const currency = checkCurrency('clientCurrency', b.clientCurrency);
  return { amountMinor: toMinor('clientAmount', b.clientAmount, currency), currency, region: b.clientRegion ?? null };
}
