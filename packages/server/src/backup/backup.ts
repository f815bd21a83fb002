import SQLite from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Backups of the embedded default (docs/operations.md): the SQLite database copied with SQLite's online backup
 * (a consistent snapshot while the service keeps serving and writing), the key and token files beside it (without
 * `master.key` the sealed secrets in the copy cannot be opened), and the embedded evidence files. A manifest records
 * what was copied with the database's SHA-256, so a restore can tell a damaged or partial backup.
 */

/** The database file in DATA_DIR (services.ts opens the same). */
export const DATABASE_FILE = 'platform.db';
/** What sits beside the database and belongs to it. */
const KEY_FILES = ['master.key', 'admin-token'];
const EVIDENCE_DIR = 'evidence';
const MANIFEST = 'backup.json';

export interface BackupManifest {
  format: 'game-platform-backup-v1';
  createdAt: string;
  database: { file: string; bytes: number; sha256: string; migrations: string[] };
  keyFiles: string[];
  evidenceFiles: number;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

function sha256Of(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A folder that does not exist or is empty: a backup or restore never overwrites. */
function claimEmptyDir(dir: string, what: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new BackupError(`${what} ${dir} is not empty; give a new or empty folder`);
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

function copyTree(from: string, to: string): number {
  if (!fs.existsSync(from)) return 0;
  let files = 0;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      fs.mkdirSync(target, { recursive: true });
      files += copyTree(source, target);
    } else if (entry.isFile()) {
      fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL);
      files++;
    }
  }
  return files;
}

function appliedMigrations(file: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
  } finally {
    db.close();
  }
}

/** Copies DATA_DIR's database, key files and evidence into `to` (new or empty), consistently while the service serves. */
export async function backupDataDir(
  dataDir: string,
  to: string,
  now: () => number = Date.now,
): Promise<BackupManifest> {
  const source = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`no database at ${source}: is DATA_DIR right?`);
  claimEmptyDir(to, 'backup folder');
  const target = path.join(to, DATABASE_FILE);
  // SQLite's online backup reads a consistent snapshot page by page while other connections (the running service)
  // go on writing; a read-only connection of our own never blocks the service.
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  const keyFiles = KEY_FILES.filter((name) => fs.existsSync(path.join(dataDir, name)));
  for (const name of keyFiles) fs.copyFileSync(path.join(dataDir, name), path.join(to, name));
  fs.mkdirSync(path.join(to, EVIDENCE_DIR), { recursive: true });
  const evidenceFiles = copyTree(path.join(dataDir, EVIDENCE_DIR), path.join(to, EVIDENCE_DIR));
  const manifest: BackupManifest = {
    format: 'game-platform-backup-v1',
    createdAt: new Date(now()).toISOString(),
    database: {
      file: DATABASE_FILE,
      bytes: fs.statSync(target).size,
      sha256: sha256Of(target),
      migrations: appliedMigrations(target),
    },
    keyFiles,
    evidenceFiles,
  };
  fs.writeFileSync(path.join(to, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  return manifest;
}

/**
 * Restores a backup into DATA_DIR, which must hold no database (stop the service and move the old folder aside
 * first: a restore never overwrites). The copy is checked against the manifest and with SQLite's integrity check
 * before anything is written to DATA_DIR. The service then starts on it as usual (newer migrations apply).
 */
export function restoreDataDir(from: string, dataDir: string): BackupManifest {
  const manifestFile = path.join(from, MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new BackupError(`${from} holds no ${MANIFEST}: not a backup of this service`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== 'game-platform-backup-v1') throw new BackupError(`unknown backup format ${manifest.format}`);
  const copy = path.join(from, manifest.database.file);
  if (!fs.existsSync(copy) || sha256Of(copy) !== manifest.database.sha256) {
    throw new BackupError(`${copy} is missing or differs from the manifest (sha256): the backup is damaged`);
  }
  const check = new SQLite(copy, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`${copy} fails SQLite's integrity check: ${String(result)}`);
  } finally {
    check.close();
  }
  if (fs.existsSync(path.join(dataDir, DATABASE_FILE))) {
    throw new BackupError(`${dataDir} already holds a database; stop the service and restore into a new DATA_DIR`);
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  for (const name of manifest.keyFiles) {
    if (fs.existsSync(path.join(dataDir, name))) {
      throw new BackupError(`${path.join(dataDir, name)} exists; restore into a new DATA_DIR`);
    }
  }
  for (const name of manifest.keyFiles) {
    fs.copyFileSync(path.join(from, name), path.join(dataDir, name), fs.constants.COPYFILE_EXCL);
    fs.chmodSync(path.join(dataDir, name), 0o600);
  }
  fs.mkdirSync(path.join(dataDir, EVIDENCE_DIR), { recursive: true });
  copyTree(path.join(from, EVIDENCE_DIR), path.join(dataDir, EVIDENCE_DIR));
  // The database last, so a DATA_DIR with a database is a complete restore.
  fs.copyFileSync(copy, path.join(dataDir, DATABASE_FILE), fs.constants.COPYFILE_EXCL);
  return manifest;
}
