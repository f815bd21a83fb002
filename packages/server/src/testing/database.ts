import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';

/** The backend the suite runs on: TEST_BACKEND=sqlite (default) or postgres. */
export function testBackend(): DialectName {
  return process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A fresh, empty database for one test file: a new SQLite file in a temp
 * folder, or a new schema in the PostgreSQL test database. Dropped on close.
 */
export async function freshDatabase(): Promise<{ database: Database; url?: string; schema?: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-test-'));
  if (testBackend() === 'sqlite') {
    const database = openDatabase({ sqliteFile: path.join(dataDir, 'platform.db') });
    const close = database.close;
    database.close = async () => {
      await close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    return { database, dataDir };
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = openDatabase({ url: TEST_DATABASE_URL, schema, poolSize: 10 });
  const close = database.close;
  database.close = async () => {
    await close();
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { database, url: TEST_DATABASE_URL, schema, dataDir };
}

/** Another connection (pool) to a database of freshDatabase(): what a restarted service opens. Closing it keeps the data. */
export function reopenDatabase(fresh: { schema?: string; dataDir: string }): Database {
  return fresh.schema
    ? openDatabase({ url: TEST_DATABASE_URL, schema: fresh.schema, poolSize: 5 })
    : openDatabase({ sqliteFile: path.join(fresh.dataDir, 'platform.db') });
}
