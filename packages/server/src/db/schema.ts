/**
 * The row types live in src/tables.ts (db/ depends on no domain). This re-export serves auth/ and reporting/ until
 * they import from there.
 */
export type { Tables } from '../tables.js';
