import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from './database.js';
import { keyRead } from './key-read.js';

/**
 * SQLite's read at once (Database.readNow) runs only when no one holds Kysely's one connection: a key read made while
 * another request's transaction is open must not see that transaction's rows, committed or not, until it ends.
 */
describe('key read on SQLite', () => {
  it('reads at once when the connection is free, and waits behind an open transaction', async () => {
    const database = openDatabase({ sqliteFile: ':memory:' });
    try {
      const { db } = database;
      await sql`create table things (id integer primary key, name text not null)`.execute(db);
      await sql`insert into things (id, name) values (1, 'one')`.execute(db);
      const byId = keyRead<{ id: number; name: string }>(
        db,
        database,
        'things_by_id',
        'select * from things where id = $1',
      );

      assert.ok(database.readNow, 'SQLite reads at once');
      assert.deepEqual(database.readNow('select name from things where id = ?', [1]), [{ name: 'one' }]);
      assert.deepEqual(await byId(1), { id: 1, name: 'one' });
      assert.equal(await byId(2), undefined);

      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      const inserted = new Promise<void>((resolve) => {
        void db
          .transaction()
          .execute(async (trx) => {
            await sql`insert into things (id, name) values (2, 'two')`.execute(trx);
            resolve();
            await holding;
            throw new Error('rolled back');
          })
          .catch(() => {});
      });
      await inserted;
      assert.equal(database.readNow('select name from things where id = ?', [2]), undefined, 'held: not at once');
      let seen: unknown = 'pending';
      const read = byId(2).then((row) => (seen = row));
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(seen, 'pending', 'the read waits for the transaction to end');
      release();
      await read;
      assert.equal(seen, undefined, 'the rolled-back row was never seen');
      assert.deepEqual(database.readNow('select count(*) as n from things', []), [{ n: 1 }], 'free again');
    } finally {
      await database.close();
    }
  });
});
