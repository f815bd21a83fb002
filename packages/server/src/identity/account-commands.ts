import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { Config } from '../config/config.js';
import type { PersonView, SecondFactor } from './people.service.js';
import type { InvitationIssued } from './invitations.service.js';

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
  create(
    input: any,
    actor: string,
    ctx: null,
    origin: string,
  ): Promise<{ password?: string; secondFactor?: SecondFactor } & Partial<InvitationIssued>>;
  list(): Promise<V[]>;
  update(name: string, patch: any, actor: string, ctx: null): Promise<V>;
  reset(name: string, email: string | null, actor: string, ctx: null, origin: string): Promise<InvitationIssued>;
}

/** Where the links point from the host's shell: PUBLIC_ORIGIN, else this host on PORT. */
const cliOrigin = (s: RealmCli) => s.config.PUBLIC_ORIGIN ?? `http://localhost:${s.config.PORT}`;

/** An invitation or reset link as the CLI prints it: its state, and the link or where it was mailed. */
export const issuedText = (r: InvitationIssued) =>
  [
    `invitation #${r.invitation.invitationId} (${r.invitation.kind}) for ${r.invitation.name}, ${r.invitation.state} until ${r.invitation.expiresAt}`,
    r.link
      ? `link (good once; hand it to ${r.invitation.name} only): ${r.link}`
      : r.mail === 'sent'
        ? `mailed to ${r.invitation.email}`
        : `the mail to ${r.invitation.email} failed: resend it once the mail server answers`,
  ].join('\n');

/** What every realm's account commands use of the services: where the links point. */
export interface RealmCli {
  config: Pick<Config, 'PUBLIC_ORIGIN' | 'PORT'>;
}

/** One realm's account commands: its service, how a line reads, and how its grants are given on the command line. */
export interface AccountCommands<S, V> {
  accounts: (s: S) => AccountsCli<V>;
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
export function registerRealmAccountCommands<S extends RealmCli, V>(
  command: Command,
  ctx: CliContext<S>,
  spec: AccountCommands<S, V>,
): void {
  const { grants } = spec;
  command
    .command('create')
    .argument('<name>')
    .requiredOption(grants.option, grants.help)
    .option('--email <address>', 'mail the invitation link there (with SMTP_URL)')
    .option('--password <password>', 'the first admin only: its password (default: generated and printed once)')
    .description('invites a new account: prints its single-use link (the first admin: its password and second factor)')
    .action(async (name: string, o) => {
      await ctx.withServices(async (s) => {
        const value = o[grants.option.slice(2).split(' ')[0]!] as string;
        const input = {
          name,
          ...grants.parse(value),
          ...(o.password ? { password: o.password } : {}),
          ...(o.email ? { email: o.email } : {}),
        };
        const made = await spec.accounts(s).create(input, SHELL_ACTOR, null, cliOrigin(s));
        const account = (made as unknown as Record<string, V>)[spec.one]!;
        ctx.output(made, () =>
          [
            spec.describe(account),
            ...(made.invitation
              ? [issuedText(made as InvitationIssued)]
              : [`password ${made.password}`, factorText(made.secondFactor!)]),
          ].join('\n'),
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
    .command('reset')
    .argument('<name>')
    .option('--email <address>', 'mail the reset link there (with SMTP_URL)')
    .description('a reset link: the person sets a new password and second factor with it (printed, or mailed)')
    .action((account: string, o) =>
      ctx.print((s) => spec.accounts(s).reset(account, o.email ?? null, SHELL_ACTOR, null, cliOrigin(s)), issuedText),
    );
}
