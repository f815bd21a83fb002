import type { Generated } from 'kysely';
import type { OutboxTables } from '../delivery/outbox.tables.js';
import type { AccountsTables } from '../accounts/accounts.tables.js';
import type { GameCallsTables } from '../game-calls/game-calls.tables.js';
import type { EvidenceTables } from '../evidence/evidence.tables.js';
import type { ReportingTables } from '../reporting/reporting.tables.js';
import type { OrdersTables } from '../orders/orders.tables.js';
import type { AdminAuditTables } from '../admin-audit/admin-audit.tables.js';

/**
 * Row types of every table, as Kysely sees them. Times are Unix milliseconds
 * (bigint columns, read back as numbers); booleans are 0/1 integers and JSON
 * is text, so one schema serves SQLite and PostgreSQL alike.
 */
export interface AppsTable {
  app_id: Generated<number>;
  client_id: string;
  name: string;
  region: string;
  status: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: number | null;
  secret_rotated_at: number;
  callback_urls: string;
  role_query_url: string | null;
  role_list_url: string | null;
  pre_order_check_url: string | null;
  cancellation_callback_url: string | null;
  partner_url: string | null;
  allowed_ips: string;
  union_id_enabled: number;
  created_at: number;
  updated_at: number;
}

export interface PlatformKeysTable {
  kid: string;
  public_pem: string;
  private_pem_enc: string;
  /** active: signs now (exactly one); published: old, still verifiable; retired: gone. */
  status: string;
  created_at: number;
  retired_at: number | null;
}

export interface NoncesTable {
  scope: string;
  nonce: string;
  expires_at: number;
}

/** All tables: the foundation's here, each domain's from its own `<domain>.tables.ts`. */
export interface Tables
  extends
    OutboxTables,
    AccountsTables,
    GameCallsTables,
    EvidenceTables,
    ReportingTables,
    OrdersTables,
    AdminAuditTables {
  apps: AppsTable;
  platform_keys: PlatformKeysTable;
  nonces: NoncesTable;
}
