import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { addListOptions, windowAndPage } from '../cli/list-options.js';
import { parseId } from '../http/admin-query.js';
import type { CallLogService } from './call-log.service.js';
import { GAME_CALL_KINDS, GAME_CALL_OUTCOMES, parseGameCallQuery, type GameCall } from './call-log.schemas.js';

const subjectText = (c: GameCall) =>
  [c.roleId && `role ${c.roleId}`, c.userId && `user ${c.userId}`, c.serverId && `server ${c.serverId}`]
    .filter(Boolean)
    .map((t) => ` ${t}`)
    .join('');
const line = (c: GameCall) =>
  `#${c.callId}  ${c.startedAt}  ${c.kind}${subjectText(c)} try ${c.tryNo}  ${c.outcome}${c.httpStatus !== null ? ` HTTP ${c.httpStatus}` : ''}  ${c.latencyMs} ms  ${c.url ?? '-'}${c.error ? `  ${c.error}` : ''}`;

/** What the `game-calls` commands use. */
export interface CallLogCommandServices {
  callLog: CallLogService;
}

/** `game-calls list`: the role query, role list and pre-order check log of an app (4.8-4.10). */
export function registerCallLogCommands(program: Command, ctx: CliContext<CallLogCommandServices>): void {
  const calls = program
    .command('game-calls')
    .description('calls to the game (role query, role list, pre-order check) with their outcomes');

  addListOptions(
    calls
      .command('list')
      .requiredOption('--app <appId>')
      .option('--kind <kind>', GAME_CALL_KINDS.join(' | '))
      .option('--outcome <outcome>', GAME_CALL_OUTCOMES.join(' | '))
      .option('--role <roleId>', 'only calls about this role (4.8, 4.10)')
      .option('--server <serverId>', 'only calls about this server')
      .option('--user <userId>', 'only calls about this platform user (4.9)')
      .option('--failed', 'only tries whose outcome is not ok'),
    { window: ['started at or after (ISO 8601 or Unix ms)', 'started before'] },
  ).action(async (o) => {
    const filter = parseGameCallQuery(parseId('app', o.app), {
      kind: o.kind,
      outcome: o.outcome,
      roleId: o.role,
      serverId: o.server,
      userId: o.user,
      failed: o.failed ? 'true' : undefined,
      ...windowAndPage(o),
    });
    await ctx.printList('calls', (s) => s.callLog.list(filter), line, 'no calls');
  });
}
