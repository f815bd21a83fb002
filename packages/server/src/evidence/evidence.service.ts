import type { Readable } from 'node:stream';
import mime from 'mime-types';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { AppError, invalidParameter } from '../errors/app-error.js';
import type { EmbeddedEvidenceStorage } from './embedded-storage.js';
import type { EvidenceRepository, UploadRow } from './evidence.repository.js';
import type { EvidenceStorage } from './storage.js';
import type { EvidenceUploadsTable } from './evidence.tables.js';

export interface EvidenceLimits {
  maxFileBytes: number;
  maxFiles: number;
  contentTypes: ReadonlySet<string>;
  urlTtlSeconds: number;
  downloadTtlSeconds: number;
}

/** A file to upload, checked by checkUploadFile. */
export interface UploadFile {
  fileName: string;
  contentType: string;
  size: number;
}

export interface UploadUrlRequest {
  appId: number;
  file: UploadFile;
  svcid?: string | undefined;
  clientIp?: string | undefined;
  deviceId?: string | undefined;
  requestBaseUrl: string;
}

/** One `evidence[]` entry of 4.1 as received (size_byte already in decimal form). */
export interface CitedFile {
  name?: string | undefined;
  sizeByte?: string | undefined;
  uri: string;
}

export interface ResolvedEvidence {
  uploadId: string;
  name: string;
  size: number;
  uri: string;
  /** The upload is not yet recorded as uploaded: this row is upserted in the report's transaction. */
  record: UploadRecord | undefined;
}

export type UploadRecord = Insertable<EvidenceUploadsTable>;

