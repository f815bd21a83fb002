import { PostgresAdapter, type Kysely, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';

/**
 * Every place where SQLite and PostgreSQL must differ lives in this file.
 */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A unique-constraint violation, on either backend. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** An auto-increment integer primary key: `integer primary key autoincrement` vs an identity column. */
export function addAutoIdColumn<T extends string>(table: CreateTableBuilder<T, any>, name: string, dialect: DialectName): CreateTableBuilder<T, any> {
  return dialect === 'postgres'
    ? table.addColumn(name, 'bigint', (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn(name, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}

/**
 * Row locking for a queue claim: `FOR UPDATE SKIP LOCKED` on PostgreSQL, so
 * several instances claim disjoint rows without waiting on each other. SQLite
 * has one writer at a time, so the claiming UPDATE is already exclusive.
 */
export function skipLocked<Q extends { forUpdate(): Q; skipLocked(): Q }>(query: Q, dialect: DialectName): Q {
  return dialect === 'postgres' ? query.forUpdate().skipLocked() : query;
}
