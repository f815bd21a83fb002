import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import { num, type TimeWindow } from '../db/time-buckets.js';

/** Tries of one kind of game call (4.8-4.10) of one app in the window, and how many failed (outcome not ok). */
export interface GameCallFailures {
  appId: number;
  kind: string;
  calls: number;
  failures: number;
}

/**
 * Game-call tries per app and kind in the window with their failures, most failures first: one grouped range
 * scan of game_calls_started (0012). `failures` are the rows of GET /admin/v1/apps/:appId/game-calls?failed=true.
 */
export async function gameCallFailures(db: Kysely<Tables>, w: TimeWindow, top = 20): Promise<GameCallFailures[]> {
  const failures = sql<number>`sum(case when outcome <> 'ok' then 1 else 0 end)`;
  let q = db
    .selectFrom('game_calls')
    .select(['app_id', 'kind', sql<number>`count(*)`.as('calls'), failures.as('failures')])
    .where('started_at', '>=', w.from)
    .where('started_at', '<', w.to);
  if (w.appId !== undefined) q = q.where('app_id', '=', w.appId);
  const rows = await q
    .groupBy(['app_id', 'kind'])
    .orderBy(failures, 'desc')
    .orderBy('app_id')
    .orderBy('kind')
    .limit(top)
    .execute();
  return rows.map((r) => ({ appId: num(r.app_id), kind: r.kind, calls: num(r.calls), failures: num(r.failures) }));
}
