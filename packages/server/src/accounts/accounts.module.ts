import type { Kysely } from 'kysely';
import type { CacheBus } from '../cache/cache-bus.js';
import type { AppService } from '../apps/apps.service.js';
import type { Config } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Tables } from '../db/tables.js';
import type { Dialect } from '../db/dialect.js';
import { AccountService } from './accounts.service.js';
import { CancellationService } from './cancellation.service.js';
import { buildProviders } from './providers/index.js';
import { TokenService } from './tokens.service.js';
import { UserAdminService } from './user-admin.service.js';
import { LinkingService } from './linking.service.js';
import { BanService } from './bans.service.js';

/** Builds the accounts domain (services.ts calls this once). */
export function createAccounts(d: {
  db: Kysely<Tables>;
  /** Database.reads: where the operator's user search reads. */
  reads?: Kysely<Tables>;
  dialect: Dialect;
  config: Config;
  box: SecretBox;
  apps: AppService;
  now: () => number;
  cacheBus?: CacheBus;
}): AccountService {
  const tokens = new TokenService(d.db, d.box, {
    ttlSeconds: d.config.ACCESS_TOKEN_TTL_SECONDS,
    perUserApp: d.config.TOKENS_PER_USER_APP,
    cacheSeconds: d.config.TOKEN_CACHE_SECONDS,
    now: d.now,
    ...(d.cacheBus ? { cacheBus: d.cacheBus } : {}),
  });
  const { providers, sandbox } = buildProviders(d.config, d.box, d.now);
  return new AccountService({
    db: d.db,
    dialect: d.dialect,
    config: d.config,
    apps: d.apps,
    tokens,
    providers,
    sandbox,
    cancellation: new CancellationService(d.db, tokens, {
      coolingOffSeconds: d.config.CANCELLATION_COOLING_OFF_SECONDS,
      now: d.now,
    }),
    users: new UserAdminService(d.db, tokens, d.now, d.reads ?? d.db),
    linking: new LinkingService(d.db, d.dialect, tokens, providers, d.now),
    bans: new BanService(d.db, tokens, d.now),
    now: d.now,
  });
}
