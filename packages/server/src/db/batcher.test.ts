import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Batcher } from './batcher.js';

interface Item {
  lockKey: string;
  n: number;
}
const byKey = { lockKey: (i: Item) => i.lockKey, retryAlone: true };

/** The batching rules of group commit (the SQL of the batches is tested through 4.1, 4.6 and the nonces on both backends). */
describe('batcher', () => {
  it('writes concurrent items together and answers each with its own result', async () => {
    const batches: number[][] = [];
    const gc = new Batcher<Item, number>(
      async (items) => {
        batches.push(items.map((i) => i.n));
        return items.map((i) => i.n * 10);
      },
      { maxBatch: 100, maxInFlight: 1, ...byKey },
    );
    const results = await Promise.all([1, 2, 3, 4].map((n) => gc.submit({ lockKey: `k${n}`, n })));
    assert.deepEqual(results, [10, 20, 30, 40]);
    assert.deepEqual(batches, [[1, 2, 3, 4]]);
  });

  it('never puts two items with one lock key in the same or concurrent batches', async () => {
    let running = new Set<string>();
    const batches: number[][] = [];
    const gc = new Batcher<Item, number>(
      async (items) => {
        for (const i of items) {
          assert.ok(!running.has(i.lockKey), 'concurrent with its own key');
          running.add(i.lockKey);
        }
        batches.push(items.map((i) => i.n));
        await new Promise((r) => setTimeout(r, 5));
        for (const i of items) running.delete(i.lockKey);
        return items.map((i) => i.n);
      },
      { maxBatch: 100, maxInFlight: 3, ...byKey },
    );
    await Promise.all([1, 2, 3, 4, 5].map((n) => gc.submit({ lockKey: n % 2 ? 'odd' : 'even', n })));
    running = new Set();
    for (const b of batches) assert.ok(b.length <= 2);
    assert.deepEqual(batches.flat().sort(), [1, 2, 3, 4, 5]);
  });

  it('retries a failed batch item by item, so one bad item fails alone', async () => {
    const gc = new Batcher<Item, number>(
      async (items) => {
        if (items.some((i) => i.n === 2)) throw new Error('bad item');
        return items.map((i) => i.n);
      },
      { maxBatch: 100, maxInFlight: 1, ...byKey },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((n) => gc.submit({ lockKey: `k${n}`, n })));
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  it('without retryAlone, a failed batch fails all its items', async () => {
    const b = new Batcher<Item, number>(
      async (items) => {
        if (items.some((i) => i.n === 2)) throw new Error('bad item');
        return items.map((i) => i.n);
      },
      { maxBatch: 100, maxInFlight: 1 },
    );
    const settled = await Promise.allSettled([1, 2, 3].map((n) => b.submit({ lockKey: `k${n}`, n })));
    assert.deepEqual(
      settled.map((s) => s.status),
      ['rejected', 'rejected', 'rejected'],
    );
  });

  it('answers an Error result to its item alone', async () => {
    const b = new Batcher<Item, number>(async (items) => items.map((i) => (i.n === 2 ? new Error('no') : i.n)), {
      maxBatch: 100,
      maxInFlight: 1,
    });
    const settled = await Promise.allSettled([1, 2, 3].map((n) => b.submit({ lockKey: `k${n}`, n })));
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  it('keeps batches within maxBatch', async () => {
    const sizes: number[] = [];
    const gc = new Batcher<Item, number>(
      async (items) => {
        sizes.push(items.length);
        return items.map(() => 0);
      },
      { maxBatch: 3, maxInFlight: 1, ...byKey },
    );
    await Promise.all(Array.from({ length: 7 }, (_, n) => gc.submit({ lockKey: `k${n}`, n })));
    assert.deepEqual(sizes, [3, 3, 1]);
  });
});
