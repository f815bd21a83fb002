import type { SecretBox } from '../crypto/secret-box.js';
import type { SealedColumn } from '../crypto/sealed-column.js';
import type { SealedValuesRepository, SealedValue } from './sealed-values.repository.js';

export interface SealedColumnCount {
  column: string;
  /** Values by the id of the master key they are sealed under. */
  byKey: Record<string, number>;
  /** Values no configured key opens (their key is missing, or they are damaged). */
  unreadable: number;
}

export interface ResealResult {
  column: string;
  scanned: number;
  resealed: number;
  /** Values that changed between our read and our write (the service wrote them anew, under the current key). */
  changedMeanwhile: number;
  unreadable: number;
}

const PAGE = 500;

/** The rows of a sealed column with a value, in id order, a page at a time. */
async function* sealedRows(values: SealedValuesRepository, c: SealedColumn): AsyncGenerator<SealedValue[]> {
  let after: unknown;
  for (;;) {
    const rows = await values.page(c, after, PAGE);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
  }
}

/** How many values of each column are sealed under each master key. */
export async function countSealed(
  values: SealedValuesRepository,
  box: SecretBox,
  columns: SealedColumn[],
): Promise<SealedColumnCount[]> {
  const out: SealedColumnCount[] = [];
  for (const c of columns) {
    const count: SealedColumnCount = { column: `${c.table}.${c.column}`, byKey: {}, unreadable: 0 };
    for await (const page of sealedRows(values, c)) {
      for (const row of page) {
        try {
          const keyId = box.keyIdOf(row.value, row.context);
          count.byKey[keyId] = (count.byKey[keyId] ?? 0) + 1;
        } catch {
          count.unreadable++;
        }
      }
    }
    out.push(count);
  }
  return out;
}

/**
 * Seals every value that is not under the current master key anew under it
 * (the last step of a rotation). Each row is rewritten only if it still holds
 * the value read (compare-and-set), so a value the running service replaced
 * meanwhile is left as the service wrote it. Idempotent: run it again after
 * an interruption. Values no configured key opens are counted and left alone.
 */
export async function resealAll(
  values: SealedValuesRepository,
  box: SecretBox,
  columns: SealedColumn[],
): Promise<ResealResult[]> {
  const out: ResealResult[] = [];
  for (const c of columns) {
    const result: ResealResult = {
      column: `${c.table}.${c.column}`,
      scanned: 0,
      resealed: 0,
      changedMeanwhile: 0,
      unreadable: 0,
    };
    for await (const page of sealedRows(values, c)) {
      for (const row of page) {
        result.scanned++;
        let next: string | null;
        try {
          next = box.reseal(row.value, row.context);
        } catch {
          // Its key is not configured (MissingMasterKeyError) or the value is damaged.
          result.unreadable++;
          continue;
        }
        if (next === null) continue;
        if (await values.replace(c, row.id, row.value, next)) result.resealed++;
        else result.changedMeanwhile++;
      }
    }
    out.push(result);
  }
  return out;
}
