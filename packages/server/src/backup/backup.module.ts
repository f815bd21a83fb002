export { registerBackupCommands } from './backup.cli.js';
