import type { Generated } from 'kysely';

/** A studio developer account (migration 0018). Times are Unix ms; booleans 0/1. Columns as operators'. */
export interface StudioDevelopersTable {
  developer_id: Generated<number>;
  /** The sign-in name; never changes (it is the sealing context of the TOTP secret). */
  name: string;
  /** argon2id (PHC string). */
  password_hash: string;
  /** The TOTP secret (base32), sealed under the master key. */
  totp_secret_enc: string;
  totp_last_step: Generated<number>;
  /** JSON array of SHA-256 hex of the unused recovery codes. */
  recovery_codes: string;
  disabled: Generated<number>;
  failed_logins: Generated<number>;
  locked_until: number | null;
  last_login_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Which apps a developer may see: the whole of its scope. */
export interface StudioDeveloperAppsTable {
  developer_id: number;
  app_id: number;
}

/** A portal session: the cookie's value is known only by its SHA-256. */
export interface StudioSessionsTable {
  session_hash: string;
  developer_id: number;
  csrf_token: string;
  ip: string;
  created_at: number;
  expires_at: number;
}

export interface PortalTables {
  studio_developers: StudioDevelopersTable;
  studio_developer_apps: StudioDeveloperAppsTable;
  studio_sessions: StudioSessionsTable;
}
