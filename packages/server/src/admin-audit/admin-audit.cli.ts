import type { Command } from 'commander';
import type { CliContext } from '../cli/context.js';
import type { AdminAuditService } from './admin-audit.service.js';
import { addListOptions, windowAndPage } from '../cli/list-options.js';
import { ADMIN_METHODS, parseAdminActionQuery, type AdminAction } from './admin-audit.schemas.js';

const line = (a: AdminAction) =>
  `#${a.actionId}  ${a.at}  ${a.operator ?? '(unnamed)'}  ${a.method} ${a.path}  ${a.status ?? 'no answer'}  ${a.ip}  ${a.requestId}`;

/** `admin-actions list`: the audit trail of the admin API (who changed what through it). */
/** What the audit trail's commands use. */
export interface AdminAuditCli {
  adminAudit: Pick<AdminAuditService, 'list'>;
}

export function registerAdminAuditCommands(program: Command, ctx: CliContext<AdminAuditCli>): void {
  const actions = program
    .command('admin-actions')
    .description('the audit trail of the admin API: requests that changed something, and who sent them');

  addListOptions(
    actions
      .command('list')
      .option('--operator <name>', 'only requests sent with this X-Operator')
      .option('--method <method>', ADMIN_METHODS.join(' | ')),
    {
      window: ['at or after (ISO 8601 or Unix ms)', 'before'],
      before: ['<actionId>', 'page: actions with a smaller id'],
    },
  ).action(async (o) => {
    const filter = parseAdminActionQuery({ operator: o.operator, method: o.method, ...windowAndPage(o) });
    await ctx.printList('actions', (s) => s.adminAudit.list(filter), line, 'no admin actions');
  });
}
