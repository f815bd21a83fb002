import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import { factorText } from '../operators/operators.cli.js';
import type { DeveloperView } from './studio-developers.service.js';

/** Recorded as the actor of account changes made from the host's shell. */
const SHELL = 'cli';

const describe = (d: DeveloperView) =>
  `${d.name}  apps ${d.appIds.join(',') || '(none)'}${d.disabled ? '  DISABLED' : ''}${d.lockedUntil ? `  locked until ${d.lockedUntil}` : ''}  recovery codes left ${d.recoveryCodesLeft}  last sign-in ${d.lastLoginAt ?? 'never'}`;

function parseApps(value: string): number[] {
  if (!/^[0-9]{1,15}(,[0-9]{1,15})*$/.test(value)) throw invalidParameter('apps', 'a comma-separated list of app ids');
  return value.split(',').map(Number);
}

/** `studio-developer ...`: the studio portal's developer accounts from the host (docs/portal.md). */
export function registerStudioDeveloperCommands(program: Command, ctx: CliContext): void {
  const dev = program
    .command('studio-developer')
    .description("studio developer accounts of the portal (/portal), each scoped to its studio's apps");

  dev
    .command('create')
    .argument('<name>')
    .requiredOption('--apps <ids>', 'the app ids it sees, comma-separated')
    .option('--password <password>', 'initial password (default: generated and printed once)')
    .action(async (name: string, o) => {
      await ctx.withServices(async (s) => {
        const made = await s.studioDevelopers.create(
          { name, appIds: parseApps(o.apps), ...(o.password ? { password: o.password } : {}) },
          SHELL,
          null,
        );
        ctx.output(made, () =>
          [describe(made.developer), `password ${made.password}`, factorText(made.secondFactor)].join('\n'),
        );
      });
    });

  dev.command('list').action(async () => {
    await ctx.withServices(async (s) => {
      const developers = await s.studioDevelopers.list();
      ctx.output({ developers }, () => developers.map(describe).join('\n') || 'no studio developers');
    });
  });

  dev
    .command('set-apps')
    .argument('<name>')
    .argument('<ids>', 'the app ids it sees, comma-separated (apps taken away end its sessions)')
    .action(async (name: string, ids: string) => {
      await ctx.withServices(async (s) => {
        const d = await s.studioDevelopers.update(name, { appIds: parseApps(ids) }, SHELL, null);
        ctx.output(d, () => describe(d));
      });
    });

  for (const [command, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    dev
      .command(command)
      .argument('<name>')
      .action(async (name: string) => {
        await ctx.withServices(async (s) => {
          const d = await s.studioDevelopers.update(name, { disabled }, SHELL, null);
          ctx.output(d, () => describe(d));
        });
      });

  dev
    .command('reset-totp')
    .argument('<name>')
    .description('new TOTP secret and recovery codes (a lost phone); printed once')
    .action(async (name: string) => {
      await ctx.withServices(async (s) => {
        const f = await s.studioDevelopers.resetSecondFactor(name, SHELL, null);
        ctx.output(f, () => factorText(f));
      });
    });

  dev
    .command('reset-password')
    .argument('<name>')
    .option('--password <password>', 'the new password (default: generated and printed once)')
    .description('new password; lifts a lock and ends the sessions')
    .action(async (name: string, o) => {
      await ctx.withServices(async (s) => {
        const r = await s.studioDevelopers.resetPassword(name, o.password, SHELL, null);
        ctx.output(r, () => `password ${r.password}  (shown once)`);
      });
    });
}
