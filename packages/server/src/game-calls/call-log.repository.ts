import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tables } from '../tables.js';
import { Batcher } from '../db/batcher.js';
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
    let q = this.db.selectFrom('game_calls').selectAll().where('app_id', '=', f.appId);
    if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
    if (f.outcome !== undefined) q = q.where('outcome', '=', f.outcome);
    if (f.roleId !== undefined) q = q.where('role_id', '=', f.roleId);
    if (f.serverId !== undefined) q = q.where('server_id', '=', f.serverId);
    if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
    if (f.failed) q = q.where('outcome', '<>', 'ok');
    if (f.from !== undefined) q = q.where('started_at', '>=', f.from);
    if (f.to !== undefined) q = q.where('started_at', '<', f.to);
    if (f.before !== undefined) q = q.where('call_id', '<', f.before);
    return q.orderBy('call_id', 'desc').limit(f.limit).execute();
  }

  /**
   * Retention: deletes up to `limit` log rows started before `cutoff`, in one statement (one short transaction),
   * the keys chosen on game_calls_started (migration 0012). Answers the rows deleted.
   */
  async purgeBefore(cutoff: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('game_calls')
      // Repeated outside: it confines the delete to the partitions before the cutoff (delivery/purge.ts says why).
      .where('started_at', '<', cutoff)
      .where('call_id', 'in', (eb) =>
        eb
          .selectFrom('game_calls')
          .select('call_id')
          .where('started_at', '<', cutoff)
          .orderBy('started_at')
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
