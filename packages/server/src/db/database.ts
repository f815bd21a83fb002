import SQLite from 'better-sqlite3';
import {
  Kysely,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import fs from 'node:fs';
import path from 'node:path';
import { CatalogSafePostgresDialect, postgresDialect, sqliteDialect, type Dialect } from './dialect.js';
import { pgNotifications, type Notifications } from './notifications.js';

/** An open database; `DB` is the row types of its tables (src/tables.ts composes them: db/ knows no domain). */
export interface Database<DB = any> {
  db: Kysely<DB>;
  /** What differs between SQLite and PostgreSQL; created here once, handed to the stores by the composition root. */
  dialect: Dialect;
  /** The PostgreSQL schema in use, when not the default. */
  schema?: string;
  /**
   * A connection for writes that need not wait for the disk (one-time nonces:
   * losing the last instants of them in a power failure only reopens a replay
   * window of seconds). PostgreSQL: a small pool with `synchronous_commit=off`;
   * SQLite: a `synchronous=NORMAL` transaction on the raw handle. The SQL is
   * the caller's (auth/nonce-ledger.ts owns the nonces table).
   */
  relaxed: RelaxedWriter;
  /**
   * PostgreSQL: one named (prepared) statement on the durable pool (Kysely's,
   * synchronous commit), outside any transaction; null on SQLite. For the hot
   * batch writes of one constant statement: Kysely sends every query unnamed,
   * so the server parses and plans it on each run, ~0.6-1 ms for a batch
   * statement of many CTEs. A named one is planned once per connection, so its
   * generic plan must suit any table contents (see the stores using it).
   */
  named: NamedQuery | null;
  /**
   * SQLite: a read run at once on the raw handle when no one holds Kysely's one connection, so it cannot land
   * inside another request's transaction; undefined when it is held (go through Kysely then). Null on PostgreSQL.
   * See SqliteReadNowDialect.
   */
  readNow: ReadNow | null;
  /** PostgreSQL's LISTEN/NOTIFY (several instances tell each other of changes); null on SQLite, one instance. */
  notifications: Notifications | null;
  /**
   * Where reads that may be a little stale go (the console's and portal's lists, the overviews, the store
   * reconciliation's choice of what to ask): the read replica of DATABASE_READ_URL, or `db` itself when none is set.
   * A read of something the same request or caller just wrote must use `db` (docs/operations.md, "Read replica").
   */
  reads: Kysely<DB>;
  /** The read replica's replication lag in seconds (0 when it has replayed all it received); null without a replica. */
  replicaLag: (() => Promise<number>) | null;
  /** Throws when the database cannot answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The PostgreSQL schema the database's tables are in (the configured one, else the connection's search path). */
export async function currentSchema(database: Database): Promise<string> {
  if (database.schema) return database.schema;
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(database.db);
  return rows[0]!.s;
}

/** See Database.readNow: the rows, or undefined when the connection is held by someone. */
export type ReadNow = <R>(text: string, values: unknown[]) => R[] | undefined;

/** See Database.named. */
export type NamedQuery = <R>(name: string, text: string, values: unknown[]) => Promise<R[]>;

/** See Database.relaxed. */
export type RelaxedWriter =
  | {
      dialect: 'postgres';
      /** One named (prepared) statement on the relaxed pool. */
      query<R>(name: string, text: string, values: unknown[]): Promise<R[]>;
    }
  | {
      dialect: 'sqlite';
      /**
       * Runs `work` synchronously on the raw handle in one relaxed transaction,
       * through Kysely's one connection (its lock keeps it out of any
       * transaction in progress).
       */
      transaction<T>(work: (sqlite: SQLite.Database) => T): Promise<T>;
      /**
       * Runs `work` with SQL through Kysely on its one connection, relaxed
       * (`synchronous=NORMAL`) until it ends; nothing else runs on the
       * connection meanwhile. For a store that writes with Kysely's SQL.
       */
      connection<T>(work: (db: Kysely<any>) => Promise<T>): Promise<T>;
    };

export interface DatabaseOptions {
  /** postgres://... ; unset means embedded SQLite at `sqliteFile`. */
  url?: string | undefined;
  sqliteFile?: string;
  poolSize?: number;
  /** PostgreSQL schema to use (tests give each file a fresh one). */
  schema?: string;
  /** postgres://... of a streaming replica of `url` for Database.reads; unset: reads go to `url`. */
  readUrl?: string | undefined;
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

export function openDatabase<DB = any>(opts: DatabaseOptions): Database<DB> {
  if (opts.url) {
    const primaryUrl = opts.url;
    const pgPool = (max: number, options: string[], url = primaryUrl) => {
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
    const durablePool = pgPool(opts.poolSize ?? 10, searchPath);
    const db = new Kysely<DB>({ dialect: new CatalogSafePostgresDialect({ pool: durablePool }) });
    const relaxedPool = pgPool(4, [...searchPath, '-c synchronous_commit=off']);
    // The replica's pool answers an outage like the primary's (connection timeout, 'error' listeners): 503, no crash.
    const replica = opts.readUrl
      ? new Kysely<DB>({
          dialect: new CatalogSafePostgresDialect({ pool: pgPool(opts.poolSize ?? 10, searchPath, opts.readUrl) }),
        })
      : null;
    return {
      db,
      reads: replica ?? db,
      replicaLag: replica ? () => replicaLag(replica) : null,
      dialect: postgresDialect,
      ...(opts.schema ? { schema: opts.schema } : {}),
      named: async <R>(name: string, text: string, values: unknown[]) =>
        (await durablePool.query({ name, text, values })).rows as R[],
      readNow: null,
      notifications: pgNotifications(primaryUrl, durablePool),
      relaxed: {
        dialect: 'postgres',
        async query<R>(name: string, text: string, values: unknown[]) {
          return (await relaxedPool.query({ name, text, values })).rows as R[];
        },
      },
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: async () => {
        await relaxedPool.end();
        await replica?.destroy();
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
  const statements = withStatementCache(sqlite);
  const dialect = new SqliteReadNowDialect({ database: statements });
  const db = new Kysely<DB>({ dialect });
  const relax = sqlite.prepare('pragma synchronous = NORMAL');
  const unrelax = sqlite.prepare('pragma synchronous = FULL');
  // Kysely's one connection is held meanwhile, so no transaction in progress sees the relaxed setting.
  const relaxedOn = <T>(work: (c: Kysely<any>) => Promise<T>) =>
    db.connection().execute(async (c) => {
      relax.run();
      try {
        return await work(c);
      } finally {
        unrelax.run();
      }
    });
  return {
    db,
    reads: db,
    replicaLag: null,
    dialect: sqliteDialect,
    named: null,
    readNow: <R>(text: string, values: unknown[]) =>
      dialect.held() ? undefined : (statements.prepare(text).all(values) as R[]),
    notifications: null,
    relaxed: {
      dialect: 'sqlite',
      transaction: <T>(work: (handle: SQLite.Database) => T) =>
        relaxedOn(async () => sqlite.transaction(() => work(sqlite))()),
      connection: relaxedOn,
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/**
 * How far the replica's replayed state is behind, in seconds. `now() - pg_last_xact_replay_timestamp()` alone grows
 * while the primary is idle (no new transaction to replay), so a replica that has replayed all the WAL it received
 * reports 0; one not in recovery (DATABASE_READ_URL naming a primary) is never behind.
 */
async function replicaLag(replica: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ lag: number | string | null }>`
    select case
      when not pg_is_in_recovery() then 0
      when pg_last_wal_receive_lsn() is not distinct from pg_last_wal_replay_lsn() then 0
      else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0)
    end as lag`.execute(replica);
  return Math.max(0, Number(rows[0]?.lag ?? 0));
}

/**
 * Kysely's SQLite dialect, telling whether its one connection is held (Database.readNow). Kysely queues every query
 * for the connection behind a mutex, even a read on a connection no one holds: four async layers and their promises
 * per query (an admin read of an app allocated 21.4 KB with them, 16.7 KB without: db/key-read.ts). When no one
 * holds it, no transaction is open on it (a transaction holds it from its begin to its commit or rollback), and
 * better-sqlite3 runs a statement to its end synchronously, so a read run there and then is what the queued one
 * would have been.
 */
class SqliteReadNowDialect extends SqliteDialect {
  #driver: HeldSqliteDriver;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#driver = new HeldSqliteDriver(config);
  }
  override createDriver() {
    return this.#driver;
  }
  held(): boolean {
    return this.#driver.holders > 0;
  }
}

class HeldSqliteDriver extends SqliteDriver {
  holders = 0;
  override async acquireConnection(): Promise<DatabaseConnection> {
    // Counted from the request on, before the mutex is ours: a waiter queued behind a transaction counts too.
    this.holders++;
    try {
      return await super.acquireConnection();
    } catch (err) {
      this.holders--;
      throw err;
    }
  }
  override async releaseConnection(): Promise<void> {
    this.holders--;
    await super.releaseConnection();
  }
}

/**
 * Kysely prepares every query anew; preparing costs as much as running a
 * point query. Our queries are a small fixed set of SQL texts, so prepared
 * statements are cached by text (bounded, in case of dynamic IN lists).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
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
  } as SqliteDatabase;
}
