import type { Generated } from 'kysely';

/**
 * A person at a keyboard (migration 0025): an operator or a studio developer. Times are Unix ms; booleans 0/1.
 * `realm` ('platform' | 'studio') is the namespace of the sign-in name and part of the TOTP secret's sealing context.
 */
export interface PeopleTable {
  person_id: Generated<number>;
  realm: string;
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

/** What a person may do: a platform role (app_id null), or a studio role on one app. */
export interface PersonGrantsTable {
  person_id: number;
  app_id: number | null;
  role: string;
}

/** A console or portal session: the cookie's value is known only by its SHA-256. */
export interface PersonSessionsTable {
  session_hash: string;
  person_id: number;
  csrf_token: string;
  ip: string;
  created_at: number;
  expires_at: number;
}

/** A person's API token: shown once, kept as its SHA-256. */
export interface PersonTokensTable {
  token_id: Generated<number>;
  person_id: number;
  name: string;
  token_hash: string;
  role: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface IdentityTables {
  people: PeopleTable;
  person_grants: PersonGrantsTable;
  person_sessions: PersonSessionsTable;
  person_tokens: PersonTokensTable;
}
