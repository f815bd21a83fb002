import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { platformErrorResponses } from '../http/schemas.js';
import type { AppService } from '../apps/apps.service.js';
import { SvcIdAnswer, SvcIdQuery } from './accounts.schemas.js';
import { success } from './envelope.js';
import { AccountService } from './accounts.service.js';
import { ipAllowListHook } from '../auth/ip-allow-list.js';

/** 4.4 Platform user id by open id; allow-listed caller IPs only. */
export function svcIdRoutes(deps: {
  accounts: AccountService;
  apps: Pick<AppService, 'requireActive'>;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/account/v1/svc_id',
      {
        schema: {
          tags: ['account'],
          summary: "Platform user id (svcid) of an open id; caller IP must be on the app's allow-list (4.4)",
          querystring: SvcIdQuery,
          response: { 200: SvcIdAnswer, ...platformErrorResponses },
        },
        preHandler: [
          // loginType first (400 naming the field), then the app and the caller IP.
          async (request) => {
            AccountService.svcIdLoginType((request.query as { loginType: string }).loginType);
          },
          ipAllowListHook(
            (clientId) => deps.apps.requireActive(clientId),
            (request) => (request.query as { clientId: string }).clientId,
          ),
        ],
      },
      async (request) => {
        const { loginType, openId } = request.query;
        return success({ svcid: await deps.accounts.svcId(loginType, openId) });
      },
    );
  };
}
