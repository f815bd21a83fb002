import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { deleteOldest } from '../db/delete-oldest.js';
import { newestFirst, whereGiven, withinWindow } from '../db/list-filter.js';
import type { AdminActionsTable } from './admin-audit.tables.js';

export type AdminActionRow = Selectable<AdminActionsTable>;

export interface ActionFilter {
  operator?: string;
  method?: string;
  from?: number;
  to?: number;
  before?: number;
  limit: number;
}

/** Every statement on `admin_actions` (migration 0010). */
export class AdminActionsRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(row: Insertable<AdminActionsTable>): Promise<number> {
    const { action_id } = await this.db
      .insertInto('admin_actions')
      .values(row)
      .returning('action_id')
      .executeTakeFirstOrThrow();
    return action_id;
  }

  async finish(actionId: number, status: number, at: number): Promise<void> {
    await this.db
      .updateTable('admin_actions')
      .set({ status, finished_at: at })
      .where('action_id', '=', actionId)
      .execute();
  }

  /** Newest first. */
  list(f: ActionFilter): Promise<AdminActionRow[]> {
    const q = whereGiven(this.db.selectFrom('admin_actions').selectAll(), { operator: f.operator, method: f.method });
    return newestFirst(withinWindow(q, 'at', f), 'action_id', f).execute();
  }

  /**
   * Retention: deletes up to `limit` actions received before `cutoff`, in one statement (one short transaction),
   * the keys chosen on admin_actions_at (migration 0012). Answers the rows deleted.
   */
  purgeBefore(cutoff: number, limit: number): Promise<number> {
    return deleteOldest(this.db, { table: 'admin_actions', key: 'action_id', time: 'at' }, cutoff, limit);
  }
}
