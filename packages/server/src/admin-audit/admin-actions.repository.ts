import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../tables.js';
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
    let q = this.db.selectFrom('admin_actions').selectAll();
    if (f.operator !== undefined) q = q.where('operator', '=', f.operator);
    if (f.method !== undefined) q = q.where('method', '=', f.method);
    if (f.from !== undefined) q = q.where('at', '>=', f.from);
    if (f.to !== undefined) q = q.where('at', '<', f.to);
    if (f.before !== undefined) q = q.where('action_id', '<', f.before);
    return q.orderBy('action_id', 'desc').limit(f.limit).execute();
  }

  /**
   * Retention: deletes up to `limit` actions received before `cutoff`, in one statement (one short transaction),
   * the keys chosen on admin_actions_at (migration 0012). Answers the rows deleted.
   */
  async purgeBefore(cutoff: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('admin_actions')
      .where('action_id', 'in', (eb) =>
        eb.selectFrom('admin_actions').select('action_id').where('at', '<', cutoff).orderBy('at').limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
