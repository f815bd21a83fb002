/**
 * Evidence uploads: one row per uploaded file a report (4.1) has cited,
 * written by the first citing report (4.2 writes nothing: its addresses are
 * self-authenticating, object-id.ts). Rows of 32-hex ids were written by 4.2
 * before that, one per issued URL.
 */
export interface EvidenceUploadsTable {
  /** The object's file name without extension: 64 hex digits (object-id.ts), or 32 for older rows. */
  upload_id: string;
  app_id: number;
  /** embedded | s3: the backend that issued it. */
  backend: string;
  /** `evidence/<appId>/<uploadId>.<ext>`, built by the service, never from the client's file name. */
  object_key: string;
  /** The stored address games cite in `evidence[].uri`: signed_url without its query string. */
  uri: string;
  /** For display only: the first citing report's `evidence[].name`, else the object's file name (older rows: 4.2 `file_name`). */
  file_name: string;
  content_type: string;
  declared_size: number;
  /** 4.2 `svcid` (the uploader), when given: then only that reporter may cite it. */
  svcid: string | null;
  /** The 4.2 caller's client_info (older rows only; 4.2 no longer stores it). */
  client_ip: string | null;
  device_id: string | null;
  /** When the row was written. */
  created_at: number;
  /** When the signed upload URL stops working. */
  expires_at: number;
  /** Set when the first report citing it found the object stored. */
  uploaded_at: number | null;
  uploaded_size: number | null;
}

export interface EvidenceTables {
  evidence_uploads: EvidenceUploadsTable;
}

// Adds this domain's tables to the one row type db/ works with (db/tables.ts).
declare module '../db/tables.js' {
  interface Tables extends EvidenceTables {}
}
