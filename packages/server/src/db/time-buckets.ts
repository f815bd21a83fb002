import { sql, type RawBuilder } from 'kysely';

/** A time window [from, to) in Unix ms, optionally one app's rows: what each overview series is read for. */
export interface TimeWindow {
  from: number;
  to: number;
  appId?: number;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/**
 * The bucket number of a millisecond column (`column / size`, integer division on both SQLite and PostgreSQL:
 * the columns are integers and so is the size); bucket * size is the bucket's start (UTC for hours and days).
 */
export function bucketOf(column: string, sizeMs: number): RawBuilder<number> {
  return sql<number>`(${sql.ref(column)} / ${sql.lit(sizeMs)})`;
}

/** A count or sum read back: PostgreSQL answers bigint aggregates as strings, SQLite as numbers. */
export function num(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}
