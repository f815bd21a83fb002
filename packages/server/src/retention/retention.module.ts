import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { createPartitionsAhead, dropPartitionsBefore } from '../db/partitions.js';
import type { Tables } from '../db/tables.js';
import { Retention } from './retention.js';

export type { Retention } from './retention.js';

/** A domain's batch delete of its records older than `cutoff`: up to `limit`, answering how many. */
type PurgeBefore = (cutoff: number, limit: number) => Promise<number>;

/**
 * Builds retention (docs/operations.md, "Retention") over the batch deletes the owning domains hand in: retention
 * imports none of them. On PostgreSQL the history tables are partitioned by day (migration 0029), and their old days
 * are dropped whole.
 */
export function createRetention(d: {
  db: Kysely<Tables>;
  postgres: boolean;
  config: Pick<
    Config,
    | 'RETENTION_DELIVERY_DAYS'
    | 'RETENTION_GAME_CALLS_DAYS'
    | 'RETENTION_ADMIN_ACTIONS_DAYS'
    | 'RETENTION_BATCH'
    | 'RETENTION_SWEEP_BUDGET_MS'
    | 'RETENTION_SWEEP_SECONDS'
  >;
  now: () => number;
  purge: {
    /** Finished outbox events of the purgeable types with their attempts. */
    deliveryEvents: (cutoff: number, limit: number) => Promise<{ events: number; attempts: number }>;
    deliveryAttempts: PurgeBefore;
    gameCalls: PurgeBefore;
    payLinks: PurgeBefore;
    adminActions: PurgeBefore;
  };
}): Retention {
  const { db, config, now, purge } = d;
  const history = d.postgres
    ? {
        delivery_attempts: { table: 'delivery_attempts', column: 'started_at' },
        game_calls: { table: 'game_calls', column: 'started_at' },
      }
    : null;
  return new Retention(
    [
      {
        kind: 'delivery_events',
        days: config.RETENTION_DELIVERY_DAYS,
        // The attempts deleted with their events count as delivery_attempts.
        purgeBatch: async (cutoff, limit) => {
          const r = await purge.deliveryEvents(cutoff, limit);
          return { rows: r.events, also: { delivery_attempts: r.attempts } };
        },
      },
      {
        kind: 'delivery_attempts',
        days: config.RETENTION_DELIVERY_DAYS,
        purgeBatch: purge.deliveryAttempts,
        ...(history && { dropBefore: (cutoff) => dropPartitionsBefore(db, history.delivery_attempts, cutoff) }),
      },
      {
        kind: 'game_calls',
        days: config.RETENTION_GAME_CALLS_DAYS,
        purgeBatch: purge.gameCalls,
        ...(history && { dropBefore: (cutoff) => dropPartitionsBefore(db, history.game_calls, cutoff) }),
      },
      {
        // Launch links are dead once expired (minutes); kept a day for an operator's question, then deleted.
        kind: 'pay_links',
        days: 1,
        purgeBatch: purge.payLinks,
      },
      {
        kind: 'admin_actions',
        days: config.RETENTION_ADMIN_ACTIONS_DAYS,
        purgeBatch: purge.adminActions,
      },
    ],
    {
      batch: config.RETENTION_BATCH,
      budgetMs: config.RETENTION_SWEEP_BUDGET_MS,
      intervalMs: config.RETENTION_SWEEP_SECONDS * 1000,
      ...(history && {
        prepare: async () => {
          for (const t of Object.values(history)) await createPartitionsAhead(db, t, now());
        },
      }),
    },
    now,
  );
}
