import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { deleteOldest } from '../db/delete-oldest.js';
import type { EventType } from './outbox.js';

/**
 * The outbox types retention may delete once delivered or dead (docs/operations.md, "Retention"): test events,
 * consumption forwards to partners (the notice itself stays in consumption_notices) and cancellation callbacks.
 * Payment and refund notifications (2.4, 2.5) are financial records and are never deleted; only their attempts age out.
 */
export const PURGEABLE_EVENT_TYPES: readonly EventType[] = ['test', 'consumption', 'cancellation'];

/** The delivery history's deletions of retention (retention/retention.module.ts runs them). */
export class DeliveryPurgeRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Deletes up to `limit` delivery attempts started before `cutoff`, of any event: one statement, so one short
   * transaction, its keys chosen on delivery_attempts_started (migration 0012); partitioned on PostgreSQL (migration
   * 0029). Answers the rows deleted.
   */
  attempts(cutoff: number, limit: number): Promise<number> {
    const attempts = { table: 'delivery_attempts', key: 'attempt_id', time: 'started_at', partitioned: true } as const;
    return deleteOldest(this.db, attempts, cutoff, limit);
  }

  /**
   * Deletes up to `limit` finished events of the purgeable types: delivered before `cutoff`, or dead since before it,
   * with their attempts, in one short transaction. The state is checked again in the deletes, so an event an operator
   * resent meanwhile (pending again) stays. Answers the rows deleted of each table (the attempts count as
   * delivery_attempts in the retention metric).
   */
  async finishedEvents(cutoff: number, limit: number): Promise<{ events: number; attempts: number }> {
    const types = [...PURGEABLE_EVENT_TYPES];
    // Literal states, so the planner can use the partial indexes (outbox_delivered of 0012, outbox_app_dead of 0007).
    const delivered = await this.db
      .selectFrom('outbox')
      .select('event_id')
      .where('state', '=', sql.lit('delivered'))
      .where('type', 'in', types)
      .where('delivered_at', '<', cutoff)
      .limit(limit)
      .execute();
    const dead =
      delivered.length < limit
        ? await this.db
            .selectFrom('outbox')
            .select('event_id')
            .where('state', '=', sql.lit('dead'))
            .where('type', 'in', types)
            .where('dead_at', '<', cutoff)
            .limit(limit - delivered.length)
            .execute()
        : [];
    const ids = [...delivered, ...dead].map((r) => r.event_id);
    if (ids.length === 0) return { events: 0, attempts: 0 };
    return this.db.transaction().execute(async (trx) => {
      const finished = trx
        .selectFrom('outbox')
        .select('event_id')
        .where('event_id', 'in', ids)
        .where('state', 'in', ['delivered', 'dead']);
      const attempts = await trx.deleteFrom('delivery_attempts').where('event_id', 'in', finished).executeTakeFirst();
      const events = await trx
        .deleteFrom('outbox')
        .where('event_id', 'in', ids)
        .where('state', 'in', ['delivered', 'dead'])
        .executeTakeFirst();
      return { events: Number(events.numDeletedRows), attempts: Number(attempts.numDeletedRows) };
    });
  }
}
