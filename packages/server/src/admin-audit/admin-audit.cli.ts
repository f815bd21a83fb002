import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import { invalidParameter } from '../errors/app-error.js';
import { PAGE_DEFAULT, PAGE_MAX, parseId, parseLimit, parseTime } from '../http/admin-query.js';
import { ADMIN_METHODS, type AdminAction } from './admin-audit.schemas.js';

const line = (a: AdminAction) =>
  `#${a.actionId}  ${a.at}  ${a.operator ?? '(unnamed)'}  ${a.method} ${a.path}  ${a.status ?? 'no answer'}  ${a.ip}  ${a.requestId}`;

/** `admin-actions list`: the audit trail of the admin API (who changed what through it). */
export function registerAdminAuditCommands(program: Command, ctx: CliContext): void {
  const actions = program.command('admin-actions').description('the audit trail of the admin API: requests that changed something, and who sent them');

  actions.command('list')
    .option('--operator <name>', 'only requests sent with this X-Operator')
    .option('--method <method>', ADMIN_METHODS.join(' | '))
    .option('--from <time>', 'at or after (ISO 8601 or Unix ms)').option('--to <time>', 'before')
    .option('--before <actionId>', 'page: actions with a smaller id')
    .option('--limit <n>', `1-${PAGE_MAX}`, String(PAGE_DEFAULT))
    .action(async (o) => {
      if (o.method !== undefined && !(ADMIN_METHODS as readonly string[]).includes(o.method)) throw invalidParameter('method', `must be ${ADMIN_METHODS.join(', ')}`);
      const filter = {
        ...(o.operator ? { operator: o.operator as string } : {}),
        ...(o.method ? { method: o.method as string } : {}),
        ...(o.from ? { from: parseTime('from', o.from) } : {}),
        ...(o.to ? { to: parseTime('to', o.to) } : {}),
        ...(o.before ? { before: parseId('before', o.before) } : {}),
        limit: parseLimit('limit', o.limit, PAGE_DEFAULT, PAGE_MAX),
      };
      await ctx.withServices(async (s) => {
        const list = await s.adminAudit.list(filter);
        ctx.output({ actions: list }, () => list.map(line).join('\n') || 'no admin actions');
      });
    });
}
