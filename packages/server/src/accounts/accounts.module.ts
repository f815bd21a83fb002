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
import { LoginMethodsRepository } from './login-methods.repository.js';
import { TokensRepository } from './tokens.repository.js';
import { UsersRepository } from './users.repository.js';
import type { AccountRepositories } from './account-repositories.js';

export { profileRoutes } from './profile.routes.js';
export { svcIdRoutes } from './svc-id.routes.js';
export { clientRoutes } from './client.routes.js';
export { accountAdminRoutes } from './admin.routes.js';
export { registerAccountCommands } from './accounts.cli.js';
export { startAccountSweep } from './sweep.js';
export type { AccountService } from './accounts.service.js';
export type { TokenSession } from './tokens.service.js';

const repositoriesOver = (db: Kysely<Tables>): AccountRepositories => ({
  users: new UsersRepository(db),
  methods: new LoginMethodsRepository(db),
  tokens: new TokensRepository(db),
});

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
  const repos = repositoriesOver(d.db);
  const tokens = new TokenService(repos.tokens, d.box, {
    ttlSeconds: d.config.ACCESS_TOKEN_TTL_SECONDS,
    perUserApp: d.config.TOKENS_PER_USER_APP,
    cacheSeconds: d.config.TOKEN_CACHE_SECONDS,
    now: d.now,
    ...(d.cacheBus ? { cacheBus: d.cacheBus } : {}),
  });
  const { providers, sandbox } = buildProviders(d.config, d.box, d.now);
  return new AccountService({
    db: d.db,
    repos,
    dialect: d.dialect,
    config: d.config,
    apps: d.apps,
    tokens,
    providers,
    sandbox,
    cancellation: new CancellationService(d.db, repos.users, tokens, {
      coolingOffSeconds: d.config.CANCELLATION_COOLING_OFF_SECONDS,
      now: d.now,
    }),
    users: new UserAdminService(repos, tokens, d.now, d.reads ? repositoriesOver(d.reads) : repos),
    linking: new LinkingService(d.db, repos.methods, d.dialect, tokens, providers, d.now),
    bans: new BanService(d.db, repos.users, tokens, d.now),
    now: d.now,
  });
}
