import SQLite from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { migrations as knownMigrations } from '../db/migrate.js';

/**
 * Backups of the embedded default (docs/operations.md): the SQLite database copied with SQLite's online backup
 * (a consistent snapshot while the service keeps serving and writing), the key and token files beside it (without
 * `master.key` the sealed secrets in the copy cannot be opened), and the embedded evidence files. A manifest records
 * what was copied with the database's SHA-256, so a restore can tell a damaged or partial backup.
 *
 * A backup holds password hashes, sealed secrets and the master key that opens them: every file is written 0600 and
 * every folder 0700, in the backup and in a restored DATA_DIR, and the copy leaves no `-wal`/`-shm` files behind.
 * Every refusal is a BackupError saying which file is wrong and how.
 */

/** The database file in DATA_DIR (services.ts opens the same). */
export const DATABASE_FILE = 'platform.db';
/** What sits beside the database and belongs to it. */
const KEY_FILES = ['master.key', 'admin-token'];
const EVIDENCE_DIR = 'evidence';
const MANIFEST = 'backup.json';
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

const Manifest = Type.Object({
  format: Type.Literal('game-platform-backup-v1'),
  createdAt: Type.String(),
  database: Type.Object({
    file: Type.Literal(DATABASE_FILE),
    bytes: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    migrations: Type.Array(Type.String()),
  }),
  keyFiles: Type.Array(Type.Union(KEY_FILES.map((f) => Type.Literal(f)))),
  evidenceFiles: Type.Integer({ minimum: 0 }),
});
export type BackupManifest = Static<typeof Manifest>;

export class BackupError extends Error {
  override name = 'BackupError';
}

function sha256Of(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A folder that does not exist or is empty: a backup or restore never overwrites. Made (or tightened) to 0700. */
function claimEmptyDir(dir: string, what: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new BackupError(`${what} ${dir} is not empty; give a new or empty folder`);
  }
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  fs.chmodSync(dir, DIR_MODE);
}

/** Copies a file (never over an existing one), 0600. */
function copyPrivate(from: string, to: string): void {
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(to, FILE_MODE);
}

function makeDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  fs.chmodSync(dir, DIR_MODE);
}

function copyTree(from: string, to: string): number {
  if (!fs.existsSync(from)) return 0;
  let files = 0;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      makeDir(target);
      files += copyTree(source, target);
    } else if (entry.isFile()) {
      copyPrivate(source, target);
      files++;
    }
  }
  return files;
}

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .reduce((n, e) => n + (e.isDirectory() ? countFiles(path.join(dir, e.name)) : e.isFile() ? 1 : 0), 0);
}

/** Removes the `-wal` and `-shm` files SQLite may leave beside a database it opened. */
function removeSidecars(file: string): void {
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
}

function appliedMigrations(db: SQLite.Database): string[] {
  return (db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map(
    (r) => r.name,
  );
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
  // The copy keeps the source's WAL mode, and every later opening of it would leave -wal and -shm files in the
  // backup: it is switched to a rollback journal (the service sets WAL again when it opens a restored copy).
  fs.chmodSync(target, FILE_MODE);
  let migrations: string[];
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.exec('pragma journal_mode = DELETE');
    migrations = appliedMigrations(copy);
  } finally {
    copy.close();
  }
  removeSidecars(target);
  const keyFiles = KEY_FILES.filter((name) => fs.existsSync(path.join(dataDir, name)));
  for (const name of keyFiles) copyPrivate(path.join(dataDir, name), path.join(to, name));
  makeDir(path.join(to, EVIDENCE_DIR));
  const evidenceFiles = copyTree(path.join(dataDir, EVIDENCE_DIR), path.join(to, EVIDENCE_DIR));
  const manifest: BackupManifest = {
    format: 'game-platform-backup-v1',
    createdAt: new Date(now()).toISOString(),
    database: { file: DATABASE_FILE, bytes: fs.statSync(target).size, sha256: sha256Of(target), migrations },
    keyFiles: keyFiles as BackupManifest['keyFiles'],
    evidenceFiles,
  };
  fs.writeFileSync(path.join(to, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: FILE_MODE });
  return manifest;
}

/** The manifest of a backup folder, or a sentence saying what is wrong with it. */
function readManifest(from: string): BackupManifest {
  const file = path.join(from, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`${from} holds no ${MANIFEST}: not a backup of this service`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BackupError(
      `${file} is not valid JSON (${(err as Error).message}): the backup is damaged; restore another one`,
    );
  }
  if (typeof parsed === 'object' && parsed !== null && (parsed as { format?: unknown }).format !== undefined) {
    const format = (parsed as { format: unknown }).format;
    if (format !== 'game-platform-backup-v1')
      throw new BackupError(`${file} names the format ${JSON.stringify(format)}, which this service cannot restore`);
  }
  const problem = Value.Errors(Manifest, parsed).First();
  if (problem)
    throw new BackupError(
      `${file} is not a backup manifest of this service: ${problem.path || '(the file)'} ${problem.message}; the backup is damaged`,
    );
  return parsed as BackupManifest;
}

