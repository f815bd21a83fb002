import { Command, CommanderError, Option } from 'commander';
import { serveUntilSignal } from './boot.js';
import { cliContext } from './cli/context.js';
import { createServices } from './services.js';
import { printCliFailure } from './cli/cli-error.js';
import { registerAppCommands } from './apps/apps.module.js';
import { registerStoreSettingsCommands } from './app-stores/app-stores.module.js';
import { registerWebPayCommands } from './web-pay/web-pay.module.js';
import {
  registerConsumptionRequestCommands,
  registerStoreMessageCommands,
} from './store-payments/store-payments.module.js';
import { registerAppOrderCommands, registerOrderCommands } from './orders/orders.module.js';
import {
  registerOrderRefundCommand,
  registerPaymentProviderCommands,
} from './payment-providers/payment-providers.module.js';
import { registerKeyCommands } from './platform-keys/platform-keys.module.js';
import { registerAccountCommands } from './accounts/accounts.module.js';
import { registerDeliveryCommands } from './delivery/delivery.module.js';
import { registerReportCommands } from './reporting/reporting.module.js';
import { registerCallLogCommands } from './game-calls/game-calls.module.js';
import { registerMasterKeyCommands } from './master-key/master-key.module.js';
import { registerAdminAuditCommands } from './admin-audit/admin-audit.module.js';
import { registerBackupCommands } from './backup/backup.module.js';
import { registerOperatorCommands } from './operators/operators.module.js';
import { registerStudioDeveloperCommands } from './portal/portal.module.js';

/**
 * The service's command line: `serve` (what `npm start` runs), `migrate`, and
 * operator commands that work on the same database as the service.
 */
const program = new Command('game-platform')
  .description('Game platform service and its operator commands')
  .addOption(new Option('--json', 'print JSON').default(false));
const json = () => program.opts().json === true || process.argv.includes('--json');
// Commander's own refusals (unknown option, missing argument) come to the catch below, printed as every other error
// (JSON under --json); set before the commands are added, which inherit it.
program.exitOverride().configureOutput({ writeErr: (text) => (json() ? undefined : process.stderr.write(text)) });
const ctx = cliContext(program, (config) => createServices(config));

program
  .command('serve')
  .description('run the service')
  .action(async () => {
    await serveUntilSignal(ctx.config());
  });

program
  .command('migrate')
  .description('apply pending database migrations and exit')
  .action(async () => {
    // Opening the services applies the migrations.
    await ctx.withServices(async (s) =>
      ctx.output(
        { migrated: true, database: s.database.dialect.name },
        () => `database (${s.database.dialect.name}) is up to date`,
      ),
    );
  });

// `app ...` and what other domains keep under it, in the order `app --help` lists them.
const app = registerAppCommands(program, ctx);
registerStoreSettingsCommands(app, ctx);
registerWebPayCommands(app, ctx);
registerStoreMessageCommands(app, ctx);
registerConsumptionRequestCommands(app, ctx);
registerAppOrderCommands(app, ctx);
registerPaymentProviderCommands(app, ctx);
registerKeyCommands(program, ctx);
// `order refund` is the refund requests' (payment-providers): orders needs nothing of the providers.
registerOrderRefundCommand(registerOrderCommands(program, ctx), ctx);
registerAccountCommands(program, ctx);
registerDeliveryCommands(program, ctx);
registerReportCommands(program, ctx);
registerCallLogCommands(program, ctx);
registerMasterKeyCommands(program, ctx);
registerAdminAuditCommands(program, ctx);
registerBackupCommands(program, ctx);
registerOperatorCommands(program, ctx);
registerStudioDeveloperCommands(program, ctx);

program.parseAsync(process.argv).catch((err: unknown) => {
  // --help and --version end through exitOverride too, with exit code 0 and their text already printed.
  if (err instanceof CommanderError && err.exitCode === 0) process.exit(0);
  process.exit(printCliFailure(err, json()));
});
