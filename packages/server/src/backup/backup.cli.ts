import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { BackupError, backupDataDir, restoreDataDir } from './backup.js';

/**
 * `backup <folder>` and `restore <folder>` for the embedded default (docs/operations.md#backups). With
 * PostgreSQL, back up the database with its own tools and keep MASTER_KEY with it.
 */
export function registerBackupCommands(program: Command, ctx: CliContext<unknown>): void {
  /** `<name> <folder>`, between the embedded DATA_DIR and a backup folder: refused with PostgreSQL. */
  const folderCommand = (
    name: string,
    folderHelp: string,
    description: string,
    run: (dataDir: string, folder: string) => Promise<{ value: unknown; text: string }>,
  ) =>
    program
      .command(name)
      .argument('<folder>', folderHelp)
      .description(description)
      .action(async (folder: string) => {
        const config = ctx.config();
        if (config.DATABASE_URL) {
          throw new BackupError(
            'backup and restore are for the embedded SQLite database; with PostgreSQL use pg_dump / pg_restore and keep MASTER_KEY (docs/operations.md#backups)',
          );
        }
        const { value, text } = await run(config.dataDir, folder);
        ctx.output(value, () => text);
      });

  folderCommand(
    'backup',
    'a new or empty folder to write the backup to',
    'copy the embedded database (online, while the service serves), its key files and the evidence files',
    async (dataDir, folder) => {
      const manifest = await backupDataDir(dataDir, folder);
      return {
        value: { folder, ...manifest },
        text:
          `backed up ${dataDir} to ${folder}: database ${manifest.database.bytes} bytes (sha256 ${manifest.database.sha256.slice(0, 12)}...), ` +
          `${manifest.keyFiles.join(' and ') || 'no key files'}, ${manifest.evidenceFiles} evidence files` +
          (manifest.keyFiles.includes('master.key')
            ? ''
            : '\nmaster.key was not in DATA_DIR (MASTER_KEY is set): keep that key with the backup, without it the sealed secrets cannot be opened'),
      };
    },
  );

  folderCommand(
    'restore',
    'a folder written by `backup`',
    'restore a backup into DATA_DIR, which must hold no database (stop the service first)',
    async (dataDir, folder) => {
      const manifest = restoreDataDir(folder, dataDir);
      return {
        value: { folder, dataDir, ...manifest },
        text: `restored the backup of ${manifest.createdAt} into ${dataDir}: start the service on it as usual (npm start)`,
      };
    },
  );
}
