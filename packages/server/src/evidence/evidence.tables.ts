/**
 * Evidence uploads (4.2): one row per signed upload URL this service issued.
 * A report (4.1) may cite only a row of its own app that has been uploaded.
 */
export interface EvidenceUploadsTable {
  /** 32 random hex digits; part of the object key. */
  upload_id: string;
  app_id: number;
  /** embedded | s3: the backend that issued it. */
  backend: string;
  /** `evidence/<appId>/<uploadId>.<ext>`, built by the service, never from the client's file name. */
  object_key: string;
  /** The stored address games cite in `evidence[].uri`: signed_url without its query string. */
  uri: string;
  /** The client's file name, kept for display only. */
  file_name: string;
  content_type: string;
  declared_size: number;
  /** 4.2 `svcid` (the uploader), when given: then only that reporter may cite it. */
  svcid: string | null;
  client_ip: string | null;
  device_id: string | null;
  created_at: number;
  /** When the signed upload URL stops working. */
  expires_at: number;
  /** Set once the object is known to be stored (embedded: on PUT; s3: on the first report citing it). */
  uploaded_at: number | null;
  uploaded_size: number | null;
}

export interface EvidenceTables {
  evidence_uploads: EvidenceUploadsTable;
}