/**
 * Restores a backup into DATA_DIR, which must hold no database (stop the service and move the old folder aside
 * first: a restore never overwrites). Everything is checked before anything is written to DATA_DIR: the manifest,
 * the copy against its SHA-256 and with SQLite's integrity check, its migrations against the manifest and this
 * service, the key files and the evidence files it lists. The service then starts on it as usual (newer migrations
 * apply).
 */
export function restoreDataDir(from: string, dataDir: string): BackupManifest {
  const manifest = readManifest(from);
  const manifestFile = path.join(from, MANIFEST);
  const copy = path.join(from, manifest.database.file);
  if (!fs.existsSync(copy))
    throw new BackupError(`${copy} is missing: ${manifestFile} lists it, so the backup is incomplete`);
  if (sha256Of(copy) !== manifest.database.sha256)
    throw new BackupError(
      `${copy} differs from the SHA-256 that ${manifestFile} records for it: the backup is damaged or was altered`,
    );
  checkDatabase(copy, manifest, manifestFile);
  for (const name of manifest.keyFiles) {
    const key = path.join(from, name);
    if (!fs.existsSync(key))
      throw new BackupError(
        `${key} is missing: ${manifestFile} lists it` +
          (name === 'master.key'
            ? ', and without it the sealed secrets (md5 secrets, signing keys, token keys) of the database cannot be opened'
            : ''),
      );
    if (name === 'master.key' && !/^[A-Za-z0-9+/=_-]{43,}$/m.test(fs.readFileSync(key, 'utf8')))
      throw new BackupError(`${key} holds no master key (base64 of 32 bytes, one a line): the backup is damaged`);
  }
  const evidence = countFiles(path.join(from, EVIDENCE_DIR));
  if (evidence !== manifest.evidenceFiles)
    throw new BackupError(
      `${path.join(from, EVIDENCE_DIR)} holds ${evidence} files where ${manifestFile} lists ${manifest.evidenceFiles}: the backup is incomplete`,
    );

  if (fs.existsSync(path.join(dataDir, DATABASE_FILE))) {
    throw new BackupError(`${dataDir} already holds a database; stop the service and restore into a new DATA_DIR`);
  }
  makeDir(dataDir);
  for (const name of manifest.keyFiles) {
    if (fs.existsSync(path.join(dataDir, name))) {
      throw new BackupError(`${path.join(dataDir, name)} exists; restore into a new DATA_DIR`);
    }
  }
  for (const name of manifest.keyFiles) copyPrivate(path.join(from, name), path.join(dataDir, name));
  makeDir(path.join(dataDir, EVIDENCE_DIR));
  copyTree(path.join(from, EVIDENCE_DIR), path.join(dataDir, EVIDENCE_DIR));
  // The database last, so a DATA_DIR with a database is a complete restore.
  copyPrivate(copy, path.join(dataDir, DATABASE_FILE));
  return manifest;
}

/**
 * SQLite's integrity check on the copy, read-only, and its migrations against the manifest and this service: a
 * database whose checksum was made to match but whose pages are damaged is refused here, in a sentence.
 */
function checkDatabase(copy: string, manifest: BackupManifest, manifestFile: string): void {
  let check: SQLite.Database | undefined;
  try {
    check = new SQLite(copy, { readonly: true, fileMustExist: true });
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok')
      throw new BackupError(`${copy} fails SQLite's integrity check (${String(result)}): the backup is damaged`);
    const applied = appliedMigrations(check);
    if (applied.join() !== manifest.database.migrations.join())
      throw new BackupError(
        `${copy} has the migrations ${applied.join(', ') || '(none)'} where ${manifestFile} lists ${manifest.database.migrations.join(', ') || '(none)'}: they do not belong together`,
      );
    const unknown = applied.filter((m) => !(m in knownMigrations));
    if (unknown.length > 0)
      throw new BackupError(
        `${copy} was made by a newer version of the service (migrations ${unknown.join(', ')} are unknown here): restore it with that version`,
      );
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(
      `${copy} is not a sound SQLite database of this service (SQLite: ${(err as Error).message}): the backup is damaged`,
    );
  } finally {
    check?.close();
    removeSidecars(copy);
  }
}
