import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import type { Config } from '../config/config.js';
import type { StoreName } from '../app-stores/index.js';
import type { OrdersDomain } from '../orders/orders.module.js';
import { StoreClients, type SettingsSource, type StoreEndpoints } from './store-clients.js';
import { StoreChannel } from './store-channel.js';
import { StoreMessages } from './notifications.js';
import { StoreNotifications } from './notify.js';
import { StoreConsumption, type EventView } from './consumption.js';
import { StorePurchases } from './purchases.js';
import { StoreReconciliation } from './reconcile.js';
import { StorePaymentsRepository } from './store-payments.repository.js';
import { ConsumptionRepository } from './consumption.repository.js';
import { ChannelMessageLog } from '../orders/payments/channel-messages.js';

export {
  storeConsumptionAdminRoutes,
  storeConsumptionRoutes,
  storeMessageRoutes,
  storeNotifyRoutes,
  storePurchaseRoutes,
} from './store-payments.routes.js';
export { registerConsumptionRequestCommands, registerStoreMessageCommands } from './store-payments.cli.js';
export { APPLE_CONSUMPTION_TARGET } from './consumption.js';

/** The real stores wired into orders, as services.ts holds them. */
export interface StorePaymentsDomain {
  clients: StoreClients;
  purchases: StorePurchases;
  messages: StoreMessages;
  notifications: StoreNotifications;
  reconciliation: StoreReconciliation;
  /** Consumption information for Apple (issue 27): the game's reports, CONSUMPTION_REQUEST answers, their sender. */
  consumption: StoreConsumption;
  /** Where background failures (acknowledgement, reconciliation) are logged: the HTTP service's logger (routes.ts). */
  useLogger(log: Logger): void;
}

export interface Logger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export function storeEndpoints(config: Config): StoreEndpoints {
  return {
    appleApiBaseUrl: config.APPLE_API_BASE_URL,
    appleOnlineChecks: config.APPLE_ONLINE_CHECKS,
    googleRootUrl: config.GOOGLE_API_ROOT_URL,
    googleTokenUrl: config.GOOGLE_TOKEN_URL,
    googleCertsUrl: config.GOOGLE_CERTS_URL,
  };
}

/** The stores' API clients over the apps' store settings: built before the orders domain, whose channel asks them. */
export function createStoreClients(settings: SettingsSource, config: Config): StoreClients {
  return new StoreClients(settings, storeEndpoints(config));
}

/** The store channel adapter (channels 1 and 2 of apps with enabled store settings), for the orders domain. */
export function storeChannel(clients: StoreClients): StoreChannel {
  return new StoreChannel((appId, store) => clients.enabled(appId, store));
}

export function createStorePayments(deps: {
  db: Kysely<Tables>;
  /** Database.reads: the message list and the reconciliation's choice of what to ask read the replica. */
  reads?: Kysely<Tables>;
  dialect: Dialect;
  config: Config;
  clients: StoreClients;
  settings: SettingsSource & { enabledApps(store: StoreName): Promise<number[]> };
  orders: OrdersDomain;
  /** Outbox events by id (delivery.events.byIds): the consumption answer reads the 2.4 notification's state. */
  events: (eventIds: number[]) => Promise<EventView[]>;
  now: () => number;
}): StorePaymentsDomain {
  const { db, dialect, clients, orders, now } = deps;
  const reads = deps.reads ?? db;
  let log: Logger = { warn: () => {} };
  const warn = (obj: Record<string, unknown>, msg: string) => log.warn(obj, msg);
  const unique = (e: unknown) => dialect.isUniqueViolation(e);
  // The domain's SQL over the primary and the read replica; a transaction makes its own over the trx.
  const repo = new StorePaymentsRepository(db);
  const messages = new StoreMessages(
    db,
    repo,
    new ChannelMessageLog(
      {
        table: 'store_messages',
        channel: 'store',
        metric: {
          name: 'store_notifications_total',
          help: 'Store messages received (notifications and reconciliation finds), by store and outcome (applied, duplicate, ignored, refused)',
        },
      },
      db,
      reads,
    ),
    {
      refund: (trxNo) => orders.refunds.refund(trxNo, null),
      refunded: async (trxNo) => (await orders.orders.refundOf(trxNo)) !== null,
    },
    unique,
    now,
  );
  const consumption = new StoreConsumption(
    db,
    new ConsumptionRepository(db),
    repo,
    clients,
    (appId) => orders.settings.get(appId),
    (trxNo) => orders.orders.row(trxNo),
    deps.events,
    deps.config.APPLE_API_BASE_URL,
    now,
  );
  return {
    clients,
    consumption,
    purchases: new StorePurchases(
      repo,
      orders.orders,
      clients,
      unique,
      (err, trxNo) => warn({ err, trxNo }, 'Google Play acknowledgement failed; the reconciliation retries it'),
      async (appId) => (await orders.settings.cached(appId)).accountBinding,
      (r) => messages.refusedSubmission(r.store, r.appId, r.reason, r.trxNo, r.excerpt),
      now,
    ),
    messages,
    notifications: new StoreNotifications(clients, messages, consumption),
    reconciliation: new StoreReconciliation(
      repo,
      new StorePaymentsRepository(reads),
      clients,
      messages,
      (store) => deps.settings.enabledApps(store),
      { intervalMs: deps.config.STORE_RECONCILE_INTERVAL_MS, days: deps.config.STORE_RECONCILE_DAYS },
      (err, appId, store) => warn({ err, appId, store }, 'store reconciliation failed for this app'),
      now,
    ),
    useLogger: (l) => {
      log = l;
    },
  };
}
