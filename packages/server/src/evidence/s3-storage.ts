import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError } from '../errors/app-error.js';
import type { ObjectIdSigner } from './object-id.js';
import { uriOf, type DownloadTarget, type EvidenceStorage, type UploadTarget } from './storage.js';

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string | undefined;
  forcePathStyle: boolean;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  now?: () => number;
}

/**
 * S3-compatible backend: presigned PUT URLs (SigV4 query signing). The
 * presigned request signs `content-length` (the upload must be exactly the
 * declared size), `if-none-match: *` (S3 refuses to overwrite an existing
 * object), the key and the expiry.
 */
export class S3EvidenceStorage implements EvidenceStorage {
  readonly backend = 's3' as const;
  readonly client: S3Client;

  #prefix: Promise<string> | undefined;

  constructor(
    private readonly opts: S3Options,
    readonly objectIds: ObjectIdSigner,
  ) {
    this.client = new S3Client({
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
      // Otherwise the SDK adds a checksum of an empty body to presigned PUTs, which the real upload would not match.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private expiresIn(expiresAt: number): number {
    return Math.max(1, Math.round((expiresAt - (this.opts.now ?? Date.now)()) / 1000));
  }

  /** The object URL of any key is this prefix plus the key (path style or virtual host): learnt once from a presigned probe. */
  uriPrefix(): Promise<string> {
    this.#prefix ??= (async () => {
      const probe = 'evidence/probe';
      const uri = uriOf(
        await getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.opts.bucket, Key: probe }), {
          expiresIn: 60,
        }),
      );
      if (!uri.endsWith(probe)) throw new Error(`unexpected S3 object URL ${uri}`);
      return uri.slice(0, -probe.length);
    })();
    this.#prefix.catch(() => {
      this.#prefix = undefined;
    });
    return this.#prefix;
  }

  async signUpload(t: UploadTarget): Promise<{ signedUrl: string; uri: string }> {
    const command = new PutObjectCommand({
      Bucket: this.opts.bucket,
      Key: t.key,
      ContentLength: t.size,
      IfNoneMatch: '*',
    });
    const signedUrl = await getSignedUrl(this.client, command, {
      expiresIn: this.expiresIn(t.expiresAt),
      signableHeaders: new Set(['content-length', 'if-none-match']),
      ...(this.opts.now ? { signingDate: new Date(this.opts.now()) } : {}),
    });
    return { signedUrl, uri: uriOf(signedUrl) };
  }

  async storedSize(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
      throw new AppError('UNAVAILABLE', 'the evidence store cannot be reached; retry later', { cause: err });
    }
  }

  async signDownload(t: DownloadTarget): Promise<string> {
    // The stored Content-Type is whatever the uploader sent; the download link sets ours and forces a download.
    const command = new GetObjectCommand({
      Bucket: this.opts.bucket,
      Key: t.key,
      ResponseContentType: t.contentType,
      ResponseContentDisposition: `attachment; filename="${t.downloadName}"`,
    });
    return getSignedUrl(this.client, command, {
      expiresIn: this.expiresIn(t.expiresAt),
      ...(this.opts.now ? { signingDate: new Date(this.opts.now()) } : {}),
    });
  }
}
