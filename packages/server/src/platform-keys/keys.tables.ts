/** Row type of the platform_keys table (migration 0001). Times are Unix milliseconds. */
export interface PlatformKeysTable {
  kid: string;
  public_pem: string;
  private_pem_enc: string;
  /** active: signs now (exactly one); published: old, still verifiable; retired: gone. */
  status: string;
  created_at: number;
  retired_at: number | null;
}

export interface PlatformKeysTables {
  platform_keys: PlatformKeysTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends PlatformKeysTables {}
}
