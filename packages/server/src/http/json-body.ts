import { AppError } from '../errors/app-error.js';

/**
 * JSON body parsing that keeps int64 values exact. JSON.parse turns an integer
 * past 2^53 into a nearby double, which would change the value and break the
 * md5 signature (5.1) computed over the client's digits. Integer literals that
 * are not safe integers are therefore read as their decimal strings; int64
 * fields accept a number or a decimal string, and the canonical form of 5.1
 * writes both the same way.
 */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw new AppError('MALFORMED_JSON', 'the body is empty');
  const source = /\d{16}/.test(text) ? quoteUnsafeIntegers(text) : text;
  let value: unknown;
  try {
    const suspicious = source.includes('__proto__') || source.includes('constructor');
    value = suspicious ? JSON.parse(source, rejectPrototypeKeys) : JSON.parse(source);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('MALFORMED_JSON', `the body is not valid JSON: ${(err as Error).message}`);
  }
  return value;
}

function rejectPrototypeKeys(key: string, value: unknown): unknown {
  if (
    key === '__proto__' ||
    (key === 'constructor' && value !== null && typeof value === 'object' && 'prototype' in value)
  ) {
    throw new AppError('INVALID_PARAMETER', `${key}: this key is not allowed`);
  }
  return value;
}

/** Rewrites integer tokens outside strings that are not safe integers as JSON strings. */
function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) {
          i++;
          break;
        } else i++;
      }
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < n && /[0-9.eE+-]/.test(text[i]!)) i++;
      const token = text.slice(start, i);
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += text.slice(last, start) + '"' + token + '"';
        last = i;
      }
    } else {
      i++;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
