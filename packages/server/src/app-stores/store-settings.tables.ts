import type { Generated } from 'kysely';

/**
 * Row type of app_store_settings (migration 0013): one row per app and store. Apple rows fill the Apple columns,
 * Google rows the Google ones; `*_enc` are sealed under the master key. Times are Unix milliseconds; booleans 0/1.
 */
export interface AppStoreSettingsTable {
  settings_id: Generated<number>;
  app_id: number;
  store: 'apple' | 'google';
  enabled: number;
  bundle_id: string | null;
  app_apple_id: number | null;
  environment: string | null;
  /** PEM of the trusted roots; null: Apple Root CA - G3 shipped with the package. */
  root_certificates_pem: string | null;
  api_issuer_id: string | null;
  api_key_id: string | null;
  api_private_key_enc: string | null;
  package_name: string | null;
  service_account_enc: string | null;
  service_account_email: string | null;
  push_audience: string | null;
  push_service_account_email: string | null;
  created_at: number;
  updated_at: number;
}

export interface StoreSettingsTables {
  app_store_settings: AppStoreSettingsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends StoreSettingsTables {}
}
