import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** What a key read runs on besides Kysely: PostgreSQL's named statements, SQLite's read at once. */
export type KeyReads = Pick<Database, 'named' | 'readNow'>;

/**
 * A read by key with one constant SQL text (`$1` for the key), for reads on the path of many requests (an admin
 * read of an app). PostgreSQL runs it as a named statement, parsed and planned once per connection (its generic plan
 * is the key's index, right whatever the table holds); SQLite from the statement cache (db/database.ts). Neither
 * builds it with the query builder on each call, and SQLite runs it at once when its one connection is free
 * (Database.readNow: 21.4 -> 16.7 KB allocated per admin read of an app, issue 44). The admin read's CPU per request
 * over its ceiling's, A/B (issue 33, docs/benchmarks.md): SQLite 1.66-2.07x -> 1.62-1.85x, PostgreSQL 2.03-2.25x ->
 * 1.43-2.05x (within today's noise).
 */
export function keyRead<R>(
  db: Kysely<any>,
  reads: KeyReads | null,
  name: string,
  text: string,
): (key: unknown) => Promise<R | undefined> {
  const named = reads?.named;
  if (named) return async (key) => (await named<R>(name, text, [key]))[0];
  const sqliteText = text.replace('$1', '?');
  const queued = async (key: unknown) => (await db.executeQuery<R>(CompiledQuery.raw(sqliteText, [key]))).rows[0];
  const readNow = reads?.readNow;
  if (!readNow) return queued;
  return (key) => {
    const rows = readNow<R>(sqliteText, [key]);
    return rows ? Promise.resolve(rows[0]) : queued(key);
  };
}
