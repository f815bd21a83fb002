/** The one-time nonces of signed requests (auth/nonce-ledger.ts, migration 0001). */
export interface NoncesTable {
  scope: string;
  nonce: string;
  expires_at: number;
}

/**
 * Row types of every table, as Kysely sees them. Each domain adds its own from its `<domain>.tables.ts` by
 * declaration merging (`declare module '../db/tables.js'`), so db/ and the domains below depend on no domain above
 * them, and no file but the domain's own names its tables. Times are Unix milliseconds (bigint columns, read back as
 * numbers); booleans are 0/1 integers and JSON is text, so one schema serves SQLite and PostgreSQL alike.
 */
export interface Tables {
  nonces: NoncesTable;
}
