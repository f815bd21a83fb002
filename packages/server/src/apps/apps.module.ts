import type { Kysely } from 'kysely';
import type { CacheBus } from '../cache/cache-bus.js';
import type { Config } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { KeyReads } from '../db/key-read.js';
import type { Tables } from '../db/tables.js';
import { AppsRepository } from './apps.repository.js';
import { AppService } from './apps.service.js';

export { appRoutes } from './apps.routes.js';
export { registerAppCommands, type AppCommandServices } from './apps.cli.js';
export { App } from './apps.schemas.js';
export type { AppRecord, AppService } from './apps.service.js';

/** Builds the app registry (services.ts calls this once). */
export function createApps(d: {
  db: Kysely<Tables>;
  /** Database.named and readNow: the key reads of PostgreSQL and SQLite (db/key-read.ts). */
  keyReads: KeyReads;
  box: SecretBox;
  config: Pick<Config, 'REGION' | 'SECRET_GRACE_SECONDS'>;
  now: () => number;
  cacheBus: CacheBus;
}): AppService {
  return new AppService(new AppsRepository(d.db, d.keyReads), d.box, {
    defaultRegion: d.config.REGION,
    secretGraceSeconds: d.config.SECRET_GRACE_SECONDS,
    now: d.now,
    cacheBus: d.cacheBus,
  });
}
