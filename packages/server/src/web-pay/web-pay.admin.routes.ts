import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppIdParams, IdParam } from '../http/route-params.js';
import type { AppService } from '../apps/apps.service.js';
import { Text } from '../http/schemas.js';
import {
  LangTag,
  PrecheckMessage,
  WebPaySettings,
  WebPaySettingsBody,
  type WebPaySettingsService,
} from './web-pay-settings.js';
import { adminRoute } from '../http/api-route.js';

const CodeParams = Type.Object({
  appId: IdParam(),
  code: Type.String({
    pattern: '^[0-9]{1,9}$',
    description: 'A custom pre-order check code (section 7); at most 9 digits, so it fits a 32-bit integer column.',
  }),
});
const CodeLangParams = Type.Object({ appId: IdParam(), code: CodeParams.properties.code, lang: LangTag });
const MessageBody = Type.Object({ text: Text({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false });

/**
 * Admin API of the web payment page (under /admin/v1): the servers the official page offers, the origins that may
 * frame it and its return URLs, and the game's texts of its custom pre-order check codes per language (section 7; a
 * built-in code is refused).
 */
export function webPayAdminRoutes(services: {
  webPay: { settings: WebPaySettingsService };
  apps: Pick<AppService, 'get'>;
}): FastifyPluginAsyncTypebox {
  const { settings } = services.webPay;
  return async (app) => {
    app.get(
      '/apps/:appId/web-pay',
      adminRoute({
        summary: 'The web payment page of an app: servers it offers, origins that may frame it, return URLs',
        params: AppIdParams,
        response: { 200: WebPaySettings },
      }),
      async (request) => {
        const appId = request.params.appId;
        await services.apps.get(appId);
        return settings.settings(appId);
      },
    );

    app.put(
      '/apps/:appId/web-pay',
      adminRoute({
        summary:
          'Set the servers, frame ancestors (CSP frame-ancestors) or return URLs of the web payment page; fields not given are kept',
        params: AppIdParams,
        body: WebPaySettingsBody,
        response: { 200: WebPaySettings },
      }),
      async (request) => settings.put(request.params.appId, request.body),
    );

    app.get(
      '/apps/:appId/precheck-messages',
      adminRoute({
        summary: "The game's texts of its custom pre-order check codes (section 7), by code and language",
        params: AppIdParams,
        response: { 200: Type.Object({ items: Type.Array(PrecheckMessage) }) },
      }),
      async (request) => ({ items: await settings.messages(request.params.appId) }),
    );

    app.put(
      '/apps/:appId/precheck-messages/:code/:lang',
      adminRoute({
        summary: 'Set the text of a custom pre-order check code in one language (a built-in code 101-115 is refused)',
        params: CodeLangParams,
        body: MessageBody,
        response: { 200: PrecheckMessage },
      }),
      async (request) =>
        settings.putMessage(request.params.appId, Number(request.params.code), request.params.lang, request.body.text),
    );

    // Every language of a code, or one: the same delete.
    for (const [path, summary, params] of [
      ['/apps/:appId/precheck-messages/:code', 'Delete every language of a custom code', CodeParams],
      ['/apps/:appId/precheck-messages/:code/:lang', 'Delete one language of a custom code', CodeLangParams],
    ] as const)
      app.delete(path, adminRoute({ summary, params, response: { 204: Type.Null() } }), async (request, reply) => {
        const p = request.params;
        await settings.deleteMessages(p.appId, Number(p.code), 'lang' in p ? p.lang : undefined);
        return reply.code(204).send(null);
      });
  };
}
