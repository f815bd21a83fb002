import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { SealedValuesRepository } from './sealed-values.repository.js';

export { registerMasterKeyCommands, type MasterKeyCommandServices } from './master-key.cli.js';
export type { SealedValuesRepository } from './sealed-values.repository.js';

/**
 * The master key's rotation tool (master-key.cli.ts): a top-level tool over the sealed columns every domain declares
 * (sealed-columns.ts). It imports those domains; nothing below the root imports it.
 */
export function createMasterKey(d: { db: Kysely<Tables> }): { sealedValues: SealedValuesRepository } {
  return { sealedValues: new SealedValuesRepository(d.db) };
}
