import { Type } from '@sinclair/typebox';
import { PAGE_DEFAULT, PAGE_MAX, QueryTime, parseId, parseLimit, parseTime } from './admin-query.js';

/**
 * The parts most list queries share, as schema fields and as their parsing: a time window (`from`, `to`) and a
 * page (`before`, `limit`, the fields of admin-query.ts's pageQuery). Each parser answers only the fields given,
 * so its answer spreads into a repository filter.
 */

/** The `from`/`to` fields of a list query: `${what} at or after.` and `${what} before.` */
export const timeWindowQuery = (what: string) => ({
  from: Type.Optional(QueryTime(`${what} at or after.`)),
  to: Type.Optional(QueryTime(`${what} before.`)),
});

/** `from` and `to` in ms, each only when given. */
export function parseTimeWindow(q: { from?: string; to?: string }): { from?: number; to?: number } {
  return {
    ...(q.from !== undefined ? { from: parseTime('from', q.from) } : {}),
    ...(q.to !== undefined ? { to: parseTime('to', q.to) } : {}),
  };
}

/** `before` (only when given) and `limit` (1-PAGE_MAX, PAGE_DEFAULT when absent). */
export function parsePage(q: { before?: string; limit?: string }): { before?: number; limit: number } {
  return {
    ...(q.before !== undefined ? { before: parseId('before', q.before) } : {}),
    limit: parseLimit('limit', q.limit, PAGE_DEFAULT, PAGE_MAX),
  };
}
