import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { platformErrorResponses, platformSuccess } from '../http/schemas.js';
import { requestBaseUrl } from '../http/request-base-url.js';
import { messageListRoute } from '../orders/payments/channel-messages.routes.js';
import { parseJsonBody } from '../http/json-body.js';
import type { AppService } from '../apps/apps.service.js';
import { AppIdParams } from '../http/route-params.js';
import type { ProviderMessageFilter, ProviderMessageRow } from './payment-providers.repository.js';
import type { ProviderSettingsService } from './provider-settings.service.js';
import type { ProviderRegistry } from './providers.js';
import type { ProviderWebhooks } from './webhooks.js';
import {
  ProviderParams,
  ProviderSettingsBody,
  ProviderSettingsView,
  ProvidersView,
} from './provider-settings.schemas.js';
import {
  ProviderMessage,
  ProviderMessageList,
  ProviderMessagesQuery,
  parseProviderMessagesQuery,
  toProviderMessage,
} from './provider-messages.schemas.js';
import { refusal, refuseUnstorable } from './webhooks.js';
import { adminDelete, adminRoute } from '../http/api-route.js';

/** Admin API of the per-app payment provider settings and their messages (mounted under /admin/v1). */
export function providerAdminRoutes(services: {
  paymentProviders: {
    settings: ProviderSettingsService;
    messages(filter: ProviderMessageFilter): Promise<ProviderMessageRow[]>;
  };
  apps: Pick<AppService, 'get'>;
}): FastifyPluginAsyncTypebox {
  const { settings, messages } = services.paymentProviders;
  return async (app) => {
    app.addSchema(ProviderSettingsView);
    app.addSchema(ProviderMessage);
    app.get(
      '/apps/:appId/payment-providers',
      adminRoute({
        summary:
          "An app's web payment providers: each provider's fields, its webhook URL to paste into the provider, and the app's settings (no secret)",
        params: AppIdParams,
        response: { 200: ProvidersView },
      }),
      async (request) => settings.show(request.params.appId, requestBaseUrl(request)),
    );

    app.put(
      '/apps/:appId/payment-providers/:provider',
      adminRoute({
        summary: "Set an app's settings of one provider; a secret omitted keeps the stored one, null removes it",
        params: ProviderParams,
        body: ProviderSettingsBody,
        response: { 200: Type.Ref(ProviderSettingsView) },
      }),
      async (request) => settings.put(request.params.appId, request.params.provider, request.body),
    );

    adminDelete(app, {
      path: '/apps/:appId/payment-providers/:provider',
      summary: "Delete an app's settings of one provider (the page stops offering it)",
      params: ProviderParams,
      remove: (p) => settings.remove(p.appId, p.provider),
    });

    messageListRoute(app, services.apps, {
      path: '/apps/:appId/provider-messages',
      summary:
        'Every message the payment providers sent for an app (and every find of their order queries), verified or not, with its outcome',
      querystring: ProviderMessagesQuery,
      response: ProviderMessageList,
      filter: parseProviderMessagesQuery,
      messages: async (filter) => (await messages(filter)).map(toProviderMessage),
    });
  };
}

const NotifyAnswer = Type.Object({ outcome: Type.String(), reason: Type.Union([Type.String(), Type.Null()]) });

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received, on the provider webhook routes (signatures are over it). */
    rawBody?: string;
  }
}

/**
 * Each provider's webhook, `POST /notify/v1/providers/{provider}/{appId}`: the body is parsed as the provider posts it
 * (JSON or a form) with its raw text kept for the signature, NUL and unpaired surrogates refused anywhere in it, then
 * ProviderWebhooks verifies and applies. A message taken is answered as the provider expects; a refusal in the 2.3
 * envelope with a 4xx; never a 5xx but when the provider could not be reached to verify (it retries).
 */
export function providerWebhookRoutes(services: {
  paymentProviders: { registry: ProviderRegistry; webhooks: ProviderWebhooks };
}): FastifyPluginAsyncTypebox {
  const { registry, webhooks } = services.paymentProviders;
  return async (app) => {
    app.removeAllContentTypeParsers();
    const keep = (parse: (text: string) => unknown) => (request: { rawBody?: string }, body: string | Buffer) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      request.rawBody = text;
      const parsed = parse(text);
      refuseUnstorable(parsed);
      return parsed;
    };
    const json = keep(parseJsonBody);
    const form = keep((text) => Object.fromEntries(new URLSearchParams(text)));
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      try {
        done(null, json(request, body));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
      try {
        done(null, form(request, body));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    for (const provider of registry.all) {
      app.post(
        `/notify/v1/providers/${provider.id}/:appId`,
        {
          schema: {
            tags: ['payment providers'],
            summary: `${provider.id}'s webhook of an app (paste its URL into ${provider.id}'s dashboard)`,
            params: AppIdParams,
            body: provider.webhook.body,
            response: { 200: platformSuccess(NotifyAnswer), ...platformErrorResponses },
          },
        },
        async (request, reply) => {
          const result = await webhooks.receive(provider, request.params.appId, {
            rawBody: request.rawBody ?? '',
            headers: request.headers,
            body: request.body,
          });
          if (result.outcome === 'refused') {
            const error = refusal(provider.id, result);
            if (!provider.webhook.refused) throw error;
            request.log.info({ reason: error.reason, detail: error.detail }, 'request refused');
            const answer = provider.webhook.refused({
              outcome: result.outcome,
              reason: result.reason,
              detail: error.detail,
            });
            return reply
              .code(error.httpStatus)
              .type(answer.contentType)
              .send(answer.body as never);
          }
          const accepted = provider.webhook.accepted;
          if (accepted)
            return reply
              .code(accepted.status)
              .type(accepted.contentType)
              .send(accepted.body as never);
          return {
            code: 200 as const,
            msg: 'success',
            detail: '',
            data: { outcome: result.outcome, reason: result.reason },
          };
        },
      );
    }
  };
}
