import type { Generated } from 'kysely';

/** One request to the admin API that changes something (migration 0010). */
export interface AdminActionsTable {
  action_id: Generated<number>;
  /** When the request reached its handler (ms). */
  at: number;
  /**
   * Who acted: the authenticated operator's name, `ADMIN_TOKEN` for the break-glass token (rows before migration 0016:
   * the X-Operator header). For a failed login, the name tried.
   */
  operator: string | null;
  /** The authenticated operator account (migration 0016); null for the break-glass token or a failed login. */
  operator_id: number | null;
  /** What happened when it is not just a request: login, login-failed, token-created, role-changed, ... */
  event: string | null;
  /** A free note: the X-Operator header as sent (never trusted), or what a refusal was about. */
  note: string | null;
  method: string;
  /** The route pattern, e.g. `/admin/v1/orders/:trxNo/cancel`. */
  route: string;
  /** The path as sent, without its query. */
  path: string;
  ip: string;
  request_id: string;
  /** The HTTP status answered; null when the service stopped before answering. */
  status: number | null;
  finished_at: number | null;
}

export interface AdminAuditTables {
  admin_actions: AdminActionsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends AdminAuditTables {}
}
