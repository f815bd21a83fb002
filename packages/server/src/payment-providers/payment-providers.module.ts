import type { Kysely } from 'kysely';
import type { CacheBus } from '../cache/cache-bus.js';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import type { Config } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { OrderService } from '../orders/orders.service.js';
import type { ProductService } from '../orders/catalogue/products.js';
import {
  ProvidersRepository,
  type ProviderMessageFilter,
  type ProviderMessageRow,
} from './payment-providers.repository.js';
import { RefundRequestsRepository } from './refund-requests.repository.js';
import { ChannelMessageLog } from '../orders/payments/channel-messages.js';
import { ProviderChannel } from './provider-channel.js';
import { ProviderPayments } from './provider-payments.js';
import type { ApplyRefund } from './provider-refunds.js';
import { ProviderSettingsService } from './provider-settings.service.js';
import { createProviders, ProviderRegistry } from './providers.js';
import { ProviderReconciliation } from './reconcile.js';
import { RefundRequests, type LockOrder } from './refund-requests.js';
import { ProviderWebhooks } from './webhooks.js';

export { providerAdminRoutes, providerWebhookRoutes } from './payment-providers.routes.js';
export { refundAdminRoutes, refundPortalRoutes } from './refunds.routes.js';
export { registerPaymentProviderCommands } from './payment-providers.cli.js';
export { registerOrderRefundCommand } from './refunds.cli.js';

/** The web payment providers as services.ts holds them. */
export interface PaymentProvidersDomain {
  registry: ProviderRegistry;
  settings: ProviderSettingsService;
  payments: ProviderPayments;
  webhooks: ProviderWebhooks;
  reconciliation: ProviderReconciliation;
  /** Operators' refunds of web orders through their provider (refund-requests.ts). */
  refunds: RefundRequests;
  messages(filter: ProviderMessageFilter): Promise<ProviderMessageRow[]>;
  /** Where background failures (queries, reconciliation) are logged: the HTTP service's logger (routes.ts). */
  useLogger(log: { warn(obj: Record<string, unknown>, msg: string): void }): void;
}

/** The settings and the channel adapter: built before the orders domain, which asks the channel. */
export function createProviderSettings(deps: {
  db: Kysely<Tables>;
  box: SecretBox;
  config: Config;
  appExists: (appId: number) => Promise<boolean>;
  now: () => number;
  cacheBus?: CacheBus;
}): ProviderSettingsService {
  return new ProviderSettingsService(
    new ProvidersRepository(deps.db),
    deps.box,
    new ProviderRegistry(createProviders(deps.config)),
    deps.appExists,
    deps.now,
    deps.cacheBus,
  );
}

/** The channel adapter of the providers (orders' channel seam); `products` is read lazily (built later). */
export function providerChannel(deps: {
  settings: ProviderSettingsService;
  config: Config;
  products: () => Pick<ProductService, 'list'>;
  now: () => number;
}): ProviderChannel {
  return new ProviderChannel(
    deps.settings.repo,
    deps.settings,
    async (appId) => new Map((await deps.products().list(appId)).map((p) => [p.productCode, p.name])),
    deps.config.WEB_ORDER_LIFETIME_MINUTES * 60_000,
    deps.now,
  );
}

/** Without the orders' core (a test's partial wiring): a refund the provider made cannot be applied. */
const refundsOff: ApplyRefund = async () => {
  throw new Error('payment providers built without applyRefund');
};

export function createPaymentProviders(deps: {
  db: Kysely<Tables>;
  dialect: Dialect;
  config: Config;
  settings: ProviderSettingsService;
  orders: Pick<OrderService, 'applyChannelEvent' | 'cancel'>;
  /** Applies a provider's refund or lost dispute to its order (OrdersDomain.webRefunds). */
  applyRefund?: ApplyRefund;
  /** Locks a paid web order and answers what remains unrefunded of it, by the orders' core (webRefunds.lockRemaining). */
  lockOrder: LockOrder;
  now: () => number;
  /** Database.reads: the operator's message list reads the replica (the reconciliation leases, so reads the primary). */
  reads?: Kysely<Tables>;
}): PaymentProvidersDomain {
  const { db, config, settings, now } = deps;
  let log: { warn(obj: Record<string, unknown>, msg: string): void } = { warn: () => {} };
  const repo = settings.repo;
  const payments = new ProviderPayments(
    db,
    repo,
    new ChannelMessageLog(
      {
        table: 'provider_messages',
        channel: 'provider',
        metric: {
          name: 'provider_notifications_total',
          help: 'Payment provider messages and query finds, by provider and outcome (applied, duplicate, recorded, ignored, refused)',
        },
      },
      db,
      deps.reads ?? db,
    ),
    deps.orders,
    (e) => deps.dialect.isUniqueViolation(e),
    now,
    deps.applyRefund ?? null,
  );
  const refunds = new RefundRequests(
    db,
    new RefundRequestsRepository(db),
    repo,
    settings,
    deps.applyRefund ?? refundsOff,
    (e) => deps.dialect.isUniqueViolation(e),
    deps.lockOrder,
    now,
  );
  return {
    registry: settings.registry,
    settings,
    payments,
    webhooks: new ProviderWebhooks(settings, payments),
    reconciliation: new ProviderReconciliation(
      repo,
      settings,
      payments,
      {
        intervalMs: config.PROVIDER_RECONCILE_INTERVAL_MS,
        queryAfterMs: config.PROVIDER_QUERY_AFTER_SECONDS * 1000,
        lateQueryMs: config.PROVIDER_LATE_QUERY_SECONDS * 1000,
      },
      (err, payment) =>
        log.warn(
          { err, trxNo: Number(payment.trx_no), provider: payment.provider },
          'payment provider query failed; the reconciliation tries again',
        ),
      now,
      refunds,
      (err, refund) =>
        log.warn(
          {
            err,
            trxNo: Number(refund.trx_no),
            provider: refund.provider,
            refundRequestId: Number(refund.refund_request_id),
          },
          'payment provider refund call failed; the reconciliation tries again',
        ),
    ),
    refunds,
    messages: (filter) => payments.messages(filter),
    useLogger: (l) => {
      log = l;
    },
  };
}
