import {
  PostgresAdapter,
  PostgresDialect,
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type DatabaseIntrospector,
  type Kysely,
  type TableMetadata,
} from 'kysely';

/**
 * Every place where SQLite and PostgreSQL must differ lives in this file. The
 * rest of the code asks the one `Dialect` object that openDatabase creates
 * (`database.dialect`) and the composition root hands to the stores; only
 * stores branch on it.
 */
export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  readonly name: DialectName;
  /** A unique-constraint violation (a second row for a unique key). */
  isUniqueViolation(err: unknown): boolean;
  /** The database cannot answer now, though the request was fine (see isDatabaseUnavailable below). */
  isDatabaseUnavailable(err: unknown): boolean;
  /**
   * Row locking for a queue claim: `FOR UPDATE SKIP LOCKED` on PostgreSQL, so
   * several instances claim disjoint rows without waiting on each other. SQLite
   * has one writer at a time, so the claiming UPDATE is already exclusive.
   */
  skipLocked<Q extends { forUpdate(): Q; skipLocked(): Q }>(query: Q): Q;
  /**
   * Runs `work` where the planner may not sort: on PostgreSQL in a transaction with `set local enable_sort = off`,
   * so a query written to walk an index in order (a queue claim of the first due rows) does so whatever the table's
   * statistics say; SQLite plans it by the index already and runs `work` on `db` as is.
   */
  withoutSort<T>(db: Kysely<any>, work: (db: Kysely<any>) => Promise<T>): Promise<T>;
  /** An auto-increment integer primary key: `integer primary key autoincrement` vs an identity column. */
  addAutoIdColumn<T extends string>(table: CreateTableBuilder<T, any>, name: string): CreateTableBuilder<T, any>;
  /**
   * maxInFlight for batches that each hold a database connection: SQLite has
   * one, so a second batch in flight would only queue for it (and each batch
   * would be smaller); PostgreSQL takes `onPostgres` (default 4) at once.
   */
  batchesInFlight(onPostgres?: number): number;
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  isUniqueViolation: (err) => isUniqueViolation(err),
  isDatabaseUnavailable: (err) => isDatabaseUnavailable(err),
  skipLocked: (query) => query,
  withoutSort: (db, work) => work(db),
  addAutoIdColumn: (table, name) => addAutoIdColumn(table, name, 'sqlite'),
  batchesInFlight: () => 1,
};

export const postgresDialect: Dialect = {
  name: 'postgres',
  isUniqueViolation: (err) => isUniqueViolation(err),
  isDatabaseUnavailable: (err) => isDatabaseUnavailable(err),
  skipLocked: (query) => query.forUpdate().skipLocked(),
  withoutSort: (db, work) =>
    db.transaction().execute(async (trx) => {
      await sql`set local enable_sort = off`.execute(trx);
      return work(trx);
    }),
  addAutoIdColumn: (table, name) => addAutoIdColumn(table, name, 'postgres'),
  batchesInFlight: (onPostgres = 4) => onPostgres,
};

/**
 * The dialect of a Kysely instance, for the migrations only: Kysely's migrator
 * calls them with the database alone. Everything else is handed
 * `database.dialect`.
 */
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * A unique-constraint violation, on either backend (the codes do not overlap, so one test serves both; the
 * Dialect methods call these).
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * The database cannot answer now, though the request was fine: the server is restarting, failing over or out of
 * disk, or the connection broke. Such a request is answered 503 UNAVAILABLE (http/error-handler.ts) and may be retried;
 * nothing of it was committed. Any other database error is a bug (500).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  // PostgreSQL SQLSTATEs: class 08 connection exception; 53 insufficient resources (disk full, out of memory, too
  // many connections); 57P01-57P05 admin/crash shutdown, cannot connect now, idle timeouts; 25006 a read-only
  // transaction (a standby after a failover); 40001/40P01 a serialization failure or deadlock, which a retry clears.
  if (
    /^(08|53)[0-9A-Z]{3}$/.test(code) ||
    /^57P0[1-5]$/.test(code) ||
    code === '25006' ||
    code === '40001' ||
    code === '40P01'
  )
    return true;
  // SQLite: disk full, a read-only file or file system, an I/O error, the file locked past busy_timeout, a file it
  // cannot open (better-sqlite3's extended codes: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, ...).
  if (/^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CANTOPEN|PROTOCOL|NOLFS)(_|$)/.test(code)) return true;
  // The socket under a PostgreSQL connection, and node-postgres's own words for a broken or unobtainable client.
  if (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ENOTFOUND',
      'EAI_AGAIN',
    ].includes(code)
  )
    return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error|^Client was closed and is not queryable|^Connection ended unexpectedly/.test(
    message,
  );
}

/** Dialect.addAutoIdColumn for the migrations, which know the dialect by name (dialectOf). */
export function addAutoIdColumn<T extends string>(
  table: CreateTableBuilder<T, any>,
  name: string,
  dialect: DialectName,
): CreateTableBuilder<T, any> {
  return dialect === 'postgres'
    ? table.addColumn(name, 'bigint', (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn(name, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}

/**
 * PostgreSQL with an introspector that reads the catalogs by oid only.
 * Kysely's own looks schemas up by name (`has_schema_privilege(nspname, ..)`),
 * which fails with "schema does not exist" when any other schema of the
 * database is dropped meanwhile - and its migrator introspects at every start.
 */
export class CatalogSafePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    const getTables = async (options?: { withInternalKyselyTables?: boolean }): Promise<TableMetadata[]> => {
      const { rows } = await sql<{
        schema: string;
        table: string;
        relkind: string;
        column: string | null;
        not_null: boolean | null;
        has_default: boolean | null;
        type: string | null;
      }>`
        select n.nspname as schema, c.relname as table, c.relkind, a.attname as column, a.attnotnull as not_null,
          a.atthasdef as has_default, t.typname as type
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_catalog.pg_type t on t.oid = a.atttypid
        where c.relkind in ('r', 'p', 'v', 'm') and n.nspname !~ '^pg_' and n.nspname <> 'information_schema'
        order by n.nspname, c.relname, a.attnum`.execute(db);
      const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
      for (const r of rows) {
        if (!options?.withInternalKyselyTables && r.table.startsWith('kysely_')) continue;
        const key = `${r.schema}.${r.table}`;
        let table = tables.get(key);
        if (!table) {
          table = { schema: r.schema, name: r.table, isView: r.relkind === 'v' || r.relkind === 'm', columns: [] };
          tables.set(key, table);
        }
        if (r.column !== null) {
          table.columns.push({
            name: r.column,
            dataType: r.type ?? '',
            isNullable: !r.not_null,
            hasDefaultValue: !!r.has_default,
            isAutoIncrementing: false,
          });
        }
      }
      return [...tables.values()];
    };
    return {
      getSchemas: async () =>
        (await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(db)).rows,
      getTables,
      getMetadata: async (options) => ({ tables: await getTables(options) }),
    };
  }
}
