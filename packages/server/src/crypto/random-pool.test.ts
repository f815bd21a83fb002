import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RandomPool } from './random-pool.js';

describe('random pool', () => {
  it('makes distinct 16-byte base64url nonces across refills', () => {
    const pool = new RandomPool(16 * 256);
    const seen = new Set(Array.from({ length: 1000 }, () => pool.text(16, 'base64url')));
    assert.equal(seen.size, 1000);
    for (const n of seen) assert.match(n, /^[A-Za-z0-9_-]{22}$/);
  });

  it('fills distinct bytes across refills, also for draws larger than the pool', () => {
    const pool = new RandomPool(64);
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const b = Buffer.alloc(10);
      pool.fill(b, 2, 6);
      assert.deepEqual([...b.subarray(0, 2), ...b.subarray(8)], [0, 0, 0, 0], 'only the asked bytes are written');
      seen.add(b.toString('hex'));
    }
    assert.equal(seen.size, 100);
    assert.equal(pool.text(100, 'hex').length, 200);
  });
});
