import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import { registerRealmAccountCommands, SHELL_ACTOR, stateText, type RealmCli } from '../identity/account-commands.js';
import type { DeveloperView, StudioDeveloperService } from './studio-developers.service.js';

const describe = (d: DeveloperView) =>
  `${d.name}  apps ${d.appIds.join(',') || '(none)'}  refunds ${d.refundAppIds.join(',') || '(none)'}${stateText(d)}`;

function parseApps(value: string): number[] {
  if (!/^[0-9]{1,15}(,[0-9]{1,15})*$/.test(value)) throw invalidParameter('apps', 'a comma-separated list of app ids');
  return value.split(',').map(Number);
}

/** `studio-developer ...`: the studio portal's developer accounts from the host (docs/portal.md). */
/** What the studio developer commands use. */
export interface StudioDevelopersCli extends RealmCli {
  studioDevelopers: StudioDeveloperService;
}

export function registerStudioDeveloperCommands(program: Command, ctx: CliContext<StudioDevelopersCli>): void {
  const dev = program
    .command('studio-developer')
    .description("studio developer accounts of the portal (/portal), each scoped to its studio's apps");

  registerRealmAccountCommands(dev, ctx, {
    accounts: (s) => s.studioDevelopers,
    describe,
    one: 'developer',
    none: 'no studio developers',
    many: 'developers',
    grants: {
      option: '--apps <ids>',
      argument: '<ids>',
      help: 'the app ids it sees, comma-separated (apps taken away end its sessions)',
      command: 'set-apps',
      parse: (ids) => ({ appIds: parseApps(ids) }),
    },
  });
  dev
    .command('set-refunds')
    .argument('<name>')
    .argument('<ids>', 'app ids among its apps, comma-separated, or "none"')
    .description('the apps whose web orders the developer may refund in the portal (docs/portal.md, Refunds)')
    .action((name: string, ids: string) =>
      ctx.print(
        (s) =>
          s.studioDevelopers.update(name, { refundAppIds: ids === 'none' ? [] : parseApps(ids) }, SHELL_ACTOR, null),
        describe,
      ),
    );
}
