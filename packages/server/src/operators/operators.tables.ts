import type { Generated } from 'kysely';

/** An operator account (migration 0016). Times are Unix ms; booleans 0/1. */
export interface OperatorsTable {
  operator_id: Generated<number>;
  /** The sign-in name; never changes (it is the sealing context of the TOTP secret). */
  name: string;
  /** argon2id (PHC string). */
  password_hash: string;
  role: string;
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

/** A console session: the cookie's value is known only by its SHA-256. */
export interface OperatorSessionsTable {
  session_hash: string;
  operator_id: number;
  csrf_token: string;
  ip: string;
  created_at: number;
  expires_at: number;
}

/** A per-operator API token: shown once, kept as its SHA-256. */
export interface OperatorTokensTable {
  token_id: Generated<number>;
  operator_id: number;
  name: string;
  token_hash: string;
  role: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface OperatorsTables {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
  operator_tokens: OperatorTokensTable;
}
