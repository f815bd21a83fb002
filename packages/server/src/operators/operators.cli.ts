import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import type { OperatorView, Principal, SecondFactor } from './operators.service.js';
import type { TokenView } from './operator-tokens.service.js';

/** The host's shell: it reaches the database directly, so it acts as an admin (like the rest of the CLI). */
const SHELL: Principal = { kind: 'break-glass', operatorId: null, name: 'cli', role: 'admin' };

const describe = (o: OperatorView) =>
  `${o.name}  ${o.role}${o.disabled ? '  DISABLED' : ''}${o.lockedUntil ? `  locked until ${o.lockedUntil}` : ''}  recovery codes left ${o.recoveryCodesLeft}  last sign-in ${o.lastLoginAt ?? 'never'}`;
export const factorText = (f: SecondFactor) =>
  [
    `TOTP secret ${f.totpSecret}`,
    `  ${f.totpUri}`,
    `recovery codes (each good once): ${f.recoveryCodes.join(' ')}`,
    '(shown once: hand them to the account holder now)',
  ].join('\n');
const tokenLine = (t: TokenView) =>
  `#${t.tokenId}  ${t.operator}  ${t.name}  ${t.role}  expires ${t.expiresAt ?? 'never'}  last used ${t.lastUsedAt ?? 'never'}${t.revokedAt ? `  REVOKED ${t.revokedAt}` : ''}`;

function parseDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,3}$/.test(value)) throw invalidParameter('expires-in-days', 'must be 1-366');
  return Number(value);
}

/**
 * `operator ...` and `operator token ...`: operator accounts and their API tokens from the host (docs/operators.md).
 * Like every CLI command it works on the database directly, so it is the way in when no admin can sign in.
 */
export function registerOperatorCommands(program: Command, ctx: CliContext): void {
  const op = program.command('operator').description('operator accounts of the console and the admin API');

  op.command('create')
    .argument('<name>')
    .requiredOption('--role <role>', 'admin | operator | moderator | support')
    .option('--password <password>', 'initial password (default: generated and printed once)')
    .action(async (name: string, o) => {
      await ctx.withServices(async (s) => {
        const made = await s.operators.create(
          { name, role: o.role, ...(o.password ? { password: o.password } : {}) },
          SHELL.name,
          null,
        );
        ctx.output(made, () =>
          [describe(made.operator), `password ${made.password}`, factorText(made.secondFactor)].join('\n'),
        );
      });
    });

  op.command('list').action(async () => {
    await ctx.withServices(async (s) => {
      const operators = await s.operators.list();
      ctx.output({ operators }, () => operators.map(describe).join('\n') || 'no operators');
    });
  });

  op.command('set-role')
    .argument('<name>')
    .argument('<role>', 'admin | operator | moderator | support')
    .action(async (name: string, role: string) => {
      await ctx.withServices(async (s) => {
        const o = await s.operators.update(name, { role }, SHELL.name, null);
        ctx.output(o, () => describe(o));
      });
    });

  for (const [command, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const)
    op.command(command)
      .argument('<name>')
      .action(async (name: string) => {
        await ctx.withServices(async (s) => {
          const o = await s.operators.update(name, { disabled }, SHELL.name, null);
          ctx.output(o, () => describe(o));
        });
      });

  op.command('reset-totp')
    .argument('<name>')
    .description('new TOTP secret and recovery codes (a lost phone); printed once')
    .action(async (name: string) => {
      await ctx.withServices(async (s) => {
        const f = await s.operators.resetSecondFactor(name, SHELL.name, null);
        ctx.output(f, () => factorText(f));
      });
    });

  op.command('reset-password')
    .argument('<name>')
    .option('--password <password>', 'the new password (default: generated and printed once)')
    .description('new password; lifts a lock and ends the sessions')
    .action(async (name: string, o) => {
      await ctx.withServices(async (s) => {
        const r = await s.operators.resetPassword(name, o.password, SHELL.name, null);
        ctx.output(r, () => `password ${r.password}  (shown once)`);
      });
    });

  const token = op.command('token').description("an operator's API tokens (Authorization: Bearer gpo_...)");
  token
    .command('create')
    .argument('<operator>')
    .requiredOption('--name <name>', 'what the token is for')
    .option('--role <role>', "default: the operator's; at most the operator's, or support")
    .option('--expires-in-days <days>', '1-366 (default 90)')
    .action(async (operator: string, o) => {
      await ctx.withServices(async (s) => {
        const days = parseDays(o.expiresInDays);
        const made = await s.operatorTokens.create(
          SHELL,
          { name: o.name, operator, ...(o.role ? { role: o.role } : {}), ...(days ? { expiresInDays: days } : {}) },
          null,
        );
        ctx.output(made, () => `${tokenLine(made.info)}\ntoken ${made.token}  (shown once: store it now)`);
      });
    });
  token
    .command('list')
    .argument('<operator>')
    .action(async (operator: string) => {
      await ctx.withServices(async (s) => {
        const tokens = await s.operatorTokens.list(SHELL, operator);
        ctx.output({ tokens }, () => tokens.map(tokenLine).join('\n') || 'no tokens');
      });
    });
  token
    .command('revoke')
    .argument('<tokenId>')
    .action(async (id: string) => {
      if (!/^[0-9]{1,15}$/.test(id)) throw invalidParameter('tokenId', 'must be a number');
      await ctx.withServices(async (s) => {
        const t = await s.operatorTokens.revoke(SHELL, Number(id), null);
        ctx.output(t, () => tokenLine(t));
      });
    });
}
