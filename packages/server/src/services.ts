import path from 'node:path';
import { noCacheBus, type CacheBus } from './cache/cache-bus.js';
import { pgCacheBus, type PgCacheBus } from './cache/pg-cache-bus.js';
import type { Config } from './config/config.js';
import { currentSchema, openDatabase, type Database } from './db/database.js';
import type { Tables } from './db/tables.js';
import { migrateToLatest } from './db/migrate.js';
import { SecretBox, randomToken, readOrCreateSecretFile } from './crypto/secret-box.js';
import { loadMasterKeys } from './crypto/master-keys.js';
import { createAdminAudit, type AdminAuditService } from './admin-audit/admin-audit.module.js';
import { createApps, type AppRecord, type AppService } from './apps/apps.module.js';
import { createPlatformKeys, type PlatformKeyService } from './platform-keys/platform-keys.module.js';
import { NonceLedger } from './auth/nonce-ledger.js';
import { md5Scheme, type Md5Scheme } from './auth/md5.js';
import { macScheme, type MacScheme } from './auth/mac.js';
import { ReplayGuard } from './auth/replay.js';
import { createOrdersDomain, type OrdersDomain, type PaymentChannelAdapter } from './orders/orders.module.js';
import { createAccounts, type AccountService, type TokenSession } from './accounts/accounts.module.js';
import { createDelivery, outboundHttp, type DeliveryService } from './delivery/delivery.module.js';
import { createGameCalls, type CallLogService, type GameCallsClient } from './game-calls/game-calls.module.js';
import { createEvidence, type EvidenceService } from './evidence/evidence.module.js';
import { createReporting, type ModerationService, type ReportService } from './reporting/reporting.module.js';
import { createRetention, type Retention } from './retention/retention.module.js';
import { createMasterKey, type SealedValuesRepository } from './master-key/master-key.module.js';
import { startTracing, stopTracing } from './tracing/tracing.js';
import { createStoreSettings, type StoreSettingsService } from './app-stores/app-stores.module.js';
import {
  createOperators,
  type OidcSignIn,
  type OperatorService,
  type OperatorTokenService,
  type SignInService,
} from './operators/operators.module.js';
import { createIdentity, type PasskeyService, type SignInMetrics } from './identity/identity.module.js';
import { createPortal, type PortalSignInService, type StudioDeveloperService } from './portal/portal.module.js';
import { createOverview, type OverviewDomain } from './overview/overview.module.js';
import { createWebPay, type WebPayDomain } from './web-pay/web-pay.module.js';
import {
  createPaymentProviders,
  createProviderSettings,
  providerChannel,
  type PaymentProvidersDomain,
} from './payment-providers/payment-providers.module.js';
import {
  APPLE_CONSUMPTION_TARGET,
  createStoreClients,
  createStorePayments,
  storeChannel,
  type StorePaymentsDomain,
} from './store-payments/store-payments.module.js';

/**
 * Everything the routes depend on, built once per service instance:
 * storage at the bottom, domain services on top. Routes receive this and
 * never reach the database themselves.
 */
