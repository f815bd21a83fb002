import type { Kysely } from 'kysely';
import type { CacheBus } from '../cache/cache-bus.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Tables } from '../db/tables.js';
import { PlatformKeysRepository } from './keys.repository.js';
import { PlatformKeyService } from './keys.service.js';
import { SignPool } from './sign-pool.js';

export { platformKeyRoutes, publicPlatformKeyRoutes } from './keys.routes.js';
export { registerKeyCommands, type KeyCommandServices } from './keys.cli.js';
export type { PlatformKeyService } from './keys.service.js';

/**
 * Builds the platform keys (5.3) and their signing workers, with a signing key made if there is none; opens the
 * signing key now: a master key that does not open what is stored stops the start, naming the key it needs.
 */
export async function createPlatformKeys(d: {
  db: Kysely<Tables>;
  box: SecretBox;
  now: () => number;
  /** SIGN_WORKERS: the signing worker threads. */
  signWorkers: number;
  cacheBus: CacheBus;
}): Promise<{ keys: PlatformKeyService; signPool: SignPool }> {
  const signPool = new SignPool(d.signWorkers);
  const keys = new PlatformKeyService(new PlatformKeysRepository(d.db), d.box, d.now, signPool, d.cacheBus);
  await keys.ensureKey();
  await keys.signer();
  return { keys, signPool };
}
