import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDialectConfig } from 'kysely';
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import type { Tables } from './schema.js';
import { CatalogSafePostgresDialect, type DialectName } from './dialect.js';

export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  /** The PostgreSQL schema in use, when not the default. */
  schema?: string;
  /**
   * Runs `fn` with writes that need not wait for the disk (one-time nonces:
   * losing the last instants of them in a power failure only reopens a
   * replay window of seconds). SQLite: `synchronous=NORMAL` for these
   * statements (WAL still makes them atomic; the next FULL commit syncs them);
   * PostgreSQL: a small pool with `synchronous_commit=off`.
   */
  relaxed<T>(fn: (db: Kysely<Tables>) => Promise<T>): Promise<T>;
  /** Throws when the database cannot answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://... ; unset means embedded SQLite at `sqliteFile`. */
  url?: string | undefined;
  sqliteFile?: string;
  poolSize?: number;
  /** PostgreSQL schema to use (tests give each file a fresh one). */
  schema?: string;
}

// int8 (bigint) and numeric come back as strings by default; our bigints are
// Unix milliseconds and ids below 2^53, so numbers are exact.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function openDatabase(opts: DatabaseOptions): Database {
  if (opts.url) {
    const url = opts.url;
    const kysely = (max: number, options: string[]) => {
      const pool = new pg.Pool({
        connectionString: url,
        max,
        types: pgTypes as pg.CustomTypesConfig,
        ...(options.length ? { options: options.join(' ') } : {}),
      });
      // An idle client that errors (server restart) must not crash the process.
      pool.on('error', () => {});
      return new Kysely<Tables>({ dialect: new CatalogSafePostgresDialect({ pool }) });
    };
    const searchPath = opts.schema ? [`-c search_path=${opts.schema}`] : [];
    const db = kysely(opts.poolSize ?? 10, searchPath);
    const relaxedDb = kysely(2, [...searchPath, '-c synchronous_commit=off']);
    return {
      db,
      dialect: 'postgres',
      ...(opts.schema ? { schema: opts.schema } : {}),
      relaxed: (fn) => fn(relaxedDb),
      ping: async () => { await sql`select 1`.execute(db); },
      close: async () => { await relaxedDb.destroy(); await db.destroy(); },
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the request that made it is answered.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    // One connection (a second one could deadlock the one thread on SQLite's
    // write lock): hold it, relax, run, restore.
    relaxed: (fn) => db.connection().execute(async (c) => {
      await sql`pragma synchronous = NORMAL`.execute(c);
      try {
        return await fn(c);
      } finally {
        await sql`pragma synchronous = FULL`.execute(c);
      }
    }),
    ping: async () => { await sql`select 1`.execute(db); },
    close: () => db.destroy(),
  };
}

/**
 * Kysely prepares every query anew; preparing costs as much as running a
 * point query. Our queries are a small fixed set of SQL texts, so prepared
 * statements are cached by text (bounded, in case of dynamic IN lists).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDialectConfig['database'] {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (!statement) {
        if (cache.size >= 1000) cache.clear();
        statement = sqlite.prepare(text);
        cache.set(text, statement);
      }
      return statement;
    },
  } as SqliteDialectConfig['database'];
}
