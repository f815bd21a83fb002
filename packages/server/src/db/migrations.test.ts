import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from './database.js';
import { migrateToLatest, migrations } from './migrate.js';
import { TEST_DATABASE_URL } from '../testing/database.js';

async function shape(database: Database): Promise<Record<string, string[]>> {
  const tables = await database.db.introspection.getTables();
  return Object.fromEntries(
    tables
      // PostgreSQL's day partitions of the history tables (db/partitions.ts) are its own; their parents are compared.
      .filter((t) => !t.name.startsWith('kysely_') && !/_p(\d{8}|default)$/.test(t.name))
      .filter((t) => database.schema === undefined || t.schema === database.schema)
      .map((t) => [t.name, t.columns.map((c) => c.name).sort()])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

describe('migrations', () => {
  it('are numbered in order', () => {
    const names = Object.keys(migrations);
    assert.deepEqual(names, [...names].sort());
    // Numbers are handed out per area up front, so a branch may have gaps (0005 before 0003 lands); never duplicates.
    names.forEach((n) => assert.match(n, /^[0-9]{4}_[a-z0-9_]+$/));
    assert.equal(new Set(names.map((n) => n.slice(0, 4))).size, names.length);
  });

  it('give SQLite and PostgreSQL the same tables and columns, and apply once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-mig-'));
    const sqlite = openDatabase({ sqliteFile: path.join(dir, 'm.db') });
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const postgres = openDatabase({ url: TEST_DATABASE_URL, schema });
    try {
      const applied = await migrateToLatest(sqlite);
      assert.equal(applied.length, Object.keys(migrations).length);
      assert.equal((await migrateToLatest(sqlite)).length, 0, 'a second run applies nothing');
      await migrateToLatest(postgres);
      assert.deepEqual(await shape(sqlite), await shape(postgres));
    } finally {
      await sqlite.close();
      await postgres.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('introspect PostgreSQL without failing while other schemas are dropped (several instances, test files)', async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const database = openDatabase({ url: TEST_DATABASE_URL });
    try {
      const churn = (async () => {
        for (let i = 0; i < 30; i++) {
          const doomed = `t_churn_${crypto.randomBytes(5).toString('hex')}`;
          await admin.query(`create schema ${doomed}; create table ${doomed}.t (id serial primary key, a text)`);
          await admin.query(`drop schema ${doomed} cascade`);
        }
      })();
      let reads = 0;
      const reading = (async () => {
        for (let i = 0; i < 60; i++) {
          await database.db.introspection.getTables({ withInternalKyselyTables: true });
          reads++;
        }
      })();
      await Promise.all([churn, reading]);
      assert.equal(reads, 60);
    } finally {
      await database.close();
      await admin.end();
    }
  });
});
