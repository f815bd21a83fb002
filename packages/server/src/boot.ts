import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { buildApp } from './routes.js';
import { createServices, type Services } from './services.js';
import { startAccountSweep } from './accounts/sweep.js';

/** Housekeeping: used nonces and old placement claims are purged this often. */
const PURGE_MS = 60_000;

export interface RunningService {
  app: FastifyInstance;
  services: Services;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the service: storage (migrated), services, HTTP, housekeeping.
 * stop() stops accepting, lets in-flight requests finish, then closes storage
 * (services.close() first stops the delivery dispatcher, letting its sends finish).
 */
export async function startService(config: Config): Promise<RunningService> {
  const services = await createServices(config);
  const app = await buildApp(services);
  for (const note of services.startupNotes) app.log.info(note);

  const purge = setInterval(() => {
    services.nonces.purgeExpired(Date.now()).catch((err) => app.log.warn({ err }, 'nonce purge failed'));
    services.orders.orders
      .purgeClaims(Date.now())
      .catch((err) => app.log.warn({ err }, 'placement claim purge failed'));
  }, PURGE_MS);
  purge.unref();
  const sweep = startAccountSweep(services, (err) => app.log.warn({ err }, 'account cancellation sweep failed'));
  const retention = services.retention.start((err) => app.log.warn({ err }, 'retention sweep failed'));
  const reconcile = services.storePayments.reconciliation.start((err) =>
    app.log.warn({ err }, 'store reconciliation failed'),
  );
  const providerReconcile = services.paymentProviders.reconciliation.start((err) =>
    app.log.warn({ err }, 'payment provider reconciliation failed'),
  );

  const url = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(
    { database: services.database.dialect.name, region: config.REGION, node: process.version },
    `service listening on ${url}`,
  );
  services.delivery.start(app.log);
  services.cacheBus?.start(app.log);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(purge);
      clearInterval(sweep);
      clearInterval(retention);
      if (reconcile) clearInterval(reconcile);
      if (providerReconcile) clearInterval(providerReconcile);
      await app.close();
      await services.close();
    })();
    return stopping;
  };
  return { app, services, url, stop };
}

/** Runs until SIGTERM/SIGINT, then shuts down gracefully (10 s at most). */
export async function serveUntilSignal(config: Config): Promise<void> {
  const running = await startService(config);
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) running.app.log.error({ err }, 'shutting down after an error');
    else running.app.log.info({ signal }, 'shutting down');
    await running.stop();
  });
}
