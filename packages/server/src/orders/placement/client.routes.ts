import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { platformErrorResponses, platformSuccess } from '../../http/schemas.js';
import type { AppRecord } from '../../apps/apps.service.js';
import type { TokenSession } from '../../accounts/tokens.service.js';
import { IdParam } from '../../http/route-params.js';
import type { OrderService } from '../orders.service.js';
import type { RefundService } from '../refunds/refunds.js';
import { countryOrDefault } from '../../accounts/country.js';
import { playerAuth, type AccountService } from '../../accounts/accounts.service.js';
import { macNonceReused, type MacScheme } from '../../auth/mac.js';
import type { CallLogs, GameCallsClient } from '../../game-calls/game-calls.js';
import { checkWithGame } from './game-checks.js';
import { PendingSupplement } from '../notifications.schemas.js';
import { PaymentStepSchema, PlaceOrderBody } from '../orders.schemas.js';
import { Order } from '../orders.view.js';
import { ClientIdQuery } from '../../accounts/accounts.schemas.js';
import { clientMac } from './client-mac.routes.js';

const TradeNoParams = Type.Object({ tradeNo: IdParam() });
const security = [{ macToken: [] }];

export const PlacedOrder = Type.Object({
  order: Type.Ref(Order),
  payment: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
    description:
      'What the client needs to pay, flat (the string fields of paymentStep); null when an earlier identical order is answered.',
  }),
  paymentStep: Type.Union([PaymentStepSchema, Type.Null()], {
    description: 'The same as a typed step: redirect, hosted or store (docs/orders.md, "Payment steps").',
  }),
  created: Type.Boolean({
    description: 'false: the same request was placed before and that order is answered (2.4 rule 5).',
  }),
});

const ok = <T>(data: T, detail = '') => ({ code: 200 as const, msg: 'success', detail, data });

/** What the player's order API uses. */
export interface OrderClientDeps {
  orders: { orders: OrderService; refunds: RefundService };
  mac: MacScheme<AppRecord, TokenSession>;
  accounts: Pick<AccountService, 'edgeCountry'>;
  gameCalls: GameCallsClient;
}

/** The player's order API (MAC token of 5.2): order placement, arrears (4.5) and supplement payment. */
export function orderClientRoutes(services: OrderClientDeps): FastifyPluginAsyncTypebox {
  const { orders: domain } = services;
  const mac = clientMac(services.mac, 'await');
  // 4.5 only reads: its store records the nonce in the statement that reads (orders/refunds/arrears-batch.ts).
  const macRecordedByRead = clientMac(services.mac, 'store');
  return async (app) => {
    app.post(
      '/order/v1/client/orders',
      {
        schema: {
          tags: ['orders'],
          security,
          querystring: ClientIdQuery,
          body: PlaceOrderBody,
          summary:
            'Place an order: role query (4.8) and pre-order check (4.10) first, then the order is opened at the payment channel',
          response: { 200: platformSuccess(PlacedOrder), ...platformErrorResponses },
        },
        preHandler: mac,
      },
      async (request) => {
        const { app: record, token: session } = services.mac.caller(request);
        const userId = String(session.userId);
        const b = request.body;
        // The game-call log rows are written meanwhile and awaited once, before the answer (either way).
        const calls: CallLogs = { logs: [] };
        const placed = await domain.orders
          .place(
            {
              appId: record.appId,
              userId,
              origin: 'client',
              orderId: b.orderId ?? null,
              products: b.products,
              gameServerId: b.game_server_id,
              gameRoleId: b.game_role_id,
              gameExt: b.game_ext ?? null,
              platform: b.platform,
              channel: b.channel,
              paymentType: b.paymentType,
              mergedReceipts: false,
              sdkVersion: b.sdkVersion ?? null,
              ipCountry: countryOrDefault(services.accounts.edgeCountry(request.socket.remoteAddress, request.headers)),
              chosenRegion: b.region ?? null,
              // The accounts area keeps no separate registration region: the token's userRegion (set by the edge at login).
              registrationRegion: session.userRegion || null,
            },
            () =>
              checkWithGame(
                services.gameCalls,
                record,
                {
                  userId,
                  roleId: b.game_role_id,
                  serverId: b.game_server_id,
                  products: b.products,
                  ...(b.extras !== undefined ? { extras: b.extras } : {}),
                },
                calls,
              ),
          )
          .catch(async (err: unknown) => {
            await settleCallLogs(request, calls);
            throw err;
          });
        // The order exists now: a log row that failed to write must not turn its answer into an error.
        await settleCallLogs(request, calls);
        return ok(placed, placed.created ? 'order placed' : 'the same order was placed before');
      },
    );

    app.get(
      '/order/v1/user/arrears',
      {
        schema: {
          tags: ['orders'],
          security,
          querystring: ClientIdQuery,
          summary: "Pending supplement orders of the token's user after store refunds (4.5)",
          response: {
            200: platformSuccess(Type.Object({ list: Type.Array(Type.Ref(PendingSupplement)) })),
            ...platformErrorResponses,
          },
        },
        preHandler: macRecordedByRead,
      },
      async (request) => {
        const caller = services.mac.caller(request);
        const player = playerAuth(caller);
        const list = await domain.refunds.arrearsRecordingNonce({
          appId: player.appId,
          userId: player.userId,
          nonce: caller.nonce!,
        });
        if (list === null) throw macNonceReused();
        return ok({ list });
      },
    );

    app.post(
      '/order/v1/user/arrears/:tradeNo/pay',
      {
        schema: {
          tags: ['orders'],
          security,
          querystring: ClientIdQuery,
          params: TradeNoParams,
          summary:
            'Pay a pending supplement order: opens a supplement payment (trxType 1); paid, it sends no notification (2.5 rule 3)',
          response: { 200: platformSuccess(PlacedOrder), ...platformErrorResponses },
        },
        preHandler: mac,
      },
      async (request) => {
        const player = playerAuth(services.mac.caller(request));
        return ok(await domain.refunds.startSupplementPayment(player.appId, player.userId, request.params.tradeNo));
      },
    );
  };
}

/** Waits for the game-call log rows of a placement; a row that could not be written is logged, not answered. */
async function settleCallLogs(request: FastifyRequest, calls: CallLogs): Promise<void> {
  for (const r of await Promise.allSettled(calls.logs!)) {
    if (r.status === 'rejected') request.log.warn({ err: r.reason }, 'a game-call log row could not be written');
  }
}
