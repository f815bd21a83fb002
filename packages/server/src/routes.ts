import type { FastifyInstance } from 'fastify';
import type { Services } from './services.js';
import { registerHealthRoutes } from './http/health.js';
import { attachReplicaMetrics } from './db/replica.metrics.js';
import { registerHomeRoute } from './http/home.js';
import { buildServer, type BuildOptions } from './http/server.js';
import { installAdminAccess, oidcRoutes, operatorRoutes, principalOf } from './operators/operators.module.js';
import { App, appRoutes } from './apps/apps.module.js';
import { storeSettingsRoutes } from './app-stores/app-stores.module.js';
import { platformKeyRoutes, publicPlatformKeyRoutes } from './platform-keys/platform-keys.module.js';
import { accountAdminRoutes, clientRoutes, profileRoutes, svcIdRoutes } from './accounts/accounts.module.js';
import { deliveryRoutes, pullRoutes } from './delivery/delivery.module.js';
import { callLogRoutes } from './game-calls/game-calls.module.js';
import { overviewRoutes } from './overview/overview.module.js';
import { evidenceRoutes } from './evidence/evidence.module.js';
import { moderationRoutes, reportingRoutes, ReportView } from './reporting/reporting.module.js';
import {
  addOrderSchemas,
  consumptionRoutes,
  orderAdminRoutes,
  orderClientRoutes,
  sandboxRoutes,
} from './orders/orders.module.js';
import { consoleRoutes } from './console/console.module.js';
import {
  installPortalAccess,
  portalDeliveryRoutes,
  portalOrderRoutes,
  portalPageRoutes,
  portalRoutes,
  studioActor,
  studioDeveloperRoutes,
  studioOf,
} from './portal/portal.module.js';
import { payLinkRoutes, webPayAdminRoutes, webPayApiRoutes, webPayPageRoutes } from './web-pay/web-pay.module.js';
import { adminAuditRoutes, recordAdminActions } from './admin-audit/admin-audit.module.js';
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
