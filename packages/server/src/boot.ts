import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { buildApp } from './routes.js';
import { createServices, type Services } from './services.js';
import { startAccountSweep } from './accounts/accounts.module.js';
import { metricsStartupLine } from './http/metrics.js';

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
  // Where a newcomer goes next comes right after the address (issue 34), then what the start noticed.
  for (const line of whereToGo(url, config, services.adminTokenFile)) app.log.info(line);
  for (const note of services.startupNotes) app.log.info(note);
  for (const line of settingLines(config)) app.log[line.startsWith('SANDBOX') ? 'warn' : 'info'](line);
  services.delivery.start(app.log);
  services.cacheBus?.start(app.log);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(purge);
      clearInterval(sweep);
      for (const job of [retention, reconcile, providerReconcile]) if (job) clearInterval(job);
      await app.close();
      await services.close();
    })();
    return stopping;
  };
  return { app, services, url, stop };
}

/**
 * The lines that tell a person who just ran `npm start` where to go: the console's address (localhost when the
 * service listens on every interface) and how to sign in the first time, with the break-glass token (docs/operators.md).
 */
export function whereToGo(
  url: string,
  config: Pick<Config, 'ADMIN_TOKEN_ENABLED'>,
  adminTokenFile: string | undefined,
): string[] {
  const address = new URL(url);
  if (address.hostname === '0.0.0.0' || address.hostname === '[::]') address.hostname = 'localhost';
  const lines = [`console: open ${address.origin}/console/ in a browser`];
  if (!config.ADMIN_TOKEN_ENABLED)
    lines.push('sign in: with an operator name, password and authenticator code (the break-glass token is retired)');
  else
    lines.push(
      'first sign-in: choose "Break-glass admin token" on the sign-in page and paste ' +
        (adminTokenFile ? `the token in ${adminTokenFile}` : 'the ADMIN_TOKEN this service was given') +
        '; the console then offers to create the first admin',
    );
  return lines;
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

/**
 * The settings a person should know are on (issue 41): who may read /metrics, and the sandboxes, loudly (a warning
 * line each), since a sandbox payment or sign-in must never go unnoticed.
 */
export function settingLines(
  config: Pick<
    Config,
    'METRICS_TOKEN' | 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_PUBLIC' | 'SANDBOX_PAYMENTS' | 'SANDBOX_LOGIN'
  >,
): string[] {
  const lines = [metricsStartupLine(config)];
  if (config.SANDBOX_PAYMENTS)
    lines.push(
      'SANDBOX PAYMENTS ARE ON (SANDBOX_PAYMENTS=true): orders can be paid without money; never in production',
    );
  if (config.SANDBOX_LOGIN)
    lines.push(
      'SANDBOX LOGIN IS ON (SANDBOX_LOGIN=true): players can sign in with minted assertions; never in production',
    );
  return lines;
}
