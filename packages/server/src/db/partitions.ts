import { sql, type Kysely } from 'kysely';

const DAY_MS = 86_400_000;
/** Days of partitions kept created ahead of today, so a write never waits for one (nor lands in the default). */
export const PARTITION_DAYS_AHEAD = 7;

/**
 * PostgreSQL's declarative partitioning of the append-only history tables by day (issue 31): each table is
 * `PARTITION BY RANGE` on its time column (Unix ms), one partition a UTC day named `<table>_pYYYYMMDD`, plus a
 * default partition that catches a row of a day not yet created (clock skew), normally empty. Retention drops whole
 * partitions, which costs the same whatever the history holds, instead of deleting rows in batches, which costs per
 * row and leaves dead tuples to vacuum. SQLite is not partitioned (it keeps its batched purge): this file is the only
 * place that knows the partitioning SQL.
 */
export interface PartitionedTable {
  table: string;
  /** The time column (bigint, Unix ms) the table is partitioned on. */
  column: string;
}

export const dayName = (table: string, dayStart: number) =>
  `${table}_p${new Date(dayStart).toISOString().slice(0, 10).replace(/-/g, '')}`;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const lockKey = (table: string) => sql`hashtext(${`partitions:${table}`})`;

/**
 * Migration step: turns an existing table into a partitioned one of the same columns, defaults, identity, checks,
 * indexes and foreign keys, and moves its rows. The primary key gains the time column (a partitioned table's unique
 * keys must hold its partition key); the identity key stays unique in practice, being drawn from one sequence.
 */
export async function partitionExistingTable(db: Kysely<any>, t: PartitionedTable, primaryKey: string, now: number) {
  const old = `${t.table}_unpartitioned`;
  const indexes = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename = ${t.table} and indexname <> ${`${t.table}_pkey`}`.execute(db);
  const foreignKeys = await sql<{ conname: string; def: string }>`
    select conname, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = ${sql.lit(t.table)}::regclass and contype = 'f'`.execute(db);
  await sql`alter table ${sql.table(t.table)} rename to ${sql.table(old)}`.execute(db);
  for (const i of indexes.rows) await sql`drop index ${sql.ref(i.indexname)}`.execute(db);
  await sql`create table ${sql.table(t.table)} (like ${sql.table(old)} including defaults including identity including constraints including generated)
    partition by range (${sql.ref(t.column)})`.execute(db);
  await sql`alter table ${sql.table(t.table)} add primary key (${sql.ref(primaryKey)}, ${sql.ref(t.column)})`.execute(
    db,
  );
  for (const i of indexes.rows) {
    // The definition names the old table by its former name, which is now the new table's.
    await sql.raw(i.indexdef).execute(db);
  }
  for (const fk of foreignKeys.rows)
    await sql`alter table ${sql.table(t.table)} add constraint ${sql.ref(fk.conname)} ${sql.raw(fk.def)}`.execute(db);

  const range = await sql<{
    lo: number | string | null;
  }>`select min(${sql.ref(t.column)}) as lo from ${sql.table(old)}`.execute(db);
  const lo = range.rows[0]?.lo == null ? now : Number(range.rows[0].lo);
  for (let day = dayOf(Math.min(lo, now)); day <= dayOf(now) + PARTITION_DAYS_AHEAD * DAY_MS; day += DAY_MS)
    await sql`create table ${sql.table(dayName(t.table, day))} partition of ${sql.table(t.table)}
      for values from (${sql.lit(day)}) to (${sql.lit(day + DAY_MS)})`.execute(db);
  await sql`create table ${sql.table(`${t.table}_pdefault`)} partition of ${sql.table(t.table)} default`.execute(db);

  await sql`insert into ${sql.table(t.table)} overriding system value select * from ${sql.table(old)}`.execute(db);
  await sql`drop table ${sql.table(old)}`.execute(db);
  // The identity sequence is new: it continues after the moved rows.
  await sql`select setval(pg_get_serial_sequence(${t.table}, ${primaryKey}),
    greatest(coalesce((select max(${sql.ref(primaryKey)}) from ${sql.table(t.table)}), 0), 1))`.execute(db);
}

/** The day partitions of `table` that exist, with the start of their day (ms). */
async function dayPartitions(db: Kysely<any>, table: string): Promise<Array<{ name: string; day: number }>> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${sql.lit(table)}::regclass`.execute(db);
  const pattern = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`);
  return rows.flatMap(({ name }) => {
    const m = pattern.exec(name);
    return m ? [{ name, day: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) }] : [];
  });
}

/**
 * Creates the partitions of today and PARTITION_DAYS_AHEAD days ahead that are missing. Safe with several
 * instances at once (one at a time per table, under an advisory lock) and with rows already in the default
 * partition for that day (they are moved into the new partition before it is attached).
 */
export async function createPartitionsAhead(db: Kysely<any>, t: PartitionedTable, now: number): Promise<string[]> {
  const created: string[] = [];
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${lockKey(t.table)})`.execute(trx);
    const have = new Set((await dayPartitions(trx, t.table)).map((p) => p.day));
    for (let day = dayOf(now); day <= dayOf(now) + PARTITION_DAYS_AHEAD * DAY_MS; day += DAY_MS) {
      if (have.has(day)) continue;
      const name = dayName(t.table, day);
      const within = sql`${sql.ref(t.column)} >= ${sql.lit(day)} and ${sql.ref(t.column)} < ${sql.lit(day + DAY_MS)}`;
      await sql`create table ${sql.table(name)} (like ${sql.table(t.table)} including defaults including constraints)`.execute(
        trx,
      );
      await sql`with moved as (delete from ${sql.table(`${t.table}_pdefault`)} where ${within} returning *)
        insert into ${sql.table(name)} select * from moved`.execute(trx);
      await sql`alter table ${sql.table(t.table)} attach partition ${sql.table(name)}
        for values from (${sql.lit(day)}) to (${sql.lit(day + DAY_MS)})`.execute(trx);
      created.push(name);
    }
  });
  return created;
}

/**
 * Retention's fast path: drops the day partitions that end at or before `cutoff`, answering the rows they held
 * (counted first, so retention_purged_rows_total stays exact). Rows older than the cutoff in the partition of the
 * cutoff's own day, or in the default, are left to the batched delete.
 */
export async function dropPartitionsBefore(db: Kysely<any>, t: PartitionedTable, cutoff: number): Promise<number> {
  let rows = 0;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${lockKey(t.table)})`.execute(trx);
    for (const p of await dayPartitions(trx, t.table)) {
      if (p.day + DAY_MS > cutoff) continue;
      const counted = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(p.name)}`.execute(trx);
      rows += Number(counted.rows[0]!.n);
      await sql`drop table ${sql.table(p.name)}`.execute(trx);
    }
  });
  return rows;
}
