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

/**
 * A single-use, expiring link (migration 0033) with which a person sets its own password and second factor: a new
 * account (kind 'invite') or a reset of an existing one (kind 'reset'). The token is known only by its SHA-256.
 * `state` is 'pending', 'accepted' or 'revoked'; a pending one past `expires_at` is expired.
 */
export interface PersonInvitationsTable {
  invitation_id: Generated<number>;
  person_id: number;
  kind: string;
  token_hash: string;
  email: string | null;
  state: string;
  /** Who made (or last resent) it, as the audit trail names them. */
  created_by: string;
  /** The TOTP secret the invitee is enrolling (sealed), until confirmed with a code. */
  pending_totp_enc: string | null;
  created_at: number;
  expires_at: number;
  finished_at: number | null;
}

/** A WebAuthn credential (passkey) of a person (migration 0033). Ids and keys base64url. */
export interface PersonPasskeysTable {
  passkey_id: Generated<number>;
  person_id: number;
  credential_id: string;
  public_key: string;
  sign_count: number;
  /** JSON array of the authenticator's transports. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn challenge handed to a browser: good once (deleted as it is used), until `expires_at`. */
export interface WebauthnChallengesTable {
  challenge: string;
  /** 'register' | 'sign-in' | 'invitation' */
  purpose: string;
  realm: string;
  person_id: number | null;
  expires_at: number;
}

export interface IdentityTables {
  people: PeopleTable;
  person_invitations: PersonInvitationsTable;
  person_passkeys: PersonPasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  person_grants: PersonGrantsTable;
  person_sessions: PersonSessionsTable;
  person_tokens: PersonTokensTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends IdentityTables {}
}
