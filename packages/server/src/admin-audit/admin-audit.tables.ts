import type { Generated } from 'kysely';

/** One request to the admin API that changes something (migration 0010). */
export interface AdminActionsTable {
  action_id: Generated<number>;
  /** When the request reached its handler (ms). */
  at: number;
  /** The X-Operator header; null when the caller named nobody. */
  operator: string | null;
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
