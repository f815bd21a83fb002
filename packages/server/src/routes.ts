import type { FastifyInstance } from 'fastify';
import type { Services } from './services.js';
import { registerHealthRoutes } from './http/health.js';
import { buildServer, type BuildOptions } from './http/server.js';
import { adminAuth } from './auth/admin.js';
import { App } from './apps/apps.schemas.js';
import { appRoutes } from './apps/apps.routes.js';
import { storeSettingsRoutes } from './app-stores/store-settings.routes.js';
import { platformKeyRoutes } from './platform-keys/keys.routes.js';
import { profileRoutes } from './accounts/profile.routes.js';
import { svcIdRoutes } from './accounts/svc-id.routes.js';
import { clientRoutes } from './accounts/client.routes.js';
import { accountAdminRoutes } from './accounts/admin.routes.js';
import { deliveryRoutes } from './delivery/delivery.routes.js';
import { callLogRoutes } from './game-calls/call-log.routes.js';
import { pullRoutes } from './delivery/pull.routes.js';
import { evidenceRoutes } from './evidence/evidence.routes.js';
import { ReportView } from './reporting/moderation.schemas.js';
import { moderationRoutes } from './reporting/moderation.routes.js';
import { reportingRoutes } from './reporting/reporting.routes.js';
import { addOrderSchemas, orderAdminRoutes } from './orders/admin.routes.js';
import { sandboxRoutes } from './orders/sandbox.routes.js';
import { consumptionRoutes } from './orders/consumption.routes.js';
import { orderClientRoutes } from './orders/client.routes.js';
import { consoleRoutes } from './console/console.routes.js';
import { adminAuditRoutes, recordAdminActions } from './admin-audit/admin-audit.routes.js';
import { storeMessageRoutes, storeNotifyRoutes, storePurchaseRoutes } from './store-payments/store-payments.routes.js';

/** The HTTP service (http/server.ts) with every route of these services. */
export function buildApp(services: Services, opts: BuildOptions = {}): Promise<FastifyInstance> {
  return buildServer(services.config, (app) => registerRoutes(app, services), opts);
}

/**
 * Every route of the service, by area. A domain contributes a plugin; the
 * admin ones are mounted under /admin/v1 behind the bearer token.
 */
export async function registerRoutes(app: FastifyInstance, services: Services): Promise<void> {
  registerHealthRoutes(app, services.database);
  app.addSchema(App);
  app.addSchema(ReportView);
  await app.register(reportingRoutes(services));
  if (services.evidence.storage.backend === 'embedded') await app.register(evidenceRoutes(services));
  addOrderSchemas(app);

  await app.register(
    async (admin) => {
      admin.addHook('onRequest', adminAuth(services.adminToken));
      recordAdminActions(admin, services.adminAudit);
      await admin.register(adminAuditRoutes(services));
      await admin.register(appRoutes(services));
      await admin.register(storeSettingsRoutes(services));
      await admin.register(storeMessageRoutes(services));
      await admin.register(platformKeyRoutes(services));
      await admin.register(accountAdminRoutes(services));
      await admin.register(deliveryRoutes(services));
      await admin.register(callLogRoutes(services));
      await admin.register(moderationRoutes(services));
      await admin.register(orderAdminRoutes(services));
      await admin.register(sandboxRoutes(services), { prefix: '/sandbox' });
    },
    { prefix: '/admin/v1' },
  );

  await app.register(profileRoutes(services));
  await app.register(svcIdRoutes(services));
  await app.register(clientRoutes(services));
  await app.register(pullRoutes(services));
  services.delivery.attachMetrics(app.metrics);
  services.gameCalls.metrics.attach(app.metrics);
  services.retention.attach(app.metrics);
  await app.register(consumptionRoutes(services));
  await app.register(orderClientRoutes(services));
  await app.register(storePurchaseRoutes(services));
  await app.register(storeNotifyRoutes(services));
  services.storePayments.messages.attach(app.metrics);
  services.storePayments.useLogger(app.log);
  // The operator console: public static files; its data calls go to /admin/v1 with the bearer token.
  await app.register(consoleRoutes);
}
