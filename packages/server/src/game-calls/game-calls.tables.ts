import type { Generated } from 'kysely';

/** Every game-hosted call (4.8-4.10) with its outcome and latency (migrations 0005, 0008). */
export interface GameCallsTable {
  call_id: Generated<number>;
  app_id: number;
  /** role_query | role_list | pre_order_check */
  kind: string;
  started_at: number;
  url: string | null;
  /** 1, or 2 for the retry of 4.8/4.10. */
  try_no: number;
  http_status: number | null;
  latency_ms: number;
  /** ok | no_role | blocked | rejected | invalid_response | timeout | network | refused | not_configured */
  outcome: string;
  error: string | null;
  /** Whom the call was about (migration 0008): the role and server of 4.8 and 4.10, the user (and server) of 4.9. */
  role_id: string | null;
  server_id: string | null;
  user_id: string | null;
}

export interface GameCallsTables {
  game_calls: GameCallsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends GameCallsTables {}
}
