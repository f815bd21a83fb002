import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { Services } from '../services.js';
import type { PersonView, SecondFactor } from './people.service.js';

/** Recorded as the actor of account changes made from the host's shell (not audited: no request). */
export const SHELL_ACTOR = 'cli';

export const factorText = (f: SecondFactor) =>
  [
    `TOTP secret ${f.totpSecret}`,
    `  ${f.totpUri}`,
    `recovery codes (each good once): ${f.recoveryCodes.join(' ')}`,
    '(shown once: hand them to the account holder now)',
  ].join('\n');

/** The tail of an account's line: its state, as both realms' `list` print it. */
export const stateText = (v: PersonView) =>
  `${v.disabled ? '  DISABLED' : ''}${v.lockedUntil ? `  locked until ${v.lockedUntil}` : ''}  recovery codes left ${v.recoveryCodesLeft}  last sign-in ${v.lastLoginAt ?? 'never'}`;

interface AccountsCli<V> {
  create(input: any, actor: string, ctx: null): Promise<{ password: string; secondFactor: SecondFactor }>;
  list(): Promise<V[]>;
  update(name: string, patch: any, actor: string, ctx: null): Promise<V>;
  resetSecondFactor(name: string, actor: string, ctx: null): Promise<SecondFactor>;
  resetPassword(name: string, password: string | undefined, actor: string, ctx: null): Promise<{ password: string }>;
}

/** One realm's account commands: its service, how a line reads, and how its grants are given on the command line. */
export interface AccountCommands<V> {
  accounts: (s: Services) => AccountsCli<V>;
  describe: (v: V) => string;
  /** The key of the account in create's answer and of the list's: 'operator'/'operators'. */
  one: string;
  many: string;
  /** What `list` prints when there are none. */
  none: string;
  /** The grants: create's required option (`--role <role>`), and the command that changes them (`set-role`). */
  grants: {
    option: string;
    argument: string;
    help: string;
    command: string;
    /** The grants' part of create's input and of the update patch, from the option's or argument's text. */
    parse: (value: string) => Record<string, unknown>;
  };
}

/**
 * The commands of one realm's accounts (`operator ...`, `studio-developer ...`): create, list, the grants' command,
 * disable, enable, reset-totp, reset-password. Like every CLI command they work on the database directly, so they are
 * the way in when no admin can sign in.
 */
export function registerAccountCommands<V>(command: Command, ctx: CliContext, spec: AccountCommands<V>): void {
  const { grants } = spec;
  command
    .command('create')
    .argument('<name>')
    .requiredOption(grants.option, grants.help)
    .option('--password <password>', 'initial password (default: generated and printed once)')
    .action(async (name: string, o) => {
      await ctx.withServices(async (s) => {
        const value = o[grants.option.slice(2).split(' ')[0]!] as string;
        const made = await spec
          .accounts(s)
          .create({ name, ...grants.parse(value), ...(o.password ? { password: o.password } : {}) }, SHELL_ACTOR, null);
        const account = (made as unknown as Record<string, V>)[spec.one]!;
        ctx.output(made, () =>
          [spec.describe(account), `password ${made.password}`, factorText(made.secondFactor)].join('\n'),
        );
      });
    });

  command.command('list').action(async () => {
    await ctx.withServices(async (s) => {
      const all = await spec.accounts(s).list();
      ctx.output({ [spec.many]: all }, () => all.map(spec.describe).join('\n') || spec.none);
    });
  });

  command
    .command(grants.command)
    .argument('<name>')
    .argument(grants.argument, grants.help)
    .action((name: string, value: string) =>
      ctx.print((s) => spec.accounts(s).update(name, grants.parse(value), SHELL_ACTOR, null), spec.describe),
    );

  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    command
      .command(name)
      .argument('<name>')
      .action((account: string) =>
        ctx.print((s) => spec.accounts(s).update(account, { disabled }, SHELL_ACTOR, null), spec.describe),
      );

  command
    .command('reset-totp')
    .argument('<name>')
    .description('new TOTP secret and recovery codes (a lost phone); printed once')
    .action((account: string) =>
      ctx.print((s) => spec.accounts(s).resetSecondFactor(account, SHELL_ACTOR, null), factorText),
    );

  command
    .command('reset-password')
    .argument('<name>')
    .option('--password <password>', 'the new password (default: generated and printed once)')
    .description('new password; lifts a lock and ends the sessions')
    .action((account: string, o) =>
      ctx.print(
        (s) => spec.accounts(s).resetPassword(account, o.password, SHELL_ACTOR, null),
        (r) => `password ${r.password}  (shown once)`,
      ),
    );
}
