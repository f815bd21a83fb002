import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../testing/service.js';
import { testBackend } from '../testing/database.js';
import { callRows } from '../testing/game-calls/call-log.js';
import { createPartitionsAhead, dayName, PARTITION_DAYS_AHEAD } from '../db/partitions.js';
import type { BatchReport } from './retention.js';

const DAY = 86_400_000;

/**
 * PostgreSQL's partitioned history (migration 0029, db/partitions.ts): several days of game calls and delivery
 * attempts, and retention drops the old days' partitions whole, with exact counts, leaving the recent rows; the
 * service creates the coming days' partitions, also with rows already waiting in the default partition.
 */
describe(
  'partitioned history (PostgreSQL)',
  { skip: testBackend() !== 'postgres' && 'SQLite is not partitioned: it keeps its batched purge' },
  () => {
    // The service's clock starts 40 days back, so the days of history get partitions of their own as they pass.
    let offset = -40 * DAY;
    const now = () => Date.now() + offset;
    let svc: TestService;
    before(async () => {
      svc = await startTestService(
        { RETENTION_GAME_CALLS_DAYS: '30', RETENTION_BATCH: '500' },
        { now, dispatcher: false },
      );
    });
    after(async () => {
      await svc?.close();
    });

    const db = () => svc.services.database.db;
    const partitions = async (table: string) =>
      (
        await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = ${sql.lit(table)}::regclass order by 1`.execute(db())
      ).rows.map((r) => r.name);
    const callsCount = async () =>
      Number(
        (
          await db()
            .selectFrom('game_calls')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('creates the coming days ahead, retention drops the days past the period whole, and keeps the rest', async () => {
      const start = now();
      const times: number[] = [];
      // Ten days of calls, 300 a day, each day's partitions made ahead as the clock moves (as the sweeps do).
      for (let d = 0; d < 10; d++) {
        offset += DAY;
        await createPartitionsAhead(db(), { table: 'game_calls', column: 'started_at' }, now());
        const rows = callRows(300, (j) => Math.floor(now() / DAY) * DAY + 60_000 + j);
        times.push(...rows.map((r) => r.started_at as number));
        await db().insertInto('game_calls').values(rows).execute();
      }
      const names = await partitions('game_calls');
      for (let d = 1; d <= 10; d++)
        assert.ok(names.includes(dayName('game_calls', Math.floor((start + d * DAY) / DAY) * DAY)), `day ${d}`);
      assert.ok(names.includes(dayName('game_calls', Math.floor((now() + PARTITION_DAYS_AHEAD * DAY) / DAY) * DAY)));
      const pdefault = await sql<{ n: string }>`select count(*) as n from game_calls_pdefault`.execute(db());
      assert.equal(Number(pdefault.rows[0]!.n), 0, 'nothing waits in the default partition');
      assert.equal(await callsCount(), 3000);

      // 24 days later, the first days of calls are past the 30-day period.
      offset += 24 * DAY;
      const cutoff = now() - 30 * DAY;
      const old = times.filter((t) => t < cutoff).length;
      assert.ok(old >= 900 && old < 3000);
      const batches: BatchReport[] = [];
      const purged = await svc.services.retention.sweep((b) => batches.push(b));
      const dropped = batches.filter((b) => b.kind === 'game_calls' && b.partitions);
      assert.equal(dropped.length, 1);
      assert.ok(dropped[0]!.rows >= 600, `whole days dropped: ${dropped[0]!.rows} rows`);
      assert.equal(purged.game_calls, old, 'every row older than the period went, each counted once');
      assert.equal(await callsCount(), 3000 - old);
      const left = await db()
        .selectFrom('game_calls')
        .select((eb) => eb.fn.min<number>('started_at').as('m'))
        .executeTakeFirstOrThrow();
      assert.ok(Number(left.m) >= cutoff, 'nothing older than the period is left');
      const after = await partitions('game_calls');
      for (const name of names) {
        const day = /_p(\d{4})(\d{2})(\d{2})$/.exec(name);
        if (!day) continue;
        const ends = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) + DAY;
        assert.equal(after.includes(name), ends > cutoff, `${name} ${ends > cutoff ? 'kept' : 'dropped'}`);
      }
      // The recent rows are intact, each of them.
      const kept = await db().selectFrom('game_calls').select('started_at').where('started_at', '>=', cutoff).execute();
      assert.deepEqual(
        kept.map((r) => Number(r.started_at)).sort((a, b) => a - b),
        times.filter((t) => t >= cutoff).sort((a, b) => a - b),
      );
    });

    it('moves rows waiting in the default partition into the day partition it creates', async () => {
      const far = now() + 30 * DAY;
      await db()
        .insertInto('game_calls')
        .values(callRows(5, (j) => far + j))
        .execute();
      const waiting = await sql<{ n: string }>`select count(*) as n from game_calls_pdefault`.execute(db());
      assert.equal(Number(waiting.rows[0]!.n), 5);
      offset += 30 * DAY;
      await createPartitionsAhead(db(), { table: 'game_calls', column: 'started_at' }, now());
      const moved = await sql<{
        n: string;
      }>`select count(*) as n from ${sql.table(dayName('game_calls', Math.floor(far / DAY) * DAY))}`.execute(db());
      assert.equal(Number(moved.rows[0]!.n), 5);
      const empty = await sql<{ n: string }>`select count(*) as n from game_calls_pdefault`.execute(db());
      assert.equal(Number(empty.rows[0]!.n), 0);
    });

    it('delivery attempts are partitioned too, with their foreign key to the outbox', async () => {
      assert.ok((await partitions('delivery_attempts')).some((n) => /_p\d{8}$/.test(n)));
      const fk = await sql<{ n: string }>`select count(*) as n from pg_constraint
        where conrelid = 'delivery_attempts'::regclass and contype = 'f'`.execute(db());
      assert.equal(Number(fk.rows[0]!.n), 1);
    });
  },
);
