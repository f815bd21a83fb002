import type { Generated } from 'kysely';

/**
 * Tables of the accounts domain (migration 0003_accounts). Times are Unix ms,
 * booleans 0/1.
 */
export interface UsersTable {
  /** The platform user id (`userId` of 2.2, answered as a string). */
  user_id: Generated<number>;
  username: string;
  regist_time: number;
  regist_ip: string;
  /** 0 ordinary, 1 migrated (2.2). */
  source: number;
  /** active | cancelling (cooling-off running) | cancelled */
  status: string;
  cancel_requested_at: number | null;
  cancel_due_at: number | null;
  cancelled_at: number | null;
}

/** A login method bound to a user: one login type code of 2.2 and the provider's open id. */
export interface LoginMethodsTable {
  method_id: Generated<number>;
  user_id: number;
  login_type: number;
  open_id: string;
  union_id: string | null;
  nickname: string | null;
  avatar: string | null;
  /** Lower-cased; null when the provider gives none. */
  email: string | null;
  email_verified: number;
  created_at: number;
  last_login_at: number;
}

/** Access tokens (5.2): the kid is kept only as its SHA-256, the MAC key sealed. */
export interface TokensTable {
  token_id: Generated<number>;
  kid_hash: string;
  user_id: number;
  app_id: number;
  /** The login method the token was minted through (its openId/nickname/avatar are the profile's). */
  method_id: number;
  login_type: number;
  open_id: string;
  mac_key_enc: string;
  /** ISO 3166-1 alpha-2 from the edge at login, `DF` when none; '' for mainland apps. */
  user_region: string;
  issued_ip: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** logout | relogin | unbind | cancellation | ban | admin */
  revoke_reason: string | null;
}

/** Which apps a user has logged into: the receivers of the cancellation event. */
export interface UserAppsTable {
  user_id: number;
  app_id: number;
  first_login_at: number;
  last_login_at: number;
}

/** Bans (moderation); a ban is in force while lifted_at is null and until is null or in the future. */
export interface UserBansTable {
  ban_id: Generated<number>;
  user_id: number;
  reason: string;
  until: number | null;
  actor: string;
  created_at: number;
  lifted_at: number | null;
  lifted_by: string | null;
}

export interface AccountsTables {
  users: UsersTable;
  login_methods: LoginMethodsTable;
  tokens: TokensTable;
  user_apps: UserAppsTable;
  user_bans: UserBansTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends AccountsTables {}
}
