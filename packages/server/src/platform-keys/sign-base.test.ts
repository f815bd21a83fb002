import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callbackSignBase } from '@game-platform/sdk';
import { NonceSource, signBaseText } from './sign-base.js';

describe('platform call sign base', () => {
  it('is byte for byte the SDK\'s (5.3), query stripped, any body', () => {
    for (const c of [
      { method: 'post', path: '/pay/callback', timestamp: '1760000000', nonce: 'abc', body: '{"notifyId":1,"name":"Zoë ✓"}' },
      { method: 'GET', path: '/role?roleId=1&serverId=s1', timestamp: '1', nonce: 'n-_', body: '' },
      { method: 'POST', path: '/x', timestamp: '2', nonce: 'n', body: 'line\nbreaks\n' },
    ]) {
      assert.deepEqual(Buffer.from(signBaseText(c), 'utf8'), callbackSignBase(c));
    }
    assert.throws(() => signBaseText({ method: 'POST', path: '/a\nb', timestamp: '1', nonce: 'n', body: '' }), /line feed/);
  });

  it('makes distinct 16-byte base64url nonces across refills', () => {
    const src = new NonceSource();
    const seen = new Set(Array.from({ length: 1000 }, () => src.next()));
    assert.equal(seen.size, 1000);
    for (const n of seen) assert.match(n, /^[A-Za-z0-9_-]{22}$/);
  });
});
