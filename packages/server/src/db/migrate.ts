import { Migrator, type Migration, type MigrationProvider, type MigrationResult } from 'kysely';
import type { Database } from './database.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_outbox.js';
import * as m0004 from './migrations/0004_reporting.js';

/**
 * The numbered migrations, in order. Each runs in a transaction with its
 * record in `kysely_migration`; on PostgreSQL a lock table keeps several
 * instances starting at once from applying the same migration twice.
 * A new migration is a new file here with the next number, never an edit.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_outbox': m0002,
  '0004_reporting': m0004,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(database: Database): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db: database.db, provider, ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results ?? [];
}
