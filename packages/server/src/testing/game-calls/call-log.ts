import type { Insertable } from 'kysely';
import type { GameCallsTable } from '../../game-calls/game-calls.tables.js';

/** `n` logged role queries of app 1, the i-th started at `startedAt(i)` (retention and alert tests). */
export function callRows(n: number, startedAt: (i: number) => number): Array<Insertable<GameCallsTable>> {
  return Array.from({ length: n }, (_, i) => ({
    app_id: 1,
    kind: 'role_query',
    started_at: startedAt(i),
    url: null,
    try_no: 1,
    http_status: 200,
    latency_ms: 1,
    outcome: 'ok',
    error: null,
    role_id: 'r',
    server_id: 's',
    user_id: null,
  }));
}
