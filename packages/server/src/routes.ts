import type { FastifyInstance } from 'fastify';
import type { Services } from './services.js';
import { registerHealthRoutes } from './http/health.js';
import { attachReplicaMetrics } from './db/replica.metrics.js';
import { registerHomeRoute } from './http/home.js';
import { buildServer, type BuildOptions } from './http/server.js';
import { installAdminAccess, principalOf } from './operators/admin-access.routes.js';
import { operatorRoutes } from './operators/operators.routes.js';
import { App } from './apps/apps.schemas.js';
import { appRoutes } from './apps/apps.routes.js';
import { storeSettingsRoutes } from './app-stores/store-settings.routes.js';
import { platformKeyRoutes, publicPlatformKeyRoutes } from './platform-keys/keys.routes.js';
import { profileRoutes } from './accounts/profile.routes.js';
import { svcIdRoutes } from './accounts/svc-id.routes.js';
import { clientRoutes } from './accounts/client.routes.js';
import { accountAdminRoutes } from './accounts/admin.routes.js';
import { deliveryRoutes } from './delivery/delivery.routes.js';
import { callLogRoutes } from './game-calls/call-log.routes.js';
import { overviewRoutes } from './overview/overview.routes.js';
import { oidcRoutes } from './operators/oidc.routes.js';
import { pullRoutes } from './delivery/pull.routes.js';
import { evidenceRoutes } from './evidence/evidence.routes.js';
import { ReportView } from './reporting/moderation.schemas.js';
import { moderationRoutes } from './reporting/moderation.routes.js';
import { reportingRoutes } from './reporting/reporting.routes.js';
import {
  addOrderSchemas,
  consumptionRoutes,
  orderAdminRoutes,
  orderClientRoutes,
  sandboxRoutes,
} from './orders/orders.module.js';
import { consoleRoutes } from './console/console.routes.js';
import { installPortalAccess, studioOf } from './portal/portal-access.routes.js';
import { studioActor } from './portal/studio-developers.service.js';
import { portalRoutes } from './portal/portal.routes.js';
import { portalDeliveryRoutes } from './portal/portal-delivery.routes.js';
import { portalOrderRoutes } from './portal/portal-orders.routes.js';
import { portalPageRoutes } from './portal/portal.page.routes.js';
import { studioDeveloperRoutes } from './portal/studio-developers.routes.js';
import { payLinkRoutes, webPayAdminRoutes, webPayApiRoutes, webPayPageRoutes } from './web-pay/web-pay.module.js';
import { adminAuditRoutes, recordAdminActions } from './admin-audit/admin-audit.routes.js';
import {
  storeConsumptionAdminRoutes,
  storeConsumptionRoutes,
  storeMessageRoutes,
  storeNotifyRoutes,
  storePurchaseRoutes,
} from './store-payments/store-payments.module.js';
import {
  providerAdminRoutes,
  providerWebhookRoutes,
  refundAdminRoutes,
  refundPortalRoutes,
} from './payment-providers/payment-providers.module.js';

/** The HTTP service (http/server.ts) with every route of these services. */
export function buildApp(services: Services, opts: BuildOptions = {}): Promise<FastifyInstance> {
  return buildServer(services.config, (app) => registerRoutes(app, services), opts);
}

/**
 * Every route of the service, by area. A domain contributes a plugin; the
 * admin ones are mounted under /admin/v1 behind operator sign-in and the permission table (operators/).
 */
export async function registerRoutes(app: FastifyInstance, services: Services): Promise<void> {
  registerHealthRoutes(app, services.database);
  registerHomeRoute(app);
  app.addSchema(App);
  app.addSchema(ReportView);
  await app.register(reportingRoutes(services));
  if (services.evidence.storage.backend === 'embedded') await app.register(evidenceRoutes(services));
  addOrderSchemas(app);

  await app.register(
    async (admin) => {
      installAdminAccess(admin, {
        adminToken: services.adminToken,
        adminTokenEnabled: services.config.ADMIN_TOKEN_ENABLED,
        operators: services.operators,
        signIn: services.operatorSignIn,
        tokens: services.operatorTokens,
      });
      recordAdminActions(admin, services.adminAudit, (request) => {
        const p = principalOf(request);
        return { operator: p.name, operatorId: p.operatorId };
      });
      // In this order: the OpenAPI document lists the paths as they are registered.
      const adminPlugins = [
        operatorRoutes,
        oidcRoutes,
        adminAuditRoutes,
        appRoutes,
        storeSettingsRoutes,
        storeMessageRoutes,
        storeConsumptionAdminRoutes,
        platformKeyRoutes,
        accountAdminRoutes,
        deliveryRoutes,
        callLogRoutes,
        moderationRoutes,
        orderAdminRoutes,
        sandboxRoutes,
        webPayAdminRoutes,
        providerAdminRoutes,
        refundAdminRoutes,
        studioDeveloperRoutes,
        overviewRoutes,
      ];
      for (const routes of adminPlugins) await admin.register(routes(services));
    },
    { prefix: '/admin/v1' },
  );

  // The studio portal's API (portal/): a studio developer's session, its own apps only; never /admin/v1.
  await app.register(
    async (portal) => {
      installPortalAccess(portal, { signIn: services.portalSignIn, developers: services.studioDevelopers });
      recordAdminActions(portal, services.adminAudit, (request) => ({
        operator: studioActor(studioOf(request).name),
        operatorId: null,
      }));
      for (const routes of [portalRoutes, portalDeliveryRoutes, portalOrderRoutes, refundPortalRoutes])
        await portal.register(routes(services));
    },
    { prefix: '/portal/v1' },
  );

  await app.register(publicPlatformKeyRoutes(services));
  await app.register(profileRoutes(services));
  await app.register(svcIdRoutes(services));
  await app.register(clientRoutes(services));
  await app.register(pullRoutes(services));
  services.delivery.attachMetrics(app.metrics);
  services.gameCalls.metrics.attach(app.metrics);
  services.retention.attach(app.metrics);
  services.cacheBus?.attach(app.metrics);
  attachReplicaMetrics(app.metrics, services.database.replicaLag);
  services.signInMetrics.attach(app.metrics);
  services.adminAudit.refusalMetrics.attach(app.metrics);
  await app.register(consumptionRoutes(services));
  await app.register(orderClientRoutes(services));
  await app.register(storePurchaseRoutes(services));
  await app.register(storeNotifyRoutes(services));
  await app.register(storeConsumptionRoutes(services));
  services.storePayments.messages.attach(app.metrics);
  services.storePayments.useLogger(app.log);
  await app.register(providerWebhookRoutes(services));
  services.paymentProviders.payments.attach(app.metrics);
  services.paymentProviders.useLogger(app.log);
  // The operator console: public static files; its data calls go to /admin/v1 with a session cookie or a token.
  await app.register(consoleRoutes);
  // The studio portal page: public static files; its data calls go to /portal/v1 with the portal cookie.
  await app.register(portalPageRoutes);
  // The official web payment page (issue 18): launch links, the page, its JSON API.
  await app.register(payLinkRoutes(services));
  await app.register(webPayPageRoutes(services));
  await app.register(webPayApiRoutes(services));
}