export interface Services {
  config: Config;
  database: Database<Tables>;
  box: SecretBox;
  adminToken: string;
  /** The file the break-glass token was read from or generated into (embedded mode, ADMIN_TOKEN unset). */
  adminTokenFile: string | undefined;
  apps: AppService;
  keys: PlatformKeyService;
  nonces: NonceLedger;
  replay: ReplayGuard;
  /** The md5 scheme of 5.1: a preHandler per route (auth/md5.ts). */
  md5: Md5Scheme<AppRecord>;
  /** The MAC scheme of 5.2 over the accounts' tokens: a hook per route (auth/mac.ts). */
  mac: MacScheme<AppRecord, TokenSession>;
  /** Products, orders, refunds and supplements, consumption notices (2.4-2.7, 4.5, 4.6). */
  orders: OrdersDomain;
  /** Accounts: logins, MAC tokens, profile (4.3), open id lookup (4.4), cancellation, bans. */
  accounts: AccountService;
  /** Outbox dispatcher and operator actions (4.7, 5.3, 6); started by startService. */
  delivery: DeliveryService;
  /** Role query, role list, pre-order check (4.8-4.10). */
  gameCalls: GameCallsClient;
  /** The operator's view of the calls to games (4.8-4.10). */
  callLog: CallLogService;
  evidence: EvidenceService;
  reports: ReportService;
  moderation: ModerationService;
  /** The audit trail of the admin API (who changed what, X-Operator). */
  adminAudit: AdminAuditService;
  /** Per-app App Store and Google Play settings (app-stores/store-settings.service.ts). */
  storeSettings: StoreSettingsService;
  /** Operator accounts, their console sign-in and sessions (operators/, docs/operators.md). */
  operators: OperatorService;
  /** Console sign-in and sessions of operator accounts. */
  operatorSignIn: SignInService;
  /** Failed sign-ins and lockouts of operators and studio developers (metrics). */
  signInMetrics: SignInMetrics;
  /** Operator sign-in through the company's OpenID Connect provider; null when OIDC_ISSUER_URL is unset. */
  operatorOidc: OidcSignIn | null;
  /** Per-operator API tokens. */
  operatorTokens: OperatorTokenService;
  /** Studio developer accounts of the portal, invited by operators (portal/, docs/portal.md). */
  studioDevelopers: StudioDeveloperService;
  /** Portal sign-in and sessions of studio developers. */
  portalSignIn: PortalSignInService;
  /** Passkeys (WebAuthn) of operators and studio developers (identity/passkeys.service.ts). */
  passkeys: PasskeyService;
  /** The overview's series, read from the domains' own stores: the console's and a studio's (overview/). */
  overview: OverviewDomain;
  /** The official web payment page: launch links, page sessions, its settings (web-pay/, docs/web-payment.md). */
  webPay: WebPayDomain;
  /** App Store and Google Play payments, notifications and reconciliation (store-payments/). */
  storePayments: StorePaymentsDomain;
  /** Web payment providers: settings, webhooks, payments, reconciliation (payment-providers/). */
  paymentProviders: PaymentProvidersDomain;
  /** The sealed columns' values of every domain, for the master key's rotation (master-key/). */
  sealedValues: SealedValuesRepository;
  /** Deletes traffic records past their retention (docs/operations.md, "Retention"); started by startService. */
  retention: Retention;
  /** Notes for the operator printed at start (where generated secrets were written). */
  startupNotes: string[];
  /** The cache bus of several instances on PostgreSQL (started by startService); null on SQLite. */
  cacheBus: PgCacheBus | null;
  close(): Promise<void>;
}

/** The service's version, as its spans report it (packages/server/package.json). */
const SERVICE_VERSION = '0.1.0';

export interface ServiceOverrides {
  /** An already-open database (tests hand each file a fresh one). */
  database?: Database;
  now?: () => number;
  /** Payment channel adapters asked before the stores' and the sandbox (tests: a fixture provider). */
  channelAdapters?: PaymentChannelAdapter[];
}

