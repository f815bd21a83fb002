import type { Generated } from 'kysely';

/** Row type of the apps table (migration 0001). Times are Unix milliseconds; booleans are 0/1; JSON is text. */
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
  /** 1: the app's signed requests continue its `traceparent` (migration 0034). */
  trust_traceparent: number;
  created_at: number;
  updated_at: number;
}

export interface AppsTables {
  apps: AppsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends AppsTables {}
}
