import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';

/** Values of some of a table's columns, each matched by `=`: a (composite) key, or the prefix of one. */
export type KeyOf<DB, T extends keyof DB> = Partial<Selectable<DB[T]>>;

/** `select * from table where col1 = $1 and col2 = $2 ...`, one `where` per column of `key`, in its order. */
function selectByKey<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  key: KeyOf<DB, T>,
): SelectQueryBuilder<any, any, any> {
  // Kysely cannot type a table and columns given as values; KeyOf's type checks them against DB.
  let query = (db as Kysely<any>).selectFrom(table).selectAll();
  for (const [column, value] of Object.entries(key)) query = query.where(column, '=', value);
  return query;
}

/** The row of `table` whose columns equal `key` (a unique key), if any. */
export function rowByKey<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  key: KeyOf<DB, T>,
): Promise<Selectable<DB[T]> | undefined> {
  return selectByKey(db, table, key).executeTakeFirst();
}

/**
 * Every row of `table` whose columns equal `key`: ordered by `orderBy`'s columns, ascending (a list of a user's,
 * an app's or an event's rows, oldest or smallest first), or in no particular order without it.
 */
export function rowsByKey<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  key: KeyOf<DB, T>,
  orderBy: readonly (keyof Selectable<DB[T]> & string)[] = [],
): Promise<Selectable<DB[T]>[]> {
  let query = selectByKey(db, table, key);
  for (const column of orderBy) query = query.orderBy(column);
  return query.execute() as Promise<Selectable<DB[T]>[]>;
}
