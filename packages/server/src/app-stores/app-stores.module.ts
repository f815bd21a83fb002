import type { Kysely } from 'kysely';
import type { CacheBus } from '../cache/cache-bus.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Tables } from '../db/tables.js';
import { StoreSettingsRepository } from './store-settings.repository.js';
import { StoreSettingsService } from './store-settings.service.js';

export { storeSettingsRoutes } from './store-settings.routes.js';
export { registerStoreSettingsCommands, type StoreSettingsCommandServices } from './store-settings.cli.js';
export type { StoreSettingsService } from './store-settings.service.js';

/** Builds the per-app App Store and Google Play settings (services.ts calls this once). */
export function createStoreSettings(d: {
  db: Kysely<Tables>;
  box: SecretBox;
  /** Whether an app of that id exists (settings are refused for an unknown app). */
  appExists: (appId: number) => Promise<boolean>;
  now: () => number;
  cacheBus: CacheBus;
}): StoreSettingsService {
  return new StoreSettingsService(new StoreSettingsRepository(d.db), d.box, d.appExists, d.now, d.cacheBus);
}