export interface DownloadLink {
  url: string;
  expiresAt: number;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Evidence files (4.2): issuing signed upload URLs, accepting uploads to the
 * embedded backend, and checking what a report (4.1) cites.
 */
export class EvidenceService {
  constructor(
    private readonly repo: EvidenceRepository,
    readonly storage: EvidenceStorage,
    readonly limits: EvidenceLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** 4.2 checks that need neither the app nor the database (done before the signature check). */
  checkUploadFile(fileName: string | undefined, fileSize: string | undefined): UploadFile {
    if (fileName === undefined || fileName.length === 0)
      throw invalidParameter('file_name', 'is required: its extension gives the content type');
    if (CONTROL.test(fileName)) throw invalidParameter('file_name', 'must not contain control characters');
    const contentType = mime.lookup(fileName);
    if (!contentType || !this.limits.contentTypes.has(contentType)) {
      throw invalidParameter(
        'file_name',
        `${contentType ? `content type ${contentType}` : 'an unknown extension'} is not allowed; allowed: ${[...this.limits.contentTypes].join(', ')}`,
      );
    }
    if (fileSize === undefined)
      throw invalidParameter('file_size', 'is required: the upload must be exactly this many bytes');
    const size = BigInt(fileSize);
    if (size < 1n) throw invalidParameter('file_size', 'must be at least 1');
    if (size > BigInt(this.limits.maxFileBytes))
      throw invalidParameter(
        'file_size',
        `must be at most ${this.limits.maxFileBytes} bytes (EVIDENCE_MAX_FILE_BYTES)`,
      );
    return { fileName, contentType, size: Number(size) };
  }

  /**
   * 4.2: a signed URL for one PUT of exactly `file_size` bytes to a key the
   * service builds. Nothing is written: the key is self-authenticating
   * (object-id.ts), so a report can check it without a row.
   */
  async issueUploadUrl(req: UploadUrlRequest): Promise<{ signedUrl: string; ttl: string }> {
    const { contentType, size } = req.file;
    const expiresAt = this.now() + this.limits.urlTtlSeconds * 1000;
    const prefix = await this.storage.uriPrefix(req.requestBaseUrl);
    const key = this.storage.objectIds.issue(
      prefix,
      {
        appId: req.appId,
        backend: this.storage.backend,
        size,
        expires: Math.floor(expiresAt / 1000),
        svcid: req.svcid,
      },
      mime.extension(contentType) || 'bin',
    );
    const { signedUrl, uri } = await this.storage.signUpload({
      key,
      appId: req.appId,
      size,
      expiresAt,
      requestBaseUrl: req.requestBaseUrl,
    });
    if (uri !== prefix + key) throw new Error(`evidence address ${uri} does not follow its prefix ${prefix}`);
    return { signedUrl, ttl: String(this.limits.urlTtlSeconds) };
  }

  /**
   * Checks the `evidence` of a report: only addresses this service issued to
   * this app (and, when 4.2 named a svcid, to this reporter), each actually
   * uploaded with its declared size. Errors name the index.
   */
  async resolveCited(
    appId: number,
    reporterSvcid: string | undefined,
    files: CitedFile[],
  ): Promise<ResolvedEvidence[]> {
    if (files.length > this.limits.maxFiles)
      throw invalidParameter('evidence', `at most ${this.limits.maxFiles} files (EVIDENCE_MAX_FILES)`);
    const rows = new Map((await this.repo.byUris(files.map((f) => f.uri))).map((r) => [r.uri, r]));
    const seen = new Map<string, number>();
    const out: ResolvedEvidence[] = [];
    for (const [i, file] of files.entries()) {
      const field = `evidence.${i}`;
      const earlier = seen.get(file.uri);
      if (earlier !== undefined) throw invalidParameter(`${field}.uri`, `is already cited as evidence.${earlier}`);
      seen.set(file.uri, i);
      // A row exists once a report cited the address (or for addresses issued before 4.2 stopped writing rows).
      const row = rows.get(file.uri) ?? this.rowOfAddress(field, appId, reporterSvcid, file.uri, file.name);
      // Unknown and foreign addresses get the same answer.
      if (!row || row.app_id !== appId) {
        throw invalidParameter(
          `${field}.uri`,
          'is not an evidence address this service issued to this app; cite signed_url of 4.2 without its query string, after uploading',
        );
      }
      if (row.svcid !== null && row.svcid !== reporterSvcid)
        throw invalidParameter(`${field}.uri`, 'was issued (4.2 svcid) to another player than reporter.svcid');
      let size = row.uploaded_size;
      const recordUpload = row.uploaded_at === null;
      if (recordUpload) {
        if (row.backend !== this.storage.backend)
          throw invalidParameter(
            `${field}.uri`,
            `was issued by the ${row.backend} evidence backend, which is no longer in use; upload it again`,
          );
        size = await this.storage.storedSize(row.object_key);
        if (size === null) throw invalidParameter(`${field}.uri`, 'nothing has been uploaded to this address');
      }
      if (size !== row.declared_size)
        throw invalidParameter(
          `${field}.uri`,
          `the stored file has ${size} bytes but ${row.declared_size} were declared; upload it again`,
        );
      if (file.sizeByte !== undefined && BigInt(file.sizeByte) !== BigInt(size))
        throw invalidParameter(`${field}.size_byte`, `is ${file.sizeByte} but the uploaded file has ${size} bytes`);
      const name = file.name ?? row.file_name;
      const record = recordUpload ? { ...row, uploaded_at: this.now(), uploaded_size: size } : undefined;
      out.push({ uploadId: row.upload_id, name, size, uri: row.uri, record });
    }
    return out;
  }

  /**
   * The upload row that an issued, never-cited address stands for, built from
   * the address itself once its tag checks out; undefined for anything else.
   * The client's file name is not in the address: the citing report's `name`
   * (or else the object's file name) takes its place.
   */
  private rowOfAddress(
    field: string,
    appId: number,
    reporterSvcid: string | undefined,
    uri: string,
    name: string | undefined,
  ): UploadRow | undefined {
    const ids = this.storage.objectIds;
    const a = ids.parse(uri);
    if (!a || a.appId !== appId) return undefined;
    if (a.bound) {
      // The flag is under the tag: a mismatch is another player's file (or a forgery, which learns nothing from this).
      if (!reporterSvcid || !ids.verify(a, reporterSvcid))
        throw invalidParameter(`${field}.uri`, 'was issued (4.2 svcid) to another player than reporter.svcid');
    } else if (!ids.verify(a, undefined)) {
      return undefined;
    }
    const file = a.key.slice(a.key.lastIndexOf('/') + 1);
    const now = this.now();
    return {
      upload_id: file.slice(0, file.indexOf('.')),
      app_id: appId,
      backend: a.backend,
      object_key: a.key,
      uri,
      file_name: name ?? file,
      content_type: mime.lookup(a.ext) || 'application/octet-stream',
      declared_size: a.size,
      svcid: a.bound ? reporterSvcid! : null,
      client_ip: null,
      device_id: null,
      created_at: now,
      expires_at: a.expires * 1000,
      uploaded_at: null,
      uploaded_size: null,
    };
  }

  /** Records the uploads a report cites for the first time (ResolvedEvidence.record), in the report's transaction. */
  async recordUploads(db: Kysely<Tables>, rows: UploadRecord[]): Promise<void> {
    await this.repo.recordUploaded(db, rows);
  }

  async uploads(ids: string[]): Promise<UploadRow[]> {
    return this.repo.byIds(ids);
  }

  /** Short-lived download links for moderators, by upload id; none for a file of a backend no longer in use. */
  async downloadLinks(rows: UploadRow[], requestBaseUrl: string): Promise<Map<string, DownloadLink>> {
    const expiresAt = this.now() + this.limits.downloadTtlSeconds * 1000;
    const links = new Map<string, DownloadLink>();
    for (const row of rows) {
      if (row.backend !== this.storage.backend) continue;
      const url = await this.storage.signDownload({
        key: row.object_key,
        appId: row.app_id,
        contentType: row.content_type,
        downloadName: row.object_key.slice(row.object_key.lastIndexOf('/') + 1),
        expiresAt,
        requestBaseUrl,
      });
      links.set(row.upload_id, { url, expiresAt });
    }
    return links;
  }

  // --- the embedded backend's own PUT / GET routes (evidence.routes.ts) ---

  private embedded(): EmbeddedEvidenceStorage {
    if (this.storage.backend !== 'embedded') throw new AppError('NOT_FOUND', 'evidence is not stored by this service');
    return this.storage as EmbeddedEvidenceStorage;
  }

  /** Checks the token, in constant time, then the expiry (so a changed expiry is a bad signature). */
  private checkToken(
    purpose: 'put' | 'get',
    key: string,
    appId: number,
    size: number,
    expires: string,
    signature: string,
  ): void {
    const storage = this.embedded();
    const claims = { purpose, key, appId, size, expires: Number(expires) };
    if (!storage.tokens.verify(claims, signature))
      throw new AppError(
        'BAD_SIGNATURE',
        'signature does not match this URL (object key, size, app and expiry are signed); use signed_url exactly as 4.2 answered it',
      );
    if (claims.expires * 1000 < this.now())
      throw new AppError(
        'UPLOAD_URL_EXPIRED',
        `this URL expired at ${new Date(claims.expires * 1000).toISOString()}; ask 4.2 for a new one`,
      );
  }

  /**
   * One PUT to a signed URL: the token must match, be unexpired, and the body
   * be exactly the declared size. Everything is checked before a byte is read.
   */
  async acceptUpload(p: {
    appId: number;
    file: string;
    expires: string;
    size: string;
    signature: string;
    contentLength: number | undefined;
    body: Readable;
  }): Promise<{ etag: string }> {
    const key = `evidence/${p.appId}/${p.file}`;
    const size = Number(p.size);
    this.checkToken('put', key, p.appId, size, p.expires, p.signature);
    if (p.contentLength === undefined)
      throw invalidParameter('content-length', `is required: send exactly ${size} bytes`);
    if (p.contentLength > size)
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `content-length ${p.contentLength} is larger than the declared file_size ${size}`,
      );
    if (p.contentLength < size)
      throw invalidParameter('content-length', `is ${p.contentLength}; the declared file_size is ${size}`);
    // The token proves this service issued the URL; write() refuses an existing object. The
    // database learns of the upload when a report first cites it (resolveCited checks the file).
    const md5 = await this.embedded().write(key, size, p.body);
    return { etag: `"${md5}"` };
  }

  /** A moderator's download through a signed link. */
  async openDownload(p: {
    appId: number;
    file: string;
    expires: string;
    signature: string;
  }): Promise<{ stream: Readable; contentType: string; size: number; downloadName: string }> {
    const key = `evidence/${p.appId}/${p.file}`;
    this.checkToken('get', key, p.appId, 0, p.expires, p.signature);
    const row = await this.repo.byKey(key);
    const storage = this.embedded();
    const size = row ? await storage.storedSize(key) : null;
    if (!row || size === null) throw new AppError('NOT_FOUND', 'nothing is stored at this address');
    return { stream: storage.read(key), contentType: row.content_type, size, downloadName: p.file };
  }
}
