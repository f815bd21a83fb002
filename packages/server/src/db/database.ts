import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteDialectConfig } from 'kysely';
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import type { Tables } from '../tables.js';
import { CatalogSafePostgresDialect, postgresDialect, sqliteDialect, type Dialect } from './dialect.js';

export interface Database {
  db: Kysely<Tables>;
  /** What differs between SQLite and PostgreSQL; created here once, handed to the stores by the composition root. */
  dialect: Dialect;
  /** The PostgreSQL schema in use, when not the default. */
  schema?: string;
  /**
   * Inserts `rows` into `table`, skipping rows whose unique key (the table's
   * `key` in RELAXED_TABLES) exists, and answers for each row whether it was inserted. Written without
   * waiting for the disk (one-time nonces: losing the last instants of them in
   * a power failure only reopens a replay window of seconds). One statement for
   * all rows on PostgreSQL (`unnest`, on a small pool with
   * `synchronous_commit=off`); one `synchronous=NORMAL` transaction of a
   * prepared statement on SQLite. Constant SQL text, no query builder: this is
   * on the path of every signed request.
   */
  relaxedInsertIgnore(table: RelaxedTable, rows: readonly Record<string, string | number>[]): Promise<boolean[]>;
  /** Throws when the database cannot answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Tables written through relaxedInsertIgnore, with their columns (PostgreSQL types) and unique key. */
const RELAXED_TABLES = {
  nonces: { columns: { scope: 'text', nonce: 'text', expires_at: 'int8' }, key: ['scope', 'nonce'] },
} as const;
export type RelaxedTable = keyof typeof RELAXED_TABLES;

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

/** How long a PostgreSQL request waits for a connection before it is answered 503 UNAVAILABLE. */
const CONNECT_TIMEOUT_MS = 3000;

export function openDatabase(opts: DatabaseOptions): Database {
  if (opts.url) {
    const url = opts.url;
    const pgPool = (max: number, options: string[]) => {
      const pool = new pg.Pool({
        connectionString: url,
        max,
        types: pgTypes as pg.CustomTypesConfig,
        // While the server is away a request waits this long for a connection, then answers 503 (not forever).
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        keepAlive: true,
        ...(options.length ? { options: options.join(' ') } : {}),
      });
      // A client that loses its server (restart, failover, pg_terminate_backend) emits 'error'; without a
      // listener that is an uncaught exception that ends the process. The pool listens on idle clients only, so
      // every client gets one for its whole life. The query in progress, if any, fails on its own (-> 503).
      pool.on('error', () => {});
      pool.on('connect', (client) => {
        client.on('error', () => {});
      });
      return pool;
    };
    const searchPath = opts.schema ? [`-c search_path=${opts.schema}`] : [];
    const db = new Kysely<Tables>({
      dialect: new CatalogSafePostgresDialect({ pool: pgPool(opts.poolSize ?? 10, searchPath) }),
    });
    const relaxedSql = new Map<RelaxedTable, string>();
    const relaxedPool = pgPool(4, [...searchPath, '-c synchronous_commit=off']);
    return {
      db,
      dialect: postgresDialect,
      ...(opts.schema ? { schema: opts.schema } : {}),
      async relaxedInsertIgnore(table, rows) {
        if (rows.length === 0) return [];
        const { columns, key } = RELAXED_TABLES[table];
        const names = Object.keys(columns) as (keyof typeof columns)[];
        let text = relaxedSql.get(table);
        if (!text) {
          text =
            `insert into ${table} (${names.join(', ')}) select * from unnest(${names.map((n, i) => `$${i + 1}::${columns[n]}[]`).join(', ')}) ` +
            `on conflict (${key.join(', ')}) do nothing returning ${key.join(', ')}`;
          relaxedSql.set(table, text);
        }
        const result = await relaxedPool.query({
          name: `relaxed_${table}`,
          text,
          values: names.map((n) => rows.map((r) => r[n])),
        });
        const inserted = new Set(
          result.rows.map((r: Record<string, unknown>) => key.map((k) => String(r[k])).join('\u0000')),
        );
        return rows.map((r) => inserted.has(key.map((k) => String(r[k])).join('\u0000')));
      },
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: async () => {
        await relaxedPool.end();
        await db.destroy();
      },
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // exec, not pragma(): pragma() prepares a Statement and drops it, and on Node 24 the garbage collector can finalize
  // a dropped better-sqlite3 Statement where no Environment is current, which aborts the process
  // ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook, from Statement::~Statement).
  sqlite.exec('pragma journal_mode = WAL');
  // FULL: a commit is on disk before the request that made it is answered.
  sqlite.exec('pragma synchronous = FULL');
  sqlite.exec('pragma foreign_keys = ON');
  sqlite.exec('pragma busy_timeout = 5000');
  // Checkpoint every ~40 MB of WAL rather than SQLite's 4 MB: a checkpoint writes
  // and syncs the database file on the one thread, and a page changed many times
  // between two checkpoints is copied once. On this VM that halves the cost of a
  // small write (nonces: 29 -> 15 us a row). A 16 MB page cache keeps the hot
  // index pages of the write-heavy tables in memory.
  sqlite.exec('pragma wal_autocheckpoint = 10000');
  sqlite.exec('pragma cache_size = -16384');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const relaxedStatements = new Map<RelaxedTable, SQLite.Statement>();
  const relax = sqlite.prepare('pragma synchronous = NORMAL');
  const unrelax = sqlite.prepare('pragma synchronous = FULL');
  return {
    db,
    dialect: sqliteDialect,
    // Through Kysely's one connection (its lock keeps these statements out of
    // any transaction in progress), then synchronously on the raw handle.
    relaxedInsertIgnore: (table, rows) =>
      db.connection().execute(async () => {
        let insert = relaxedStatements.get(table);
        if (!insert) {
          const names = Object.keys(RELAXED_TABLES[table].columns);
          insert = sqlite.prepare(
            `insert or ignore into ${table} (${names.join(', ')}) values (${names.map((n) => `@${n}`).join(', ')})`,
          );
          relaxedStatements.set(table, insert);
        }
        const statement = insert;
        relax.run();
        try {
          return sqlite.transaction(() => rows.map((r) => statement.run(r).changes === 1))();
        } finally {
          unrelax.run();
        }
      }),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
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
