import { StoreVerificationError } from './errors.js';

/**
 * Reading the fields of a store's payload after its signature or token was verified (issue 27): a signature proves
 * who sent a message, not that its fields are what the platform stores. Every field read is checked here for type
 * and content before any SQL: strings only, no NUL (PostgreSQL text cannot hold it), no unpaired UTF-16 surrogate
 * (it has no UTF-8: SQLite would store U+FFFD), bounded length; numbers safe integers within bounds. Anything else is
 * a StoreVerificationError `malformed` naming the field, which the callers answer with 400 and record
 * (docs/stores.md, "Every verified message validated").
 */

/** NUL, or a surrogate half without its other half (the TEXT_PATTERN of http/schemas.ts, negated). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Store ids (transaction, order, product, bundle, package, notification): Apple and Google keep theirs well below. */
export const MAX_ID = 256;
/** A Google purchase token (about 150 characters today; the submission route takes 4096). */
export const MAX_TOKEN = 4096;
/** Latest instant a Date holds (ms); store times are past 1970. */
const MAX_MILLIS = 8_640_000_000_000_000;

export type Fields = Record<string, unknown>;

function malformed(what: string, why: string): StoreVerificationError {
  return new StoreVerificationError('malformed', `${what} ${why}`, { verified: true });
}

/** A JSON object (not an array, not null). */
export function object(v: unknown, what: string): Fields {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw malformed(what, 'is not an object');
  return v as Fields;
}

/** An optional member that must be an object when present (null counts as absent, as in the stores' JSON). */
export function optObject(o: Fields, key: string, what: string): Fields | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : object(v, `${what}.${key}`);
}

/** A string value the databases store as read. */
export function checkText(v: unknown, what: string, max = MAX_ID, min = 1): string {
  if (typeof v !== 'string') throw malformed(what, 'is not a string');
  if (v.length < min || v.length > max) throw malformed(what, `is not ${min} to ${max} characters`);
  if (UNSTORABLE.test(v)) throw malformed(what, 'holds NUL or an unpaired surrogate');
  return v;
}

export function text(o: Fields, key: string, what: string, max = MAX_ID): string {
  return checkText(o[key], `${what}.${key}`, max);
}

/** Absent, null or empty: undefined (the stores leave optional fields out or empty). */
export function optText(o: Fields, key: string, what: string, max = MAX_ID): string | undefined {
  const v = o[key];
  if (v === undefined || v === null || v === '') return undefined;
  return checkText(v, `${what}.${key}`, max);
}

/** A JSON number that is a safe integer within [min, max]. */
export function checkInt(v: unknown, what: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw malformed(what, 'is not a safe integer');
  if (v < min || v > max) throw malformed(what, `is not between ${min} and ${max}`);
  return v;
}

export function int(o: Fields, key: string, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  return checkInt(o[key], `${what}.${key}`, min, max);
}

export function optInt(o: Fields, key: string, what: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  const v = o[key];
  return v === undefined || v === null ? undefined : checkInt(v, `${what}.${key}`, min, max);
}

/** Apple's times: Unix milliseconds as a JSON number. */
export function millis(o: Fields, key: string, what: string): number {
  return int(o, key, what, 0, MAX_MILLIS);
}

export function optMillis(o: Fields, key: string, what: string): number | undefined {
  return optInt(o, key, what, 0, MAX_MILLIS);
}

/** Google's int64 fields: a decimal string (or a number) holding a safe integer. */
export function int64(o: Fields, key: string, what: string, max = MAX_MILLIS): number {
  const v = o[key];
  if (typeof v === 'string') {
    if (!/^[0-9]{1,16}$/.test(v)) throw malformed(`${what}.${key}`, 'is not a decimal integer');
    return checkInt(Number(v), `${what}.${key}`, 0, max);
  }
  return checkInt(v, `${what}.${key}`, 0, max);
}

export function optInt64(o: Fields, key: string, what: string, max = MAX_MILLIS): number | undefined {
  const v = o[key];
  return v === undefined || v === null || v === '' ? undefined : int64(o, key, what, max);
}

/** An optional boolean. */
export function optBool(o: Fields, key: string, what: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw malformed(`${what}.${key}`, 'is not a boolean');
  return v;
}
