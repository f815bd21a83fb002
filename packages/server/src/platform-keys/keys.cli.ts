import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { PlatformKeyService } from './keys.service.js';

/** What the `keys` commands use. */
export interface KeyCommandServices {
  keys: PlatformKeyService;
}

export function registerKeyCommands(program: Command, ctx: CliContext<KeyCommandServices>): void {
  const keys = program.command('keys').description('the platform key pairs that sign calls to games (5.3)');

  keys.command('list').action(async () => {
    await ctx.withServices(async (s) => {
      const list = await s.keys.list();
      ctx.output({ keys: list }, () =>
        list
          .map((k) => `${k.kid}  ${k.status}  created ${k.createdAt}${k.retiredAt ? `  retired ${k.retiredAt}` : ''}`)
          .join('\n'),
      );
    });
  });

  keys
    .command('rotate')
    .description('add a key pair that signs from now on; the old one stays published')
    .action(() =>
      ctx.print(
        (s) => s.keys.rotate(),
        (key) => `${key.kid} now signs\n${key.publicKeyPem}`,
      ),
    );

  keys
    .command('retire')
    .argument('<kid>')
    .description('stop publishing an old key')
    .action(async (kid: string) => {
      await ctx.withServices(async (s) => {
        await s.keys.retire(kid);
        ctx.output({ retired: kid }, () => `${kid} retired`);
      });
    });
}
