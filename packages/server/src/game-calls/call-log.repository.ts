import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../db/tables.js';
import { newestFirst, whereGiven, withinWindow } from '../db/list-filter.js';
import { Batcher } from '../db/batcher.js';
import { deleteOldest } from '../db/delete-oldest.js';
import type { Dialect } from '../db/dialect.js';
import type { GameCallsTable } from './game-calls.tables.js';

export type GameCallRow = Selectable<GameCallsTable>;

export interface GameCallFilter {
  appId: number;
  kind?: string;
  outcome?: string;
  /** Calls about this role (4.8, 4.10), this server, or this platform user (4.9). */
  roleId?: string;
  serverId?: string;
  userId?: string;
  /** Only tries whose outcome is not `ok`. */
  failed?: boolean;
  /** started_at >= from (ms) */
  from?: number;
  /** started_at < to (ms) */
  to?: number;
  /** Newest first: call ids below this. */
  before?: number;
  limit: number;
}

/** The game-call log: every try of GameCallsClient written, and the operator's reads. */
export class CallLogRepository {
  /** Log rows of concurrent calls are written together, one multi-row INSERT per batch. */
  readonly #record: Batcher<Insertable<GameCallsTable>, void>;

  constructor(
    private readonly db: Kysely<Tables>,
    dialect: Dialect,
  ) {
    this.#record = new Batcher<Insertable<GameCallsTable>, void>(
      async (rows) => {
        await this.db.insertInto('game_calls').values(rows).execute();
        return rows.map(() => undefined);
      },
      { maxBatch: 500, maxInFlight: dialect.batchesInFlight(2) },
    );
  }

  /** Logs one try; resolves once its batch is written. */
  record(row: Insertable<GameCallsTable>): Promise<void> {
    return this.#record.submit(row);
  }

  async list(f: GameCallFilter): Promise<GameCallRow[]> {
    let q = whereGiven(this.db.selectFrom('game_calls').selectAll(), {
      app_id: f.appId,
      kind: f.kind,
      outcome: f.outcome,
      role_id: f.roleId,
      server_id: f.serverId,
      user_id: f.userId,
    });
    if (f.failed) q = q.where('outcome', '<>', 'ok');
    return newestFirst(withinWindow(q, 'started_at', f), 'call_id', f).execute();
  }

  /**
   * Retention: deletes up to `limit` log rows started before `cutoff`, in one statement (one short transaction),
   * the keys chosen on game_calls_started (migration 0012); partitioned on PostgreSQL. Answers the rows deleted.
   */
  purgeBefore(cutoff: number, limit: number): Promise<number> {
    const calls = { table: 'game_calls', key: 'call_id', time: 'started_at', partitioned: true } as const;
    return deleteOldest(this.db, calls, cutoff, limit);
  }
}
