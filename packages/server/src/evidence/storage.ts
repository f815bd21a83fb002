/**
 * Where evidence files live. Two backends behind one interface:
 * embedded (files under DATA_DIR, uploaded to this service) and s3
 * (S3-compatible object storage, presigned URLs). The object key is always
 * built by the service (evidence.service.ts), never from the client's name.
 */
import type { ObjectIdSigner } from './object-id.js';

export interface UploadTarget {
  key: string;
  appId: number;
  /** Exact size in bytes the upload must have. */
  size: number;
  /** Unix ms when the URL stops working. */
  expiresAt: number;
  /** Base URL of this service as the caller reached it (embedded backend, when EVIDENCE_PUBLIC_URL is unset). */
  requestBaseUrl: string;
}

export interface DownloadTarget {
  key: string;
  appId: number;
  contentType: string;
  /** File name offered to the browser (built by the service). */
  downloadName: string;
  expiresAt: number;
  requestBaseUrl: string;
}

export interface EvidenceStorage {
  readonly backend: 'embedded' | 's3';
  /** Builds and checks the self-authenticating object ids (object-id.ts), keyed from the master key. */
  readonly objectIds: ObjectIdSigner;
  /** The stored address of `key` is this prefix followed by the key. */
  uriPrefix(requestBaseUrl: string): Promise<string>;
  /** A URL that accepts one HTTP PUT of exactly `size` bytes to `key` until `expiresAt`, and the stored address (`uri`). */
  signUpload(target: UploadTarget): Promise<{ signedUrl: string; uri: string }>;
  /** Size of the stored object, or null when nothing was uploaded. */
  storedSize(key: string): Promise<number | null>;
  /** A short-lived download link (moderation). */
  signDownload(target: DownloadTarget): Promise<string>;
}

/** The stored address is the signed URL without its query string (docs/reporting.md). */
export function uriOf(signedUrl: string): string {
  const q = signedUrl.indexOf('?');
  return q < 0 ? signedUrl : signedUrl.slice(0, q);
}
