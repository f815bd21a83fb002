import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from '../config/config.js';
import { decodeMasterKey, readOrCreateSecretFile } from './secret-box.js';

/** The master keyring: new values are sealed under `current`, old ones open under any key. */
export interface MasterKeys {
  current: Buffer;
  previous: Buffer[];
  /** Embedded mode without MASTER_KEY: the DATA_DIR file the keys came from. */
  file: string | null;
}

export const MASTER_KEY_FILE = 'master.key';

/**
 * The keyring of this configuration. MASTER_KEY (required with PostgreSQL)
 * and MASTER_KEY_PREVIOUS (comma-separated); in embedded mode without
 * MASTER_KEY, DATA_DIR/master.key: one key a line, the current one first
 * (generated on first start). A bad key stops the service naming where it is.
 */
export function loadMasterKeys(config: Config, notes: string[] = []): MasterKeys {
  const previous = config.MASTER_KEY_PREVIOUS.split(',')
    .map((v) => v.trim())
    .filter(Boolean)
    .map((v, i) => decodeOrFail(v, `MASTER_KEY_PREVIOUS (entry ${i + 1})`));
  if (config.MASTER_KEY) return { current: decodeOrFail(config.MASTER_KEY, 'MASTER_KEY'), previous, file: null };
  const read = readOrCreateSecretFile(config.dataDir, MASTER_KEY_FILE, () => crypto.randomBytes(32).toString('base64'));
  if (read.created) notes.push(`generated a master key into ${read.file}; back it up with the database`);
  const [current, ...older] = read.value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((v, i) => decodeOrFail(v, `${read.file} (line ${i + 1})`));
  if (!current) throw new ConfigError(`invalid configuration: ${read.file}: holds no master key`);
  return { current, previous: [...older, ...previous], file: read.file };
}

/** Replaces the key file of embedded mode (one key a line, the current first), atomically and mode 0600. */
export function writeMasterKeyFile(file: string, keys: Buffer[]): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, keys.map((k) => k.toString('base64')).join('\n') + '\n', { mode: 0o600, flag: 'w' });
  fs.renameSync(tmp, file);
}

function decodeOrFail(value: string, where: string): Buffer {
  try {
    return decodeMasterKey(value);
  } catch {
    throw new ConfigError(`invalid configuration: ${where}: must be the base64 (or base64url) of exactly 32 bytes`);
  }
}
