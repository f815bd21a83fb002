import type { AppsTables } from './apps/apps.tables.js';
import type { PlatformKeysTables } from './platform-keys/keys.tables.js';
import type { OutboxTables } from './delivery/outbox.tables.js';
import type { AccountsTables } from './accounts/accounts.tables.js';
import type { GameCallsTables } from './game-calls/game-calls.tables.js';
import type { EvidenceTables } from './evidence/evidence.tables.js';
import type { ReportingTables } from './reporting/reporting.tables.js';
import type { OrdersTables } from './orders/orders.tables.js';
import type { AdminAuditTables } from './admin-audit/admin-audit.tables.js';
import type { StoreSettingsTables } from './app-stores/store-settings.tables.js';
import type { IdentityTables } from './identity/identity.tables.js';
import type { WebPayTables } from './web-pay/web-pay.tables.js';
import type { StorePaymentsTables } from './store-payments/store-payments.tables.js';
import type { PaymentProvidersTables } from './payment-providers/payment-providers.tables.js';

/** The one-time nonces of signed requests (auth/nonce-ledger.ts, migration 0001). */
export interface NoncesTable {
  scope: string;
  nonce: string;
  expires_at: number;
}

/**
 * Row types of every table, as Kysely sees them: each domain's from its own `<domain>.tables.ts`, composed here
 * beside services.ts so that db/ depends on no domain. Times are Unix milliseconds (bigint columns, read back as
 * numbers); booleans are 0/1 integers and JSON is text, so one schema serves SQLite and PostgreSQL alike.
 */
export interface Tables
  extends
    AppsTables,
    PlatformKeysTables,
    OutboxTables,
    AccountsTables,
    GameCallsTables,
    EvidenceTables,
    ReportingTables,
    OrdersTables,
    AdminAuditTables,
    StoreSettingsTables,
    IdentityTables,
    WebPayTables,
    StorePaymentsTables,
    PaymentProvidersTables {
  nonces: NoncesTable;
}
