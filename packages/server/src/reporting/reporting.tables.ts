import type { Generated } from 'kysely';

/** A player report (4.1). Player fields are the User of 2.1; absent strings are null. */
export interface ReportsTable {
  report_id: Generated<number>;
  app_id: number;
  client_id: string;
  client_ip: string | null;
  /** client_info.DeviceID (either spelling on the wire). */
  device_id: string | null;
  /** Who the player is for caps, duplicates and counts: svcid, else `role:<server_code>:<role_id>`. */
  reporter_key: string;
  reporter_svcid: string | null;
  reporter_role_id: string | null;
  reporter_server_code: string | null;
  reporter_role_name: string | null;
  reporter_extra: string | null;
  reportee_key: string;
  reportee_svcid: string | null;
  reportee_role_id: string | null;
  reportee_server_code: string | null;
  reportee_role_name: string | null;
  reportee_extra: string | null;
  user_description: string | null;
  extras: string | null;
  /** open | actioned | dismissed */
  status: string;
  status_changed_at: number;
  created_at: number;
}

export interface ReportReasonsTable {
  report_id: number;
  position: number;
  /** int64 in canonical decimal form (exact past 2^53). */
  reason_id: string;
  title: string | null;
  extras: string | null;
}

export interface ReportEvidenceTable {
  report_id: number;
  position: number;
  upload_id: string;
  name: string | null;
  size_byte: number;
  uri: string;
}

/** Duplicate guard: one live row per (app, reporter, reportee, reason set) key. */
export interface ReportDedupeTable {
  app_id: number;
  dedupe_key: string;
  report_id: number;
  expires_at: number;
}

/** Audit log of moderator actions; `set_status` rows are also each report's status history. */
export interface ModerationActionsTable {
  action_id: Generated<number>;
  report_id: number | null;
  app_id: number | null;
  /** set_status | view_evidence (a `ban` action can be added later) */
  action: string;
  moderator: string | null;
  from_status: string | null;
  to_status: string | null;
  note: string | null;
  /** JSON object with action-specific details, or null. */
  details: string | null;
  created_at: number;
}

export interface ReportingTables {
  reports: ReportsTable;
  report_reasons: ReportReasonsTable;
  report_evidence: ReportEvidenceTable;
  report_dedupe: ReportDedupeTable;
  moderation_actions: ModerationActionsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends ReportingTables {}
}
