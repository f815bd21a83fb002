import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NonceSource } from './nonce-source.js';

describe('platform call nonces', () => {
  it('makes distinct 16-byte base64url nonces across refills', () => {
    const src = new NonceSource();
    const seen = new Set(Array.from({ length: 1000 }, () => src.next()));
    assert.equal(seen.size, 1000);
    for (const n of seen) assert.match(n, /^[A-Za-z0-9_-]{22}$/);
  });
});
