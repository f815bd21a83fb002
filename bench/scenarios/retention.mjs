// Retention on PostgreSQL's partitioned history (issue 31): the cost of purging a day of game calls, with a small and
// a ten times larger history in the table. Rows are bulk-loaded into the day partitions the service's own code
// creates (packages/server/dist/db/partitions.js), then the oldest day is dropped the way a retention sweep drops it,
// and, for contrast, the next day is deleted in batches of 1,000 the way SQLite (and this table before migration
// 0029) purges. Target: dropping a day stays under 500 ms whatever the history; the figures go to docs/scaling.md.
import path from 'node:path';
import { PG_URL, ROOT } from '../lib.mjs';

const DAY = 86_400_000;
const DAYS = 30;
const SIZES = (process.env.BENCH_RETENTION_ROWS_PER_DAY ?? '5000,50000').split(',').map(Number);

async function measure(db, sql, partitions, perDay) {
  const t = { table: 'game_calls', column: 'started_at' };
  const today = Math.floor(Date.now() / DAY) * DAY;
  const first = today - DAYS * DAY;
  await sql`truncate game_calls`.execute(db);
  for (let day = first; day <= today; day += 8 * DAY) await partitions.createPartitionsAhead(db, t, day);
  const loaded = performance.now();
  await sql`insert into game_calls (app_id, kind, started_at, url, try_no, http_status, latency_ms, outcome, error)
    select 1 + (i % 10), 'role_query',
      ${sql.lit(first)} + (i / ${sql.lit(perDay)}) * ${sql.lit(DAY)} + (i % ${sql.lit(perDay)}) * ${sql.lit(Math.floor(DAY / perDay))},
      'https://game.example/role', 1, 200, 20, 'ok', null
    from generate_series(0::bigint, ${sql.lit(DAYS * perDay - 1)}::bigint) as s(i)`.execute(db);
  await sql`analyze game_calls`.execute(db);
  const loadS = (performance.now() - loaded) / 1000;

  const t0 = performance.now();
  const dropped = await partitions.dropPartitionsBefore(db, t, first + DAY);
  const dropMs = performance.now() - t0;

  // The batched delete of the next day's rows as retention's batches do it (game-calls/call-log.repository.ts).
  const t1 = performance.now();
  let deleted = 0;
  for (;;) {
    const r = await sql`delete from game_calls where started_at < ${sql.lit(first + 2 * DAY)} and call_id in (
      select call_id from game_calls where started_at < ${sql.lit(first + 2 * DAY)} order by started_at limit 1000)`.execute(
      db,
    );
    const n = Number(r.numAffectedRows ?? 0);
    deleted += n;
    if (n === 0) break;
  }
  const deleteMs = performance.now() - t1;
  console.log(
    `[postgres] retention: history ${DAYS * perDay} rows (${perDay}/day, loaded in ${loadS.toFixed(1)} s): ` +
      `drop a day (${dropped} rows) ${dropMs.toFixed(1)} ms; batched delete of a day (${deleted} rows) ${deleteMs.toFixed(0)} ms`,
  );
  return { dropMs, deleteMs };
}

export default [
  {
    name: 'retention: drop a day of game calls (partitioned)',
    backends: ['postgres'],
    once: true,
    targets: [{ kind: 'p99', max: 500 }],
    async run(svc) {
      const { openDatabase } = await import(path.join(ROOT, 'packages/server/dist/db/database.js'));
      const partitions = await import(path.join(ROOT, 'packages/server/dist/db/partitions.js'));
      const { sql } = await import('kysely');
      const database = openDatabase({ url: PG_URL, schema: svc.schema, poolSize: 2 });
      try {
        const runs = [];
        for (const perDay of SIZES) runs.push(await measure(database.db, sql, partitions, perDay));
        const worst = Math.max(...runs.map((r) => r.dropMs));
        console.log(
          `[postgres] retention: dropping a day cost ${runs.map((r) => `${r.dropMs.toFixed(1)} ms`).join(' and ')} for histories of ` +
            `${SIZES.map((s) => s * DAYS).join(' and ')} rows; the batched delete ${runs.map((r) => `${r.deleteMs.toFixed(0)} ms`).join(' and ')}`,
        );
        return { rps: 1000 / worst, p50: Math.round(worst), p99: Math.round(worst) };
      } finally {
        await database.close();
      }
    },
  },
];
