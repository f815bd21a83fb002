import { sql, type Kysely } from 'kysely';
import type { Tables } from '../db/tables.js';
import type { SealedColumn } from '../crypto/sealed-column.js';

export interface SealedValue {
  id: unknown;
  value: string;
  context: string;
}

/**
 * The statements of a master key rotation (reseal.ts) on the sealed columns the domains declare (SEALED_COLUMNS):
 * a page of values in id order, and a compare-and-set rewrite of one value. The one place that writes other
 * domains' tables, and only the columns they declared sealed, never anything else of the row.
 */
export class SealedValuesRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Up to `limit` rows of `c` with a value, after the id `after` (undefined: from the start). */
  async page(c: SealedColumn, after: unknown, limit: number): Promise<SealedValue[]> {
    const rows = (
      await sql<Record<string, unknown>>`
      select ${sql.join([sql`${sql.ref(c.id)} as id`, sql`${sql.ref(c.column)} as value`, ...c.contextColumns.map((k) => sql.ref(k))])}
      from ${sql.table(c.table)}
      where ${sql.ref(c.column)} is not null${after === undefined ? sql`` : sql` and ${sql.ref(c.id)} > ${after}`}
      order by ${sql.ref(c.id)} limit ${limit}`.execute(this.db)
    ).rows;
    return rows.map((r) => ({ id: r.id, value: r.value as string, context: c.context(r) }));
  }

  /** Replaces the value of row `id` if it still holds `current`; answers whether it did. */
  async replace(c: SealedColumn, id: unknown, current: string, next: string): Promise<boolean> {
    const updated = await sql`update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${next}
      where ${sql.ref(c.id)} = ${id} and ${sql.ref(c.column)} = ${current}`.execute(this.db);
    return Number(updated.numAffectedRows ?? 0) === 1;
  }
}
