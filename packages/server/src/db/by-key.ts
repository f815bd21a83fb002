import type {
  Insertable,
  Kysely,
  Selectable,
  SelectQueryBuilder,
  Updateable,
  UpdateQueryBuilder,
  UpdateResult,
} from 'kysely';

/** Values of some of a table's columns, each matched by `=`: a (composite) key, or the prefix of one. */
export type KeyOf<DB, T extends keyof DB> = Partial<Selectable<DB[T]>>;

/**
 * The rows a conditional write changes: a key (column = value), and the state they must still be in for the write to
 * apply (`null`: `is null`; `[operator, value]`: a comparison, e.g. `['<', step]`).
 */
export type Where<DB, T extends keyof DB> = {
  [C in keyof Selectable<DB[T]>]?: Selectable<DB[T]>[C] | readonly [Comparison, Selectable<DB[T]>[C]];
};
type Comparison = '!=' | '<' | '<=' | '>' | '>=';

/** One `where` per column of `where`, in its order; the query builders of select, update and delete all take them. */
function whereAll<Q extends { where(...args: any[]): Q }>(query: Q, where: Record<string, unknown>): Q {
  for (const [column, value] of Object.entries(where)) {
    if (value === null) query = query.where(column, 'is', null);
    else if (Array.isArray(value)) query = query.where(column, value[0], value[1]);
    else query = query.where(column, '=', value);
  }
  return query;
}

/** `select * from table where col1 = $1 and col2 = $2 ...`, one `where` per column of `key`, in its order. */
function selectByKey<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  key: KeyOf<DB, T>,
): SelectQueryBuilder<any, any, any> {
  // Kysely cannot type a table and columns given as values; KeyOf's type checks them against DB.
  return whereAll((db as Kysely<any>).selectFrom(table).selectAll(), key);
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

/**
 * The rows of `table` whose `column` is one of `values` (none for no values: `in ()` is not SQL), ordered by
 * `orderBy`'s columns, ascending: the rows of a page of ids.
 */
export async function rowsIn<DB, T extends keyof DB & string, C extends keyof Selectable<DB[T]> & string>(
  db: Kysely<DB>,
  table: T,
  column: C,
  values: readonly Selectable<DB[T]>[C][],
  orderBy: readonly (keyof Selectable<DB[T]> & string)[] = [column],
): Promise<Selectable<DB[T]>[]> {
  if (values.length === 0) return [];
  const name: string = table;
  let query = (db as Kysely<any>)
    .selectFrom(name)
    .selectAll()
    .where(column as string, 'in', values as unknown[]);
  for (const c of orderBy) query = query.orderBy(c);
  return query.execute() as Promise<Selectable<DB[T]>[]>;
}

/** What an update is given: the table, which rows (see Where), and the columns it sets. */
type UpdateArgs<DB, T extends keyof DB> = [
  db: Kysely<DB>,
  table: T,
  where: NoInfer<Where<DB, T>>,
  set: NoInfer<Updateable<DB[T]>>,
];

/** `update table set ... where ...`, to execute or to add `returning` to. */
export function updateWhere<DB, T extends keyof DB & string>(
  ...[db, table, where, set]: UpdateArgs<DB, T>
): UpdateQueryBuilder<DB, T, T, UpdateResult> {
  // As selectByKey: Where's and Updateable's types check the columns against DB.
  const name: string = table;
  const query = whereAll((db as Kysely<any>).updateTable(name).set(set as Record<string, unknown>), where);
  return query as unknown as UpdateQueryBuilder<DB, T, T, UpdateResult>;
}

/** Runs updateWhere; answers how many rows changed. */
export async function updateRows<DB, T extends keyof DB & string>(...args: UpdateArgs<DB, T>): Promise<number> {
  const result = await updateWhere(...args).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A compare-and-set on one row: `where` names the row by its key and the state it must still be in (pending, not
 * revoked, the counter read before); true when the row changed, false when it was not (or no longer) in that state.
 * Of several writers racing, exactly one wins.
 */
export async function updateOne<DB, T extends keyof DB & string>(...args: UpdateArgs<DB, T>): Promise<boolean> {
  return (await updateRows(...args)) === 1;
}

/** `delete from table where ...` (see Where); answers how many rows went. */
export async function deleteRows<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  where: NoInfer<Where<DB, T>>,
): Promise<number> {
  const name: string = table;
  const result = await whereAll((db as Kysely<any>).deleteFrom(name), where).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Inserts `row`, or replaces the row of its `key` columns (a unique key): every column but the key and `kept` (those
 * that stay as the first write set them: its id, created_at) takes `row`'s value.
 */
export async function putRow<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  row: Insertable<DB[T]>,
  key: readonly (keyof Insertable<DB[T]> & string)[],
  kept: readonly (keyof Insertable<DB[T]> & string)[],
): Promise<void> {
  const changes: Record<string, unknown> = { ...row };
  for (const column of [...key, ...kept]) delete changes[column];
  const name: string = table;
  await (db as Kysely<any>)
    .insertInto(name)
    .values(row)
    .onConflict((oc) => oc.columns(key).doUpdateSet(changes))
    .execute();
}
