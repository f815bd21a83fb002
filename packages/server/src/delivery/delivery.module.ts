import type { Kysely } from 'kysely';
import type { AppService } from '../apps/apps.service.js';
import type { Config } from '../config/config.js';
import type { Dialect } from '../db/dialect.js';
import type { Tables } from '../db/tables.js';
import type { PlatformKeyService } from '../platform-keys/keys.service.js';
import { deliveryOptions } from './delivery.config.js';
import { DeliveryService } from './delivery.service.js';
import { Dispatcher } from './dispatcher.js';
import { EventsRepository } from './events.repository.js';
import type { OutboundHttp } from './http-client.js';
import { DeliveryMetrics } from './metrics.js';
import { DeliveryPurgeRepository } from './purge.js';

export { outboundHttp } from './delivery.config.js';
export { deliveryRoutes } from './delivery.routes.js';
export { pullRoutes } from './pull.routes.js';
export { registerDeliveryCommands, type DeliveryCommandServices } from './delivery.cli.js';
export type { DeliveryService } from './delivery.service.js';

/**
 * Builds the delivery engine (4.7, 5.3, 6): the outbox's repositories, its dispatcher and metrics, the operator's
 * service; and the delivery history's deletions, which retention runs. Apps (the callback URLs) and platform keys
 * (the signature) sit below it; nothing of theirs imports delivery.
 */
export function createDelivery(d: {
  db: Kysely<Tables>;
  /** Database.reads: the operator's event list (a moment stale at most). */
  reads: Kysely<Tables>;
  dialect: Dialect;
  config: Config;
  apps: AppService;
  keys: PlatformKeyService;
  /** The outbound client of every call to games (outboundHttp), shared with game-calls. */
  http: OutboundHttp;
  now: () => number;
}): { delivery: DeliveryService; purge: DeliveryPurgeRepository } {
  const metrics = new DeliveryMetrics(d.db, d.now);
  const dispatcher = new Dispatcher(d.db, d.dialect, d.apps, d.keys, d.http, metrics, deliveryOptions(d.config), d.now);
  const delivery = new DeliveryService({
    db: d.db,
    events: new EventsRepository(d.db),
    listed: new EventsRepository(d.reads),
    apps: d.apps,
    dispatcher,
    metrics,
    now: d.now,
  });
  return { delivery, purge: new DeliveryPurgeRepository(d.db) };
}
