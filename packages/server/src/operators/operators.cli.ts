import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import type { OperatorService, OperatorView, Principal } from './operators.service.js';
import type { OperatorTokenService, TokenView } from './operator-tokens.service.js';
import { registerRealmAccountCommands, stateText, type RealmCli } from '../identity/account-commands.js';

/** The host's shell: it reaches the database directly, so it acts as an admin (like the rest of the CLI). */
const SHELL: Principal = { kind: 'break-glass', operatorId: null, name: 'cli', role: 'admin' };

const describe = (o: OperatorView) => `${o.name}  ${o.role}${stateText(o)}`;
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
/** What the operator commands use. */
export interface OperatorsCli extends RealmCli {
  operators: OperatorService;
  operatorTokens: OperatorTokenService;
}

export function registerOperatorCommands(program: Command, ctx: CliContext<OperatorsCli>): void {
  const op = program.command('operator').description('operator accounts of the console and the admin API');

  registerRealmAccountCommands(op, ctx, {
    accounts: (s) => s.operators,
    describe,
    one: 'operator',
    none: 'no operators',
    many: 'operators',
    grants: {
      option: '--role <role>',
      argument: '<role>',
      help: 'admin | operator | moderator | support',
      command: 'set-role',
      parse: (role) => ({ role }),
    },
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
    .action((operator: string) =>
      ctx.printList('tokens', (s) => s.operatorTokens.list(SHELL, operator), tokenLine, 'no tokens'),
    );
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
