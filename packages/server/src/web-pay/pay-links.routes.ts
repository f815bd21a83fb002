import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses, platformSuccess } from '../http/schemas.js';
import { requestBaseUrl } from '../http/request-base-url.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { TokenSession } from '../accounts/tokens.service.js';
import type { MacScheme } from '../auth/mac.js';
import type { PayLinkService } from './pay-links.js';
import { PayLink, PayLinkBody } from './web-pay.schemas.js';
import { ClientIdQuery } from '../accounts/accounts.schemas.js';
import { clientMac } from '../orders/placement/client-mac.routes.js';

/** The game client asks for a launch link of the web payment page for its player's role (MAC token, 5.2). */
export function payLinkRoutes(services: {
  webPay: { links: PayLinkService };
  mac: MacScheme<AppRecord, TokenSession>;
}): FastifyPluginAsyncTypebox {
  const mac = clientMac(services.mac, 'await');
  return async (app) => {
    app.post(
      '/order/v1/client/pay-links',
      {
        schema: {
          tags: ['orders'],
          security: [{ macToken: [] }],
          querystring: ClientIdQuery,
          body: PayLinkBody,
          summary:
            "A single-use launch link of the web payment page for the token's user and this role (open it in the web view)",
          response: { 200: platformSuccess(PayLink), ...platformErrorResponses },
        },
        preHandler: mac,
      },
      async (request) => {
        const { app: record, token } = services.mac.caller(request);
        const b = request.body;
        const link = await services.webPay.links.create({
          appId: record.appId,
          userId: String(token.userId),
          roleId: b.game_role_id,
          serverId: b.game_server_id,
          gameExt: b.game_ext ?? null,
          lang: b.lang ?? null,
          userRegion: token.userRegion || null,
        });
        const url = `${requestBaseUrl(request)}/pay/${encodeURIComponent(record.clientId)}/link/${link.token}`;
        return {
          code: 200 as const,
          msg: 'success',
          detail: 'single-use; open it before expiresAt',
          data: { url, expiresAt: new Date(link.expiresAt).toISOString() },
        };
      },
    );
  };
}
