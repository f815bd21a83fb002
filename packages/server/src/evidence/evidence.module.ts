import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { MasterKeys } from '../crypto/master-keys.js';
import type { Tables } from '../db/tables.js';
import { createEvidenceStorage, evidenceLimits } from './create-storage.js';
import { EvidenceRepository } from './evidence.repository.js';
import { EvidenceService } from './evidence.service.js';

export { evidenceRoutes } from './evidence.routes.js';
export type { EvidenceService } from './evidence.service.js';

/** Builds the evidence files of reports (4.2): their storage backend (EVIDENCE_BACKEND) and records. */
export async function createEvidence(d: {
  db: Kysely<Tables>;
  config: Config;
  masterKeys: MasterKeys;
  now: () => number;
}): Promise<EvidenceService> {
  return new EvidenceService(
    new EvidenceRepository(d.db),
    await createEvidenceStorage(d.config, d.masterKeys, d.now),
    evidenceLimits(d.config),
    d.now,
  );
}
