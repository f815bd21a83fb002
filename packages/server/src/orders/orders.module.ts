import type { Tables } from '../db/tables.js';
import type { CacheBus } from '../cache/cache-bus.js';
import type { Database } from '../db/database.js';
import type { Config } from '../config/config.js';
import type { AppService } from '../apps/apps.service.js';
import { ChannelRegistry, type PaymentChannelAdapter } from './payments/channels/channel.js';
import { SandboxChannel } from './payments/channels/sandbox.js';
import { ConsumptionService } from './consumption/consumption.js';
import { ConsumptionNoticesStore } from './consumption/consumption-notices.store.js';
import { OrderService } from './orders.service.js';
import { ProductService } from './catalogue/products.js';
import { ProductsRepository } from './catalogue/products.repository.js';
import { RefundService } from './refunds/refunds.js';
import { RefundAbuse } from './refunds/refund-abuse.js';
import { WebRefunds } from './refunds/web-refunds.js';
import { WebRefundsRepository } from './refunds/web-refunds.store.js';
import { OrdersRepository } from './orders.repository.js';
import type { PendingSupplement } from './notifications.schemas.js';
import { OrderSettingsService } from './catalogue/settings.js';
import { OrderSettingsRepository } from './catalogue/settings.repository.js';

export { addOrderSchemas, orderAdminRoutes } from './admin.routes.js';
export { sandboxRoutes } from './payments/sandbox.routes.js';
export { consumptionRoutes } from './consumption/consumption.routes.js';
export { orderClientRoutes } from './placement/client.routes.js';
export { registerOrderCommands } from './orders.cli.js';
export { registerAppOrderCommands } from './catalogue/app-orders.cli.js';
export type { PaymentChannelAdapter } from './payments/channels/channel.js';

/** The orders domain as services.ts holds it. */
export interface OrdersDomain {
  products: ProductService;
  orders: OrderService;
  refunds: RefundService;
  /** Refunds and lost disputes of web payments, from their providers (refunds/web-refunds.ts). */
  webRefunds: WebRefunds;
  /** The players with the most refunds of an app (refund-abuse.ts). */
  refundAbuse: RefundAbuse;
  consumption: ConsumptionService;
  settings: OrderSettingsService;
  /** The sandbox channel is on (SANDBOX_PAYMENTS; config refuses it in production mode). */
  sandboxEnabled: boolean;
}

export function createOrdersDomain({
  database: { db, dialect, relaxed, named, reads = db },
  config,
  apps,
  now,
  channelAdapters = [],
  cacheBus,
}: {
  database: Pick<Database<Tables>, 'db' | 'dialect' | 'relaxed' | 'named'> & Partial<Pick<Database<Tables>, 'reads'>>;
  config: Config;
  apps: AppService;
  now: () => number;
  /** Real channel adapters (the stores' for apps that enabled them), asked before the sandbox. */
  channelAdapters?: PaymentChannelAdapter[];
  /** Tells the other instances of product and settings changes at once. */
  cacheBus?: CacheBus;
}): OrdersDomain {
  const sandboxEnabled = config.SANDBOX_PAYMENTS && !config.production;
  // The sandbox stands in for every channel no real adapter takes, when enabled.
  const adapters: PaymentChannelAdapter[] = [...channelAdapters, ...(sandboxEnabled ? [new SandboxChannel()] : [])];
  // The orders' SQL, over the primary and over the read replica (Database.reads); a transaction makes its own.
  const repo = new OrdersRepository(db);
  const readsRepo = new OrdersRepository(reads);
  const products = new ProductService(new ProductsRepository(db, dialect), apps, now, cacheBus);
  const settings = new OrderSettingsService(new OrderSettingsRepository(db), apps, now, cacheBus);
  const orders: OrderService = new OrderService(
    db,
    dialect,
    products,
    new ChannelRegistry(adapters),
    {
      webRegionLock: async (appId) => (await settings.cached(appId)).webRegionLock,
      arrearsBlocking: async (appId, userId): Promise<PendingSupplement[]> =>
        (await settings.cached(appId)).refuseStoreOrdersInArrears ? refunds.arrears(appId, userId) : [],
      gameCallTimeoutMs: config.GAME_CALL_TIMEOUT_MS,
      relaxed,
      repo,
      readsRepo,
    },
    now,
  );
  const refunds: RefundService = new RefundService(db, dialect, orders, now, relaxed, repo, readsRepo);
  orders.onRefund = (event) => refunds.refund(event.trxNo, event.bankRefundNo);
  return {
    products,
    orders,
    refunds,
    webRefunds: new WebRefunds({ db, dialect, now, orders: repo, store: new WebRefundsRepository(db) }),
    // Read-only analytics over the refunds: a moment stale is harmless (Database.reads, the read replica).
    refundAbuse: new RefundAbuse(reads, now),
    consumption: new ConsumptionService(new ConsumptionNoticesStore(db, dialect, named, now, reads)),
    settings,
    sandboxEnabled,
  };
}
