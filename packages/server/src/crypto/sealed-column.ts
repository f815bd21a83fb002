import type { Tables } from '../db/tables.js';

/**
 * A column that holds values sealed by the SecretBox: its table, primary key,
 * and how a row's sealing context is made (the associated data that binds a
 * value to its row). Each domain declares its own beside the code that seals.
 */
export interface SealedColumn {
  table: keyof Tables & string;
  id: string;
  column: string;
  /** Columns `context` reads, besides the id and the value. */
  contextColumns: string[];
  context(row: Record<string, unknown>): string;
}
