import { Command, Option } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { AccountService } from './accounts.service.js';
import { invalidParameter } from '../errors/app-error.js';
import { Value } from '@sinclair/typebox/value';
import type { UserDetail, UserSummary } from './accounts.schemas.js';
import { SandboxAssertionBody } from './providers/sandbox.js';

function parseUserId(value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw invalidParameter('userId', 'must be a number');
  return Number(value);
}

const line = (u: UserSummary) =>
  `user ${u.userId}  code ${u.userCode}  ${u.username}  ${u.status}${u.banned ? ' BANNED' : ''}  loginList [${u.loginList.join(',')}]  registered ${u.registTime} from ${u.registIp}`;

const describe = (u: UserDetail) =>
  [
    line(u),
    ...u.methods.map(
      (m) =>
        `  method ${m.loginType} (${m.provider})  openId ${m.openId}${m.email ? `  email ${m.email}${m.emailVerified ? '' : ' (unverified)'}` : ''}`,
    ),
    ...u.sessions.map(
      (s) =>
        `  token ${s.tokenId}  app ${s.appId}  via ${s.loginType}  ${s.live ? `live until ${s.expiresAt}` : s.revokedAt ? `revoked (${s.revokeReason}) ${s.revokedAt}` : `expired ${s.expiresAt}`}`,
    ),
    ...u.bans.map(
      (b) =>
        `  ban ${b.banId}  ${b.reason}  until ${b.until ?? 'lifted'}  by ${b.actor}${b.liftedAt ? `  lifted ${b.liftedAt} by ${b.liftedBy}` : ''}`,
    ),
  ].join('\n');

/** Operator commands of accounts: `user find|show|revoke-tokens|ban|unban`, `account process-cancellations|sandbox-assertion`. */
/** What the account commands use. */
export interface AccountsCli {
  accounts: Pick<AccountService, 'users' | 'bans' | 'cancellation' | 'sandbox'>;
}

export function registerAccountCommands(program: Command, ctx: CliContext<AccountsCli>): void {
  const user = program.command('user').description('platform accounts');

  user
    .command('find')
    .description('find users by exactly one of --id, --code, --open-id, --email')
    .option('--id <userId>')
    .option('--code <userCode>')
    .option('--open-id <openId>')
    .option('--login-type <code>', 'with --open-id: only this login type')
    .option('--email <email>')
    .action((o) =>
      ctx.printList(
        'users',
        (s) =>
          s.accounts.users.find({
            ...(o.id ? { userId: o.id } : {}),
            ...(o.code ? { userCode: o.code } : {}),
            ...(o.openId ? { openId: o.openId } : {}),
            ...(o.loginType ? { loginType: o.loginType } : {}),
            ...(o.email ? { email: o.email } : {}),
          }),
        line,
        'no user found',
      ),
    );

  user
    .command('show')
    .argument('<userId>')
    .description('a user with login methods, sessions, apps and bans')
    .action((id: string) => ctx.print((s) => s.accounts.users.detail(parseUserId(id)), describe));

  user
    .command('revoke-tokens')
    .argument('<userId>')
    .action(async (id: string) => {
      await ctx.withServices(async (s) => {
        const revoked = await s.accounts.users.revokeTokens(parseUserId(id));
        ctx.output({ revoked }, () => `revoked ${revoked} token(s)`);
      });
    });

  user
    .command('ban')
    .argument('<userId>')
    .requiredOption('--reason <text>')
    .option('--until <iso>', 'end of the ban (ISO 8601); omitted: until lifted')
    .option('--actor <name>', 'who bans', 'cli')
    .action(async (id: string, o) => {
      const until = o.until === undefined ? null : Date.parse(o.until);
      if (until !== null && Number.isNaN(until)) throw invalidParameter('until', 'must be an ISO 8601 date-time');
      await ctx.withServices(async (s) => {
        const ban = await s.accounts.bans.banUser(parseUserId(id), { reason: o.reason, until, actor: o.actor });
        ctx.output(ban, () => `ban ${ban.banId} until ${ban.until ?? 'lifted'}; tokens revoked`);
      });
    });

  user
    .command('unban')
    .argument('<userId>')
    .option('--actor <name>', 'who lifts', 'cli')
    .action(async (id: string, o) => {
      await ctx.withServices(async (s) => {
        const lifted = await s.accounts.bans.liftBan(parseUserId(id), o.actor);
        ctx.output({ lifted }, () => `lifted ${lifted} ban(s)`);
      });
    });

  const account = program.command('account').description('account jobs');
  account
    .command('process-cancellations')
    .description('cancel now every account whose cooling-off has ended')
    .action(async () => {
      await ctx.withServices(async (s) => {
        const cancelled = (await s.accounts.cancellation.processDue()).map(String);
        ctx.output(
          { cancelled },
          () => `cancelled ${cancelled.length} account(s)${cancelled.length ? `: ${cancelled.join(', ')}` : ''}`,
        );
      });
    });

  account
    .command('sandbox-assertion')
    .description('mint a sandbox login assertion (SANDBOX_LOGIN=true, never in production)')
    .addOption(new Option('--login-type <code>', 'login type code (2.2), not 0').makeOptionMandatory())
    .requiredOption('--open-id <openId>')
    .option('--union-id <unionId>')
    .option('--nickname <name>')
    .option('--avatar <url>')
    .option('--email <email>')
    .option('--email-verified', 'the provider vouches for the email', false)
    .action(async (o) => {
      await ctx.withServices(async (s) => {
        if (!s.accounts.sandbox)
          throw invalidParameter(
            'SANDBOX_LOGIN',
            'the sandbox login provider is off; set SANDBOX_LOGIN=true (not in production)',
          );
        const body = {
          loginType: Number(o.loginType),
          openId: o.openId,
          ...(o.unionId ? { unionId: o.unionId } : {}),
          ...(o.nickname ? { nickname: o.nickname } : {}),
          ...(o.avatar ? { avatar: o.avatar } : {}),
          ...(o.email ? { email: o.email, emailVerified: o.emailVerified } : {}),
        };
        const error = Value.Errors(SandboxAssertionBody, body).First();
        if (error) throw invalidParameter(error.path.slice(1) || 'assertion', error.message);
        const minted = s.accounts.sandbox.mint(body as SandboxAssertionBody);
        ctx.output(minted, () => minted.assertion);
      });
    });
}
