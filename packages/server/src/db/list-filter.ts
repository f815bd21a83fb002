import { sql, type SelectQueryBuilder, type StringReference } from 'kysely';

/**
 * The conditions the operator's list reads share: equality on the filter's given fields, a time window, and a page
 * read newest first by an increasing id (keyset paging: `before` is the last id of the previous page). Each takes and
 * answers a Kysely select, so a repository chains them after its own conditions.
 */

/** `column = value` for each column whose value is given (undefined: that column is not filtered). */
export function whereGiven<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  values: { [C in StringReference<DB, TB>]?: string | number | undefined },
): SelectQueryBuilder<DB, TB, O> {
  for (const [column, value] of Object.entries(values))
    if (value !== undefined) query = query.where(sql.ref(column), '=', value);
  return query;
}

/** `from <= time < to`, each bound only when given (ms). */
export function withinWindow<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  time: StringReference<DB, TB>,
  window: { from?: number; to?: number },
): SelectQueryBuilder<DB, TB, O> {
  if (window.from !== undefined) query = query.where(sql.ref(time), '>=', window.from);
  if (window.to !== undefined) query = query.where(sql.ref(time), '<', window.to);
  return query;
}

/** One page, highest `id` first: ids below `before` when given, at most `limit` rows. */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  id: StringReference<DB, TB>,
  page: { before?: number; limit: number },
): SelectQueryBuilder<DB, TB, O> {
  if (page.before !== undefined) query = query.where(sql.ref(id), '<', page.before);
  return query.orderBy(sql.ref(id), 'desc').limit(page.limit);
}
