import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { platformErrorResponses } from '../http/schemas.js';
import { requestBaseUrl } from '../http/request-base-url.js';
import type { Services } from '../services.js';
import {
  AppleSettingsBody,
  AppleSettingsView,
  GoogleSettingsBody,
  GoogleSettingsView,
  StoreParams,
  StoreSettingsParams,
  StoreSettingsView,
} from './store-settings.schemas.js';

const tags = ['admin'];
const security = [{ adminBearer: [] }];

/** The store notification URLs of an app, absolute from the base the operator reached this service at. */
export function notificationUrls(baseUrl: string, appId: number): { apple: string; google: string } {
  return { apple: `${baseUrl}/notify/v1/apple/${appId}`, google: `${baseUrl}/notify/v1/google/${appId}` };
}

/** Admin API of the per-app store settings (App Store, Google Play), mounted under /admin/v1. Secrets are never answered. */
export function storeSettingsRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/apps/:appId/store-settings',
      {
        schema: {
          tags,
          security,
          summary: "Show an app's store settings (no secret) and the notification URLs to paste into the stores",
          params: StoreSettingsParams,
          response: { 200: StoreSettingsView, ...platformErrorResponses },
        },
      },
      async (request) => {
        const appId = Number(request.params.appId);
        const shown = await services.storeSettings.show(appId);
        return { appId, ...shown, notificationUrls: notificationUrls(requestBaseUrl(request), appId) };
      },
    );

    app.put(
      '/apps/:appId/store-settings/apple',
      {
        schema: {
          tags,
          security,
          summary: "Replace an app's App Store settings; an omitted apiPrivateKey keeps the stored one",
          params: StoreSettingsParams,
          body: AppleSettingsBody,
          response: { 200: AppleSettingsView, ...platformErrorResponses },
        },
      },
      async (request) => services.storeSettings.putApple(Number(request.params.appId), request.body),
    );

    app.put(
      '/apps/:appId/store-settings/google',
      {
        schema: {
          tags,
          security,
          summary: "Replace an app's Google Play settings; an omitted serviceAccountJson keeps the stored one",
          params: StoreSettingsParams,
          body: GoogleSettingsBody,
          response: { 200: GoogleSettingsView, ...platformErrorResponses },
        },
      },
      async (request) => services.storeSettings.putGoogle(Number(request.params.appId), request.body),
    );

    app.delete(
      '/apps/:appId/store-settings/:store',
      {
        schema: {
          tags,
          security,
          summary: "Delete an app's settings of one store",
          params: StoreParams,
          response: { 204: Type.Null(), ...platformErrorResponses },
        },
      },
      async (request, reply) => {
        await services.storeSettings.remove(Number(request.params.appId), request.params.store);
        return reply.code(204).send(null);
      },
    );
  };
}
