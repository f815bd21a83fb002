import crypto from 'node:crypto';
import { ConfigError, type Config } from '../config/config.js';
import type { MasterKeys } from '../crypto/master-keys.js';
import { EmbeddedEvidenceStorage } from './embedded-storage.js';
import { ObjectIdSigner } from './object-id.js';
import type { EvidenceStorage } from './storage.js';
import { UrlTokenSigner } from './url-token.js';
import type { EvidenceLimits } from './evidence.service.js';

/** A key for `purpose` derived (HKDF) from each master key, the current one's first. */
const derivedKeys = (keys: MasterKeys, purpose: string) =>
  [keys.current, ...keys.previous].map((k) => Buffer.from(crypto.hkdfSync('sha256', k, Buffer.alloc(0), purpose, 32)));

/**
 * The evidence backend chosen by EVIDENCE_BACKEND. The master keys key the
 * object addresses and the embedded URL tokens (through HKDF); an address or
 * URL made under a previous master key still verifies during a rotation. The AWS SDK (about 6 MB of heap) is loaded
 * only when EVIDENCE_BACKEND=s3.
 */
export async function createEvidenceStorage(
  config: Config,
  masterKeys: MasterKeys,
  now: () => number,
): Promise<EvidenceStorage> {
  const objectIds = new ObjectIdSigner(derivedKeys(masterKeys, 'evidence-object-id-v1'));
  if (config.EVIDENCE_BACKEND === 's3') {
    if (!config.EVIDENCE_S3_BUCKET)
      throw new ConfigError('invalid configuration: EVIDENCE_S3_BUCKET: required when EVIDENCE_BACKEND=s3');
    if (!!config.EVIDENCE_S3_ACCESS_KEY_ID !== !!config.EVIDENCE_S3_SECRET_ACCESS_KEY) {
      throw new ConfigError(
        'invalid configuration: EVIDENCE_S3_ACCESS_KEY_ID and EVIDENCE_S3_SECRET_ACCESS_KEY: set both or neither',
      );
    }
    const { S3EvidenceStorage } = await import('./s3-storage.js');
    return new S3EvidenceStorage(
      {
        bucket: config.EVIDENCE_S3_BUCKET,
        region: config.EVIDENCE_S3_REGION,
        endpoint: config.EVIDENCE_S3_ENDPOINT,
        forcePathStyle: config.EVIDENCE_S3_FORCE_PATH_STYLE,
        accessKeyId: config.EVIDENCE_S3_ACCESS_KEY_ID,
        secretAccessKey: config.EVIDENCE_S3_SECRET_ACCESS_KEY,
        now,
      },
      objectIds,
    );
  }
  return new EmbeddedEvidenceStorage(
    config.dataDir,
    new UrlTokenSigner(derivedKeys(masterKeys, 'evidence-url-token-v1')),
    config.EVIDENCE_PUBLIC_URL,
    objectIds,
  );
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
