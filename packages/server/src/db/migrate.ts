import { Migrator, type Migration, type MigrationProvider, type MigrationResult } from 'kysely';
import { currentSchema, type Database } from './database.js';
import * as m0001 from './migrations/0001_foundation.js';
import * as m0002 from './migrations/0002_outbox.js';
import * as m0003 from './migrations/0003_accounts.js';
import * as m0004 from './migrations/0004_reporting.js';
import * as m0005 from './migrations/0005_delivery.js';
import * as m0006 from './migrations/0006_orders.js';
import * as m0007 from './migrations/0007_delivery_perf.js';
import * as m0008 from './migrations/0008_game_call_subjects.js';
import * as m0009 from './migrations/0009_order_status_history.js';
import * as m0010 from './migrations/0010_admin_actions.js';
import * as m0011 from './migrations/0011_placement_claims.js';
import * as m0012 from './migrations/0012_retention.js';
import * as m0013 from './migrations/0013_app_store_settings.js';
import * as m0014 from './migrations/0014_store_payments.js';
import * as m0015 from './migrations/0015_web_payment.js';
import * as m0016 from './migrations/0016_operators.js';
import * as m0017 from './migrations/0017_web_pay_framing.js';
import * as m0018 from './migrations/0018_studio_portal.js';
import * as m0019 from './migrations/0019_overview.js';
import * as m0021 from './migrations/0021_refund_abuse.js';
import * as m0022 from './migrations/0022_payment_providers.js';
import * as m0023 from './migrations/0023_observability.js';
import * as m0024 from './migrations/0024_store_fraud.js';
import * as m0025 from './migrations/0025_one_identity.js';
import * as m0029 from './migrations/0029_partitioned_history.js';
import * as m0030 from './migrations/0030_store_key_locks.js';
import * as m0031 from './migrations/0031_web_refunds.js';
import * as m0032 from './migrations/0032_refund_requests.js';
import * as m0033 from './migrations/0033_invitations_passkeys.js';
import * as m0034 from './migrations/0034_app_traceparent.js';

/**
 * The numbered migrations, in order. Each runs in a transaction with its
 * record in `kysely_migration`; on PostgreSQL a lock table keeps several
 * instances starting at once from applying the same migration twice.
 * A new migration is a new file here with the next number, never an edit.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_outbox': m0002,
  '0003_accounts': m0003,
  '0004_reporting': m0004,
  '0005_delivery': m0005,
  '0006_orders': m0006,
  '0007_delivery_perf': m0007,
  '0008_game_call_subjects': m0008,
  '0009_order_status_history': m0009,
  '0010_admin_actions': m0010,
  '0011_placement_claims': m0011,
  '0012_retention': m0012,
  '0013_app_store_settings': m0013,
  '0014_store_payments': m0014,
  '0015_web_payment': m0015,
  '0016_operators': m0016,
  '0017_web_pay_framing': m0017,
  '0018_studio_portal': m0018,
  '0019_overview': m0019,
  '0021_refund_abuse': m0021,
  '0022_payment_providers': m0022,
  '0023_observability': m0023,
  '0024_store_fraud': m0024,
  '0025_one_identity': m0025,
  '0029_partitioned_history': m0029,
  '0030_store_key_locks': m0030,
  '0031_web_refunds': m0031,
  '0032_refund_requests': m0032,
  '0033_invitations_passkeys': m0033,
  '0034_app_traceparent': m0034,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(database: Database): Promise<MigrationResult[]> {
  // Kysely looks for its bookkeeping tables by name across schemas; pin it to
  // the schema we actually use, or another schema's tables could be taken for ours.
  const schema = database.dialect.name === 'postgres' ? await currentSchema(database) : undefined;
  const migrator = new Migrator({ db: database.db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results ?? [];
}
