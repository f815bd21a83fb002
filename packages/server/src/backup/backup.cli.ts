import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { BackupError, backupDataDir, restoreDataDir } from './backup.js';

/**
 * `backup <folder>` and `restore <folder>` for the embedded default (docs/operations.md#backups). With
 * PostgreSQL, back up the database with its own tools and keep MASTER_KEY with it.
 */
export function registerBackupCommands(program: Command, ctx: CliContext<unknown>): void {
  const embeddedOnly = () => {
    const config = ctx.config();
    if (config.DATABASE_URL) {
      throw new BackupError(
        'backup and restore are for the embedded SQLite database; with PostgreSQL use pg_dump / pg_restore and keep MASTER_KEY (docs/operations.md#backups)',
      );
    }
    return config;
  };

  program
    .command('backup')
    .argument('<folder>', 'a new or empty folder to write the backup to')
    .description('copy the embedded database (online, while the service serves), its key files and the evidence files')
    .action(async (folder: string) => {
      const config = embeddedOnly();
      const manifest = await backupDataDir(config.dataDir, folder);
      ctx.output(
        { folder, ...manifest },
        () =>
          `backed up ${config.dataDir} to ${folder}: database ${manifest.database.bytes} bytes (sha256 ${manifest.database.sha256.slice(0, 12)}...), ` +
          `${manifest.keyFiles.join(' and ') || 'no key files'}, ${manifest.evidenceFiles} evidence files` +
          (manifest.keyFiles.includes('master.key')
            ? ''
            : '\nmaster.key was not in DATA_DIR (MASTER_KEY is set): keep that key with the backup, without it the sealed secrets cannot be opened'),
      );
    });

  program
    .command('restore')
    .argument('<folder>', 'a folder written by `backup`')
    .description('restore a backup into DATA_DIR, which must hold no database (stop the service first)')
    .action(async (folder: string) => {
      const config = embeddedOnly();
      const manifest = restoreDataDir(folder, config.dataDir);
      ctx.output(
        { folder, dataDir: config.dataDir, ...manifest },
        () =>
          `restored the backup of ${manifest.createdAt} into ${config.dataDir}: start the service on it as usual (npm start)`,
      );
    });
}