export async function createServices(config: Config, overrides: ServiceOverrides = {}): Promise<Services> {
  const startupNotes: string[] = [];
  // Before anything makes a span: the request hooks and the clients test whether tracing runs.
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
    await startTracing({
      endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
      headers: config.otelHeaders,
      serviceName: config.OTEL_SERVICE_NAME,
      serviceVersion: SERVICE_VERSION,
      sampleRatio: config.OTEL_TRACES_SAMPLER_ARG,
    });
    startupNotes.push(`tracing: spans go to ${config.OTEL_EXPORTER_OTLP_ENDPOINT} (OTLP/HTTP protobuf)`);
  }
  const database =
    overrides.database ??
    openDatabase<Tables>({
      url: config.DATABASE_URL,
      sqliteFile: path.join(config.dataDir, 'platform.db'),
      poolSize: config.DATABASE_POOL_SIZE,
      readUrl: config.DATABASE_READ_URL,
    });
  await migrateToLatest(database);
  // Several instances on one PostgreSQL tell each other of cache changes at once (LISTEN/NOTIFY); one needs none.
  const cacheBus = database.notifications ? pgCacheBus(database.notifications, await currentSchema(database)) : null;
  const caches: CacheBus = cacheBus ?? noCacheBus;

  const masterKeys = loadMasterKeys(config, startupNotes);
  let adminToken = config.ADMIN_TOKEN;
  let adminTokenFile: string | undefined;
  if (!adminToken) {
    const file = readOrCreateSecretFile(config.dataDir, 'admin-token', () => randomToken(32));
    startupNotes.push(`admin API token is in ${file.file}${file.created ? ' (generated now)' : ''}`);
    adminToken = file.value;
    adminTokenFile = file.file;
  }

  const now = overrides.now ?? Date.now;
  const box = new SecretBox(masterKeys.current, masterKeys.previous);
  const nonces = new NonceLedger(database);
  const apps = createApps({ db: database.db, keyReads: database, box, config, now, cacheBus: caches });
  const { keys, signPool } = await createPlatformKeys({
    db: database.db,
    box,
    now,
    signWorkers: config.SIGN_WORKERS,
    cacheBus: caches,
  });
  const replay = new ReplayGuard(nonces, config.SIGN_WINDOW_SECONDS, now);
  const accounts = createAccounts({
    db: database.db,
    reads: database.reads,
    dialect: database.dialect,
    config,
    box,
    apps,
    now,
    cacheBus: caches,
  });
  const resolveApp = (clientId: string) => apps.requireActive(clientId);
  const appNow = (clientId: string) => apps.activeNow(clientId);
  const md5 = md5Scheme({ resolveApp, appNow, replay, nonces });
  const mac = macScheme({
    resolveApp,
    appNow,
    lookupToken: (kid) => accounts.tokens.lookup(kid),
    tokenNow: (kid) => accounts.tokens.lookupNow(kid),
    refuseToken: (token, app) => accounts.refuseToken(token, app),
    replay,
    publicHost: config.PUBLIC_HOST,
    publicPort: config.PUBLIC_PORT,
  });
  const http = outboundHttp(config);
  // What both kinds of call to a game use: its app, our signing key, the outbound HTTP client.
  const callsToGames = {
    db: database.db,
    reads: database.reads,
    dialect: database.dialect,
    config,
    apps,
    keys,
    http,
    now,
  };
  const { delivery, purge: deliveryPurge } = createDelivery(callsToGames);
  const { gameCalls, callLog, calls } = createGameCalls(callsToGames);
  const evidence = await createEvidence({ db: database.db, config, masterKeys, now });
  const { reports, moderation } = createReporting({
    db: database.db,
    reads: database.reads,
    dialect: database.dialect,
    config,
    evidence,
    bans: accounts.bans,
    now,
  });

  // Whether an app exists: the store and provider settings refuse a setting for an unknown app.
  const appExists = async (appId: number) => (await apps.resolveByAppId(appId)) !== null;
  const storeSettings = createStoreSettings({
    db: database.db,
    box,
    appExists,
    now,
    cacheBus: caches,
  });
  const storeClients = createStoreClients(storeSettings, config);
  const providerSettings = createProviderSettings({ db: database.db, box, config, appExists, now, cacheBus: caches });
  const orders: OrdersDomain = createOrdersDomain({
    database,
    config,
    apps,
    now,
    channelAdapters: [
      ...(overrides.channelAdapters ?? []),
      providerChannel({ settings: providerSettings, config, products: () => orders.products, now }),
      storeChannel(storeClients),
    ],
    cacheBus: caches,
  });
  const paymentProviders = createPaymentProviders({
    db: database.db,
    dialect: database.dialect,
    config,
    settings: providerSettings,
    orders: orders.orders,
    applyRefund: (refund) => orders.webRefunds.apply(refund),
    lockOrder: (trx, trxNo) => orders.webRefunds.lockRemaining(trx, trxNo),
    now,
    reads: database.reads,
  });
  const storePayments = createStorePayments({
    db: database.db,
    dialect: database.dialect,
    config,
    clients: storeClients,
    settings: storeSettings,
    orders,
    events: (ids) => delivery.events.byIds(ids),
    now,
    reads: database.reads,
  });
  // Apple's Send Consumption Information goes through the delivery engine's outbox and retries (issue 27).
  delivery.dispatcher.registerSender(APPLE_CONSUMPTION_TARGET, storePayments.consumption.send);

  const webPay = createWebPay({ db: database.db, box, apps, gameCalls, orders, providers: paymentProviders, now });
  const { adminAudit, adminActions } = createAdminAudit({ db: database.db, reads: database.reads, config, now });
  // Operators and studio developers are people of one identity model (identity/), signing in by the same rules;
  // they differ in the grants their doors accept.
  const identity = createIdentity({ db: database.db, box, config, record: (e) => adminAudit.recordEvent(e), now });
  const retention = createRetention({
    db: database.db,
    postgres: database.dialect.name === 'postgres',
    config,
    now,
    purge: {
      deliveryEvents: (cutoff, limit) => deliveryPurge.finishedEvents(cutoff, limit),
      deliveryAttempts: (cutoff, limit) => deliveryPurge.attempts(cutoff, limit),
      gameCalls: (cutoff, limit) => calls.purgeBefore(cutoff, limit),
      payLinks: (cutoff, limit) => webPay.links.purgeBefore(cutoff, limit),
      adminActions: (cutoff, limit) => adminActions.purgeBefore(cutoff, limit),
    },
  });

  return {
    config,
    database,
    box,
    adminToken,
    adminTokenFile,
    apps,
    keys,
    nonces,
    replay,
    md5,
    mac,
    accounts,
    delivery,
    gameCalls,
    callLog,
    webPay,
    evidence,
    reports,
    moderation,
    orders,
    adminAudit,
    ...createOperators(identity, config),
    signInMetrics: identity.signInMetrics,
    ...createPortal(identity, (appId) => apps.get(appId)),
    passkeys: identity.passkeys,
    overview: createOverview(database.reads),
    storeSettings,
    storePayments,
    paymentProviders,
    ...createMasterKey({ db: database.db }),
    retention,
    startupNotes,
    cacheBus,
    close: async () => {
      await delivery.stop();
      await cacheBus?.close();
      http.close();
      await signPool.close();
      await database.close();
      await stopTracing();
    },
  };
}
