import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors/app-error.js';
import { uriOf, type DownloadTarget, type EvidenceStorage, type UploadTarget } from './storage.js';
import type { ObjectIdSigner } from './object-id.js';
import type { UrlTokenSigner } from './url-token.js';

/** Path of the embedded upload/download route; the object key follows it. */
export const EMBEDDED_ROUTE_PREFIX = '/svc/reporting/open/v1/';

/**
 * Embedded backend: files under DATA_DIR (keys start with `evidence/`), uploaded by HTTP PUT to
 * this service (evidence.routes.ts) with an expiring HMAC token in the query.
 */
export class EmbeddedEvidenceStorage implements EvidenceStorage {
  readonly backend = 'embedded' as const;

  constructor(
    /** DATA_DIR; object keys are relative to it. */
    private readonly root: string,
    readonly tokens: UrlTokenSigner,
    private readonly publicUrl: string | undefined,
    readonly objectIds: ObjectIdSigner,
  ) {}

  async uriPrefix(requestBaseUrl: string): Promise<string> {
    return this.prefix(requestBaseUrl);
  }

  private prefix(baseUrl: string): string {
    return `${(this.publicUrl ?? baseUrl).replace(/\/+$/, '')}${EMBEDDED_ROUTE_PREFIX}`;
  }

  private url(key: string, baseUrl: string, query: string): string {
    return `${this.prefix(baseUrl)}${key}?${query}`;
  }

  async signUpload(t: UploadTarget): Promise<{ signedUrl: string; uri: string }> {
    const expires = Math.floor(t.expiresAt / 1000);
    const signature = this.tokens.sign({ purpose: 'put', key: t.key, appId: t.appId, size: t.size, expires });
    // Every value is digits or base64url: nothing to escape.
    const signedUrl = this.url(t.key, t.requestBaseUrl, `expires=${expires}&size=${t.size}&signature=${signature}`);
    return { signedUrl, uri: uriOf(signedUrl) };
  }

  async signDownload(t: DownloadTarget): Promise<string> {
    const expires = Math.floor(t.expiresAt / 1000);
    const signature = this.tokens.sign({ purpose: 'get', key: t.key, appId: t.appId, size: 0, expires });
    return this.url(t.key, t.requestBaseUrl, `expires=${expires}&signature=${signature}`);
  }

  /** Keys are checked by the caller (digits and hex only), so joining cannot leave the root. */
  filePath(key: string): string {
    return path.join(this.root, key);
  }

  async storedSize(key: string): Promise<number | null> {
    try {
      return (await fs.promises.stat(this.filePath(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /**
   * Stores exactly `size` bytes from `body` at `key`, or nothing. The bytes go
   * to a temporary file first and are linked into place only when complete;
   * link() fails if the object exists, so an object is never overwritten,
   * even by two uploads racing. Answers the md5 of the content (the ETag).
   */
  async write(key: string, size: number, body: Readable): Promise<string> {
    const target = this.filePath(key);
    const tmpDir = path.join(this.root, 'evidence', '.tmp');
    await fs.promises.mkdir(tmpDir, { recursive: true });
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(tmpDir, `${crypto.randomBytes(12).toString('hex')}.part`);
    const md5 = crypto.createHash('md5');
    let received = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        if (received > size) {
          done(new AppError('PAYLOAD_TOO_LARGE', `the upload is larger than the declared file_size ${size}`));
          return;
        }
        md5.update(chunk);
        done(null, chunk);
      },
    });
    try {
      // flush: fsync before close, so a stored object survives a crash once acknowledged.
      await pipeline(body, limit, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600, flush: true }));
      if (received !== size)
        throw new AppError(
          'INVALID_PARAMETER',
          `content-length: the upload has ${received} bytes, the declared file_size is ${size}`,
        );
      try {
        await fs.promises.link(tmp, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new AppError('CONFLICT', 'a file was already uploaded to this URL; an object is never overwritten');
        throw err;
      }
      return md5.digest('hex');
    } finally {
      await fs.promises.rm(tmp, { force: true });
    }
  }

  read(key: string): fs.ReadStream {
    return fs.createReadStream(this.filePath(key));
  }
}
