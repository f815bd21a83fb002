import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freshDatabase } from '../testing/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/database.js';
import { NonceLedger } from './nonce-ledger.js';

describe('nonce ledger', () => {
  let database: Database;
  before(async () => {
    ({ database } = await freshDatabase());
    await migrateToLatest(database);
  });
  after(async () => {
    await database.close();
  });

  it('accepts a nonce once per scope', async () => {
    const store = new NonceLedger(database);
    assert.equal(await store.consume('a', 'n1', Date.now() + 1000), true);
    assert.equal(await store.consume('a', 'n1', Date.now() + 1000), false);
    assert.equal(await store.consume('b', 'n1', Date.now() + 1000), true);
  });

  it('lets exactly one of many concurrent uses of a nonce through, across two stores (instances)', async () => {
    const one = new NonceLedger(database);
    const two = new NonceLedger(database);
    const attempts = Array.from({ length: 50 }, (_, i) =>
      (i % 2 ? one : two).consume('race', 'same', Date.now() + 1000),
    );
    const others = Array.from({ length: 200 }, (_, i) => one.consume('race', `distinct-${i}`, Date.now() + 1000));
    const results = await Promise.all(attempts);
    assert.equal(results.filter(Boolean).length, 1);
    assert.ok((await Promise.all(others)).every(Boolean));
  });

  it('purges expired nonces only', async () => {
    const store = new NonceLedger(database);
    await store.consume('p', 'old', 1000);
    await store.consume('p', 'new', Date.now() + 60_000);
    assert.ok((await store.purgeExpired(Date.now())) >= 1);
    assert.equal(await store.consume('p', 'old', Date.now() + 1000), true, 'a purged nonce is past its window anyway');
    assert.equal(await store.consume('p', 'new', Date.now() + 1000), false);
  });
});
