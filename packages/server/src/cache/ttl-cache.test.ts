import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('keeps a value (a miss too) until its read time plus the ttl', () => {
    let now = 1000;
    const cache = new TtlCache<string, number | null>(2000, () => now);
    cache.set('a', 1);
    cache.set('none', null);
    now = 2999;
    assert.deepEqual(cache.get('a')?.value, 1);
    assert.ok(cache.get('none'), 'a cached miss is an entry');
    now = 3000;
    assert.equal(cache.get('a'), undefined);
    cache.set('b', 2, 500);
    assert.equal(cache.get('b'), undefined, 'read at 500: stale at 2500');
  });

  it('caches nothing with a ttl of 0, and starts afresh past maxEntries', () => {
    const off = new TtlCache<string, number>(0);
    off.set('a', 1);
    assert.equal(off.get('a'), undefined);
    const small = new TtlCache<number, number>(60_000, Date.now, 2);
    small.set(1, 1);
    small.set(2, 2);
    small.set(3, 3);
    assert.equal(small.get(1), undefined);
    assert.equal(small.get(3)?.value, 3);
  });

  it('loads once for concurrent misses of a key', async () => {
    const cache = new TtlCache<string, number>(60_000);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return 7;
    };
    assert.deepEqual(
      await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load), cache.getOrLoad('k', load)]),
      [7, 7, 7],
    );
    assert.equal(loads, 1);
    assert.equal(await cache.getOrLoad('k', load), 7);
    assert.equal(loads, 1, 'then served from the cache');
  });

  it('does not keep a load that began before a delete', async () => {
    const cache = new TtlCache<string, string>(60_000);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const old = cache.getOrLoad('k', async () => {
      await gate;
      return 'before the change';
    });
    cache.delete('k');
    release();
    assert.equal(await old, 'before the change', 'its callers get what it read');
    assert.equal(cache.get('k'), undefined, 'but it is not cached');
    assert.equal(await cache.getOrLoad('k', async () => 'after'), 'after');
    cache.deleteWhere((v) => v === 'after');
    assert.equal(cache.get('k'), undefined);
  });
});
