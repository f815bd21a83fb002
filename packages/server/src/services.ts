import path from 'node:path';
import { createPartitionsAhead, dropPartitionsBefore } from './db/partitions.js';
import { noCacheBus, type CacheBus } from './cache/cache-bus.js';
import { pgCacheBus, type PgCacheBus } from './cache/pg-cache-bus.js';
import type { Config } from './config/config.js';
import { currentSchema, openDatabase, type Database } from './db/database.js';
import type { Tables } from './db/tables.js';
import { migrateToLatest } from './db/migrate.js';
import { SecretBox, randomToken, readOrCreateSecretFile } from './crypto/secret-box.js';
import { loadMasterKeys } from './crypto/master-keys.js';
import { AdminActionsRepository } from './admin-audit/admin-actions.repository.js';
import { AdminAuditService } from './admin-audit/admin-audit.service.js';
import { AppsRepository } from './apps/apps.repository.js';
import { AppService, type AppRecord } from './apps/apps.service.js';
import { PlatformKeysRepository } from './platform-keys/keys.repository.js';
import { PlatformKeyService } from './platform-keys/keys.service.js';
import { SignPool } from './platform-keys/sign-pool.js';
import { NonceLedger } from './auth/nonce-ledger.js';
import { md5Scheme, type Md5Scheme } from './auth/md5.js';
import { macScheme, type MacScheme } from './auth/mac.js';
import { ReplayGuard } from './auth/replay.js';
import { createOrdersDomain, type OrdersDomain, type PaymentChannelAdapter } from './orders/orders.module.js';
import type { AccountService } from './accounts/accounts.service.js';
import type { TokenSession } from './accounts/tokens.service.js';
import { createAccounts } from './accounts/accounts.module.js';
import { DeliveryService } from './delivery/delivery.service.js';
import { deliveryOptions, outboundHttp } from './delivery/delivery.config.js';
import { GameCallsClient } from './game-calls/game-calls.js';
import { CallLogRepository } from './game-calls/call-log.repository.js';
import { CallLogService } from './game-calls/call-log.service.js';
import { createEvidenceStorage, evidenceLimits } from './evidence/create-storage.js';
import { EvidenceRepository } from './evidence/evidence.repository.js';
import { EvidenceService } from './evidence/evidence.service.js';
import { ModerationRepository } from './reporting/moderation.repository.js';
import { ModerationService } from './reporting/moderation.service.js';
import { ReportsStore } from './reporting/reports.store.js';
import { ReportService } from './reporting/report.service.js';
import { Retention } from './retention/retention.js';
import { startTracing, stopTracing } from './tracing/tracing.js';
import { StoreSettingsRepository } from './app-stores/store-settings.repository.js';
import { StoreSettingsService } from './app-stores/store-settings.service.js';
import { purgeAttempts, purgeFinishedEvents } from './delivery/purge.js';
import type { OperatorService } from './operators/operators.service.js';
import type { OperatorTokenService } from './operators/operator-tokens.service.js';
import type { SignInService } from './operators/sign-in.service.js';
import { createOperators } from './operators/operators.module.js';
import { PeopleRepository } from './identity/people.repository.js';
import { InvitationsRepository } from './identity/invitations.repository.js';
import { PasskeyService } from './identity/passkeys.service.js';
import { smtpMailer } from './identity/mailer.js';
import { SignInMetrics } from './identity/sign-in.metrics.js';
import { createPortal } from './portal/portal.module.js';
import type { StudioDeveloperService } from './portal/studio-developers.service.js';
import type { PortalSignInService } from './portal/portal-sign-in.service.js';
import { OidcSignIn } from './identity/oidc.js';
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
  /** The official web payment page: launch links, page sessions, its settings (web-pay/, docs/web-payment.md). */
  webPay: WebPayDomain;
  /** App Store and Google Play payments, notifications and reconciliation (store-payments/). */
  storePayments: StorePaymentsDomain;
  /** Web payment providers: settings, webhooks, payments, reconciliation (payment-providers/). */
  paymentProviders: PaymentProvidersDomain;
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
  const apps = new AppService(new AppsRepository(database.db, database.named), box, {
    defaultRegion: config.REGION,
    secretGraceSeconds: config.SECRET_GRACE_SECONDS,
    now,
    cacheBus: caches,
  });
  const signPool = new SignPool(config.SIGN_WORKERS);
  const keys = new PlatformKeyService(new PlatformKeysRepository(database.db), box, now, signPool, caches);
  await keys.ensureKey();
  // Opens the signing key now: a master key that does not open what is stored stops the start, naming the key it needs.
  await keys.signer();
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
  const md5 = md5Scheme({ resolveApp, replay, nonces });
  const mac = macScheme({
    resolveApp,
    lookupToken: (kid) => accounts.tokens.lookup(kid),
    refuseToken: (token, app) => accounts.refuseToken(token, app),
    replay,
    publicHost: config.PUBLIC_HOST,
    publicPort: config.PUBLIC_PORT,
  });
  const http = outboundHttp(config);
  const delivery = new DeliveryService(
    database.db,
    database.dialect,
    apps,
    keys,
    http,
    deliveryOptions(config),
    now,
    database.reads,
  );
  const callLog = new CallLogRepository(database.db, database.dialect);
  const gameCalls = new GameCallsClient(callLog, keys, http, { timeoutMs: config.GAME_CALL_TIMEOUT_MS }, now);
  const evidence = new EvidenceService(
    new EvidenceRepository(database.db),
    await createEvidenceStorage(config, masterKeys, now),
    evidenceLimits(config),
    now,
  );
  const reportLimits = {
    maxReasons: config.REPORT_MAX_REASONS,
    descriptionMaxChars: config.REPORT_DESCRIPTION_MAX_CHARS,
    extrasMaxChars: config.REPORT_EXTRAS_MAX_CHARS,
    duplicateWindowSeconds: config.REPORT_DUPLICATE_WINDOW_SECONDS,
    dailyCapPerReporter: config.REPORT_DAILY_CAP_PER_REPORTER,
    openCapPerReportee: config.REPORT_OPEN_CAP_PER_REPORTEE,
  };
  const reportsStore = new ReportsStore(
    database.db,
    database.dialect,
    // The rules of a batch, at its time.
    () => ({
      now: now(),
      duplicateWindowMs: reportLimits.duplicateWindowSeconds * 1000,
      dailyCap: reportLimits.dailyCapPerReporter,
      openCap: reportLimits.openCapPerReportee,
    }),
    (trx, rows) => evidence.recordUploads(trx, rows),
  );
  const reports = new ReportService(reportsStore, evidence, reportLimits);
  const moderation = new ModerationService(
    database.db,
    new ModerationRepository(database.db),
    evidence,
    database.dialect.name === 'postgres',
    accounts.bans,
    now,
    new ModerationRepository(database.reads),
  );

  const storeSettings = new StoreSettingsService(
    new StoreSettingsRepository(database.db),
    box,
    async (appId) => (await apps.resolveByAppId(appId)) !== null,
    now,
    caches,
  );
  const storeClients = createStoreClients(storeSettings, config);
  const appExists = async (appId: number) => (await apps.resolveByAppId(appId)) !== null;
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
  const adminActions = new AdminActionsRepository(database.db);
  const adminAudit = new AdminAuditService(
    adminActions,
    now,
    config.AUDIT_REFUSALS_PER_MINUTE,
    new AdminActionsRepository(database.reads),
  );
  const signInMetrics = new SignInMetrics();
  // Operators and studio developers are people of one identity model (identity/), signing in by the same rules;
  // they differ in the grants their doors accept.
  const identity = {
    people: new PeopleRepository(database.db),
    box,
    issuer: config.PUBLIC_HOST ?? 'game platform',
    record: (e: Parameters<AdminAuditService['recordEvent']>[0]) => adminAudit.recordEvent(e),
    signIn: {
      sessionSeconds: config.OPERATOR_SESSION_SECONDS,
      maxFailures: config.OPERATOR_LOGIN_MAX_FAILURES,
      lockSeconds: config.OPERATOR_LOCK_SECONDS,
      failureDelayMs: config.OPERATOR_LOGIN_DELAY_MS,
    },
    signInMetrics,
    invitations: new InvitationsRepository(database.db),
    passkeys: new PasskeyService(new InvitationsRepository(database.db), now),
    mailer: smtpMailer(config.SMTP_URL, config.SMTP_FROM),
    invitationTtlMs: config.INVITATION_TTL_HOURS * 3_600_000,
    now,
  };
  const db = database.db;
  // PostgreSQL: the history tables partitioned by day (migration 0029); retention drops their old days whole.
  const history =
    database.dialect.name === 'postgres'
      ? {
          delivery_attempts: { table: 'delivery_attempts', column: 'started_at' },
          game_calls: { table: 'game_calls', column: 'started_at' },
        }
      : null;
  const retention = new Retention(
    [
      {
        kind: 'delivery_events',
        days: config.RETENTION_DELIVERY_DAYS,
        // The attempts deleted with their events count as delivery_attempts.
        purgeBatch: async (cutoff, limit) => {
          const r = await purgeFinishedEvents(db, cutoff, limit);
          return { rows: r.events, also: { delivery_attempts: r.attempts } };
        },
      },
      {
        kind: 'delivery_attempts',
        days: config.RETENTION_DELIVERY_DAYS,
        purgeBatch: (cutoff, limit) => purgeAttempts(db, cutoff, limit),
        ...(history && { dropBefore: (cutoff) => dropPartitionsBefore(db, history.delivery_attempts, cutoff) }),
      },
      {
        kind: 'game_calls',
        days: config.RETENTION_GAME_CALLS_DAYS,
        purgeBatch: (cutoff, limit) => callLog.purgeBefore(cutoff, limit),
        ...(history && { dropBefore: (cutoff) => dropPartitionsBefore(db, history.game_calls, cutoff) }),
      },
      {
        // Launch links are dead once expired (minutes); kept a day for an operator's question, then deleted.
        kind: 'pay_links',
        days: 1,
        purgeBatch: (cutoff, limit) => webPay.links.purgeBefore(cutoff, limit),
      },
      {
        kind: 'admin_actions',
        days: config.RETENTION_ADMIN_ACTIONS_DAYS,
        purgeBatch: (cutoff, limit) => adminActions.purgeBefore(cutoff, limit),
      },
    ],
    {
      batch: config.RETENTION_BATCH,
      budgetMs: config.RETENTION_SWEEP_BUDGET_MS,
      intervalMs: config.RETENTION_SWEEP_SECONDS * 1000,
      ...(history && {
        prepare: async () => {
          for (const t of Object.values(history)) await createPartitionsAhead(db, t, now());
        },
      }),
    },
    now,
  );

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
    callLog: new CallLogService(new CallLogRepository(database.reads, database.dialect), apps),
    webPay,
    evidence,
    reports,
    moderation,
    orders,
    adminAudit,
    ...createOperators(identity),
    operatorOidc: config.OIDC_ISSUER_URL
      ? new OidcSignIn(
          {
            issuerUrl: config.OIDC_ISSUER_URL,
            clientId: config.OIDC_CLIENT_ID!,
            clientSecret: config.OIDC_CLIENT_SECRET!,
            redirectUrl: config.OIDC_REDIRECT_URL!,
            claim: config.OIDC_OPERATOR_CLAIM,
            scopes: config.OIDC_SCOPES,
          },
          box,
          now,
        )
      : null,
    signInMetrics,
    ...createPortal({ ...identity, requireApp: (appId) => apps.get(appId) }),
    passkeys: identity.passkeys,
    storeSettings,
    storePayments,
    paymentProviders,
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
