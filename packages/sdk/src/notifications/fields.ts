/** Small typed readers over an untrusted JSON object, naming the field on failure. */
import { Buffer } from 'node:buffer';

/** A structurally invalid body or query: `field` names what is wrong (dot path). */
export class PayloadParseError extends Error {
  readonly field: string;
  readonly problem: string;
  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`);
    this.name = 'PayloadParseError';
    this.field = field;
    this.problem = problem;
  }
}

export type JsonObject = Readonly<Record<string, unknown>>;

/** JSON text, bytes or an already parsed value -> a plain object. */
export function toObject(input: unknown, what: string): JsonObject {
  let v = input;
  if (typeof v === 'string' || v instanceof Uint8Array) {
    const text = typeof v === 'string' ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
    try {
      v = JSON.parse(text);
    } catch {
      throw new PayloadParseError(what, 'is not valid JSON');
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new PayloadParseError(what, 'must be a JSON object');
  return v as JsonObject;
}

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** Reads the fields of one object; `prefix` makes error field names full paths. */
export class Fields {
  constructor(
    readonly o: JsonObject,
    readonly prefix = '',
  ) {}

  path(k: string): string {
    return this.prefix ? `${this.prefix}.${k}` : k;
  }

  has(k: string): boolean {
    return this.o[k] !== undefined && this.o[k] !== null;
  }

  fail(k: string, problem: string): never {
    throw new PayloadParseError(this.path(k), problem);
  }

  string(k: string): string {
    const v = this.o[k];
    if (typeof v !== 'string') this.fail(k, v === undefined || v === null ? 'is required' : 'must be a string');
    return v;
  }

  /** Missing and null both give null. */
  nullableString(k: string): string | null {
    return this.has(k) ? this.string(k) : null;
  }

  /** An integer that is exactly representable (ids, times, enum values). */
  integer(k: string): number {
    const v = this.o[k];
    if (typeof v !== 'number') this.fail(k, v === undefined || v === null ? 'is required' : 'must be a number');
    if (!Number.isSafeInteger(v)) this.fail(k, 'must be an integer within ±2^53 (precision would be lost)');
    return v;
  }

  nullableInteger(k: string): number | null {
    return this.has(k) ? this.integer(k) : null;
  }

  /** A decimal amount: a JSON number, or a decimal string (tolerated), as a number. */
  decimal(k: string): number {
    const v = this.o[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && DECIMAL.test(v)) return Number(v);
    return this.fail(k, v === undefined || v === null ? 'is required' : 'must be a decimal number');
  }

  nullableDecimal(k: string): number | null {
    return this.has(k) ? this.decimal(k) : null;
  }

  object(k: string): Fields {
    const v = this.o[k];
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      this.fail(k, v === undefined || v === null ? 'is required' : 'must be an object');
    return new Fields(v as JsonObject, this.path(k));
  }

  nullableObject(k: string): Fields | null {
    return this.has(k) ? this.object(k) : null;
  }

  array(k: string): Fields[] {
    const v = this.o[k];
    if (!Array.isArray(v)) this.fail(k, v === undefined || v === null ? 'is required' : 'must be an array');
    return v.map((e: unknown, i) => {
      if (e === null || typeof e !== 'object' || Array.isArray(e))
        throw new PayloadParseError(`${this.path(k)}.${i}`, 'must be an object');
      return new Fields(e as JsonObject, `${this.path(k)}.${i}`);
    });
  }
}
