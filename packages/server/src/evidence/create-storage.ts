import crypto from 'node:crypto';
import { ConfigError, type Config } from '../config/config.js';
import { EmbeddedEvidenceStorage } from './embedded-storage.js';
import { ObjectIdSigner } from './object-id.js';
import { S3EvidenceStorage } from './s3-storage.js';
import type { EvidenceStorage } from './storage.js';
import { UrlTokenSigner } from './url-token.js';
import type { EvidenceLimits } from './evidence.service.js';

/** The evidence backend chosen by EVIDENCE_BACKEND. `masterKey` keys the embedded URL tokens (through HKDF). */
export function createEvidenceStorage(config: Config, masterKey: Buffer, now: () => number): EvidenceStorage {
  const objectIds = new ObjectIdSigner(Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'evidence-object-id-v1', 32)));
  if (config.EVIDENCE_BACKEND === 's3') {
    if (!config.EVIDENCE_S3_BUCKET) throw new ConfigError('invalid configuration: EVIDENCE_S3_BUCKET: required when EVIDENCE_BACKEND=s3');
    if (!!config.EVIDENCE_S3_ACCESS_KEY_ID !== !!config.EVIDENCE_S3_SECRET_ACCESS_KEY) {
      throw new ConfigError('invalid configuration: EVIDENCE_S3_ACCESS_KEY_ID and EVIDENCE_S3_SECRET_ACCESS_KEY: set both or neither');
    }
    return new S3EvidenceStorage({
      bucket: config.EVIDENCE_S3_BUCKET,
      region: config.EVIDENCE_S3_REGION,
      endpoint: config.EVIDENCE_S3_ENDPOINT,
      forcePathStyle: config.EVIDENCE_S3_FORCE_PATH_STYLE,
      accessKeyId: config.EVIDENCE_S3_ACCESS_KEY_ID,
      secretAccessKey: config.EVIDENCE_S3_SECRET_ACCESS_KEY,
      now,
    }, objectIds);
  }
  const tokenKey = Buffer.from(crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'evidence-url-token-v1', 32));
  return new EmbeddedEvidenceStorage(config.dataDir, new UrlTokenSigner(tokenKey), config.EVIDENCE_PUBLIC_URL, objectIds);
}

export function evidenceLimits(config: Config): EvidenceLimits {
  return {
    maxFileBytes: config.EVIDENCE_MAX_FILE_BYTES,
    maxFiles: config.EVIDENCE_MAX_FILES,
    contentTypes: new Set(config.EVIDENCE_CONTENT_TYPES.split(',')),
    urlTtlSeconds: config.EVIDENCE_URL_TTL_SECONDS,
    downloadTtlSeconds: config.EVIDENCE_DOWNLOAD_TTL_SECONDS,
  };
}
