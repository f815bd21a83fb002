import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Tables } from '../db/tables.js';
import { AdminActionsRepository } from './admin-actions.repository.js';
import { AdminAuditService } from './admin-audit.service.js';

export { adminAuditRoutes, recordAdminActions } from './admin-audit.routes.js';
export { registerAdminAuditCommands } from './admin-audit.cli.js';
export type { AdminAuditService } from './admin-audit.service.js';

/** The audit trail of the admin API: its service, and the repository retention purges (services.ts). */
export function createAdminAudit(deps: {
  db: Kysely<Tables>;
  /** Database.reads: where the trail's listing reads. */
  reads: Kysely<Tables>;
  config: Pick<Config, 'AUDIT_REFUSALS_PER_MINUTE'>;
  now: () => number;
}): { adminAudit: AdminAuditService; adminActions: AdminActionsRepository } {
  const adminActions = new AdminActionsRepository(deps.db);
  const adminAudit = new AdminAuditService(
    adminActions,
    deps.now,
    deps.config.AUDIT_REFUSALS_PER_MINUTE,
    new AdminActionsRepository(deps.reads),
  );
  return { adminAudit, adminActions };
}
