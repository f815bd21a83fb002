/**
 * Spec 5.1: md5 body/parameter signature (used by 4.1, 4.2 and 4.6).
 * The exact canonical form is documented in docs/signing.md.
 */
import { createHash } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { safeEqualStrings } from './compare.js';

export type SignableValue =
  string | number | bigint | boolean | null | undefined | SignableValue[] | { [k: string]: SignableValue };

/** Nesting deeper than this is refused (also stops cycles). */
export const MAX_SIGN_DEPTH = 32;

const HEX32 = /^[0-9a-fA-F]{32}$/;
const ASCII = /^[\x00-\x7f]*$/;

type Pair = [key: string, value: string];

function scalar(key: string, v: number | bigint | boolean | string): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString(10);
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      if (!Number.isFinite(v)) throw new TypeError(`md5 sign: ${key} is ${v}, only finite numbers can be signed`);
      return String(v); // Number#toString; -0 gives "0"
  }
}

function isPlainObject(v: object): v is Record<string, SignableValue> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function flatten(key: string, v: SignableValue, depth: number, out: Pair[]): void {
  if (v === null || v === undefined) return;
  if (typeof v !== 'object') {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint' && typeof v !== 'boolean') {
      throw new TypeError(`md5 sign: ${key} has unsupported type ${typeof v}`);
    }
    out.push([key, scalar(key, v)]);
    return;
  }
  if (depth >= MAX_SIGN_DEPTH) throw new TypeError(`md5 sign: ${key} is nested deeper than ${MAX_SIGN_DEPTH}`);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) flatten(`${key}.${i}`, v[i], depth + 1, out);
    return;
  }
  if (!isPlainObject(v)) throw new TypeError(`md5 sign: ${key} is not a plain object`);
  for (const k of Object.keys(v)) flatten(`${key}.${k}`, v[k], depth + 1, out);
}

/** Flattened, filtered and sorted `[key, value]` pairs of the canonical form. */
export function canonicalPairs(params: Record<string, SignableValue>): Pair[] {
  const out: Pair[] = [];
  for (const k of Object.keys(params)) {
    if (k === 'sign') continue;
    flatten(k, params[k], 0, out);
  }
  let ascii = true;
  for (const [k] of out)
    if (!ASCII.test(k)) {
      ascii = false;
      break;
    }
  if (ascii) {
    // For ASCII, UTF-16 code unit order equals byte order.
    out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  } else {
    const keyed = out.map((p) => ({ p, b: Buffer.from(p[0], 'utf8') }));
    keyed.sort((x, y) => Buffer.compare(x.b, y.b));
    for (let i = 0; i < keyed.length; i++) out[i] = keyed[i]!.p;
  }
  for (let i = 1; i < out.length; i++) {
    if (out[i]![0] === out[i - 1]![0]) throw new TypeError(`md5 sign: key ${out[i]![0]} occurs twice after flattening`);
  }
  return out;
}

/** `k1=v1&k2=v2...` over every parameter except the top-level `sign`. Throws TypeError on unsignable input. */
export function canonicalParams(params: Record<string, SignableValue>): string {
  return canonicalPairs(params)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Lowercase hex md5 of canonicalParams(params) + secret, over UTF-8 bytes. */
export function md5Sign(params: Record<string, SignableValue>, secret: string): string {
  return createHash('md5')
    .update(canonicalParams(params) + secret, 'utf8')
    .digest('hex');
}

/**
 * Constant-time, case-insensitive check of `sign`. Never throws: a `sign` that is not
 * 32 hex digits, or params that cannot be put in canonical form, give false.
 */
export function md5Verify(params: Record<string, SignableValue>, secret: string, sign: string): boolean {
  if (typeof sign !== 'string' || !HEX32.test(sign)) return false;
  let expected: string;
  try {
    expected = md5Sign(params, secret);
  } catch {
    return false;
  }
  return safeEqualStrings(expected, sign.toLowerCase());
}
