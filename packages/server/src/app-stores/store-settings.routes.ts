import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestBaseUrl } from '../http/request-base-url.js';
import {
  AppleSettingsBody,
  AppleSettingsView,
  GoogleSettingsBody,
  GoogleSettingsView,
  StoreParams,
  StoreSettingsView,
} from './store-settings.schemas.js';
import { adminDelete, adminRoute } from '../http/api-route.js';
import { AppIdParams } from '../http/route-params.js';
import type { StoreSettingsService } from './store-settings.service.js';
import { notificationUrls } from './notification-urls.js';

/** Admin API of the per-app store settings (App Store, Google Play), mounted under /admin/v1. Secrets are never answered. */
export function storeSettingsRoutes(services: { storeSettings: StoreSettingsService }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/apps/:appId/store-settings',
      adminRoute({
        summary: "Show an app's store settings (no secret) and the notification URLs to paste into the stores",
        params: AppIdParams,
        response: { 200: StoreSettingsView },
      }),
      async (request) => {
        const { appId } = request.params;
        const shown = await services.storeSettings.show(appId);
        return { appId, ...shown, notificationUrls: notificationUrls(requestBaseUrl(request), appId) };
      },
    );

    app.put(
      '/apps/:appId/store-settings/apple',
      adminRoute({
        summary: "Replace an app's App Store settings; an omitted apiPrivateKey keeps the stored one",
        params: AppIdParams,
        body: AppleSettingsBody,
        response: { 200: AppleSettingsView },
      }),
      async (request) => services.storeSettings.putApple(request.params.appId, request.body),
    );

    app.put(
      '/apps/:appId/store-settings/google',
      adminRoute({
        summary: "Replace an app's Google Play settings; an omitted serviceAccountJson keeps the stored one",
        params: AppIdParams,
        body: GoogleSettingsBody,
        response: { 200: GoogleSettingsView },
      }),
      async (request) => services.storeSettings.putGoogle(request.params.appId, request.body),
    );

    adminDelete(app, {
      path: '/apps/:appId/store-settings/:store',
      summary: "Delete an app's settings of one store",
      params: StoreParams,
      remove: (p) => services.storeSettings.remove(p.appId, p.store),
    });
  };
}
