import { Type, type TArray, type TSchema } from '@sinclair/typebox';
import { invalidParameter } from '../errors/app-error.js';

/**
 * Query parameters of list routes and CLI commands (delivery events, the
 * pull endpoint, the game-call log, orders, supplements, consumption notices,
 * the moderation queue): ids, times and page sizes arrive as
 * strings (Ajv does not coerce), are shape-checked by these schemas, then
 * parsed here.
 */
export const QueryId = Type.String({ pattern: '^[0-9]{1,15}$' });

export const QueryTime = (description: string) =>
  Type.String({
    pattern: '^([0-9]{1,15}|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(Z|[+-][0-9]{2}:[0-9]{2}))$',
    description: `${description} ISO 8601 date-time or Unix milliseconds.`,
  });

/** Page size of the list routes and commands: default and most. */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 500;

/** The paging fields of a list query, newest first: `before` (an id cursor) and `limit`. */
export const pageQuery = (items: string) => ({
  before: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,15}$',
      description: `Page: ${items} with a smaller id (nextBefore of the previous page).`,
    }),
  ),
  limit: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,4}$', description: `1-${PAGE_MAX}, default ${PAGE_DEFAULT}.` }),
  ),
});

/** The cursor of the next page in a list answer. */
export const NextBefore = Type.Union([Type.Integer(), Type.Null()], {
  description: 'Pass as `before` for the next page; null on the last.',
});

/** A list answer: a page of items under `key`, and the cursor of the next page. */
export const PageOf = <K extends string, T extends TSchema>(key: K, item: T) =>
  Type.Object({ [key]: Type.Array(item), nextBefore: NextBefore } as { [P in K]: TArray<T> } & {
    nextBefore: typeof NextBefore;
  });

/** The `nextBefore` of a page read newest first with `limit`: the last item's id when the page is full, else null. */
export function nextBeforeOf<T>(page: T[], limit: number, id: (item: T) => number): number | null {
  return page.length === limit ? id(page[page.length - 1]!) : null;
}

/** A page size of 1-`max`, `dflt` when absent. */
export function parseLimit(field: string, value: string | undefined, dflt: number, max: number): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalidParameter(field, `must be 1-${max}`);
  return n;
}

/** ISO 8601 date-time or Unix milliseconds -> ms. */
export function parseTime(field: string, value: string): number {
  const ms = /^[0-9]+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw invalidParameter(field, 'must be an ISO 8601 date-time or Unix milliseconds');
  return ms;
}

/** A positive id given on a command line. */
export function parseId(field: string, value: string): number {
  if (!/^[0-9]{1,15}$/.test(value)) throw invalidParameter(field, 'must be a number');
  return Number(value);
}

/** The `cursor` of a list paged by a keyset of several values (most reported, most refunded): nextCursor of the previous page. */
export const Cursor = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,400}$',
  description: '`nextCursor` of the previous page.',
});

/** A keyset position as an opaque cursor (base64url of its JSON). */
export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** A cursor back to its position; anything that is not a cursor `check` accepts is a 400 naming `cursor`. */
export function decodeCursor<T>(cursor: string | undefined, check: (v: unknown) => v is T): T | undefined {
  if (cursor === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (!check(value)) throw invalidParameter('cursor', 'is not a nextCursor of this list');
  return value;
}
