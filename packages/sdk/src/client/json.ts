/** JSON for the platform API: int64 values (bigint) are written as exact number literals. */
import { randomBytes } from 'node:crypto';

/** An int64 (2.1 `size_byte`, reason `id`, 4.2 `file_size`): a bigint, a decimal string or a safe integer. */
export type Int64 = bigint | string | number;

const INT64 = /^-?(?:0|[1-9][0-9]{0,18})$/;

/** Checks an int64 value and gives it back unchanged (strings stay strings, so they are sent exactly). */
export function checkInt64(v: Int64, field: string): Int64 {
  if (typeof v === 'bigint') {
    if (v < -(2n ** 63n) || v >= 2n ** 63n) throw new RangeError(`${field}: out of the int64 range`);
    return v;
  }
  if (typeof v === 'string') {
    if (!INT64.test(v) || BigInt(v) < -(2n ** 63n) || BigInt(v) >= 2n ** 63n)
      throw new TypeError(`${field}: ${JSON.stringify(v)} is not an int64 in decimal digits`);
    return v;
  }
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
    throw new TypeError(
      `${field}: numbers must be safe integers; give larger int64 values as bigint or a decimal string`,
    );
  }
  return v;
}

/** JSON.stringify, except that a bigint becomes a number literal with all its digits. */
export function stringifyJson(value: unknown): string {
  const marker = `__int64_${randomBytes(8).toString('hex')}_`;
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString(10)}` : v));
  return text.replace(new RegExp(`"${marker}(-?[0-9]+)"`, 'g'), '$1');
}
