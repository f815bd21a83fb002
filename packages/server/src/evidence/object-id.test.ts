import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ObjectIdSigner } from './object-id.js';

/** Self-authenticating object ids: what 4.1 relies on to refuse addresses this service did not issue. */
describe('evidence object ids', () => {
  const ids = new ObjectIdSigner([crypto.randomBytes(32)]);
  const prefix = 'https://game.example/svc/reporting/open/v1/';
  const facts = {
    appId: 42,
    backend: 'embedded' as const,
    size: 20 * 1024 * 1024,
    expires: 1_900_000_000,
    svcid: undefined,
  };

  it('round-trips the facts and verifies its own tag', () => {
    const key = ids.issue(prefix, facts, 'png');
    assert.match(key, /^evidence\/42\/[0-9a-f]{64}\.png$/);
    const a = ids.parse(prefix + key)!;
    assert.deepEqual(
      {
        appId: a.appId,
        backend: a.backend,
        size: a.size,
        expires: a.expires,
        bound: a.bound,
        ext: a.ext,
        key: a.key,
        prefix: a.prefix,
      },
      {
        appId: 42,
        backend: 'embedded',
        size: facts.size,
        expires: facts.expires,
        bound: false,
        ext: 'png',
        key,
        prefix,
      },
    );
    assert.ok(ids.verify(a, undefined));
    assert.notEqual(ids.issue(prefix, facts, 'png'), key, 'each id is new');
  });

  it('breaks when any part of the address changes', () => {
    const uri = prefix + ids.issue(prefix, { ...facts, backend: 's3' }, 'mp4');
    const [head, tag] = [uri.slice(-68, -36), uri.slice(-36, -4)];
    const flip = (hex: string, i: number) => hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1);
    const forged = [
      uri.replace('https://game.example', 'https://evil.example'),
      uri.replace('/evidence/42/', '/evidence/43/'),
      uri.replace('.mp4', '.txt'),
      uri.replace(head, flip(head, 3)), // the size
      uri.replace(head, flip(head, 0)), // the flags
      uri.replace(tag, flip(tag, 31)),
    ];
    assert.ok(ids.verify(ids.parse(uri)!, undefined));
    for (const f of forged) {
      const a = ids.parse(f);
      assert.ok(a && !ids.verify(a, undefined), f);
    }
    const other = new ObjectIdSigner([crypto.randomBytes(32)]);
    assert.ok(!other.verify(ids.parse(uri)!, undefined), 'another master key');
  });

  it('verifies addresses tagged under a previous master key during a rotation, and tags new ones under the current', () => {
    const [oldKey, newKey] = [crypto.randomBytes(32), crypto.randomBytes(32)];
    const before = new ObjectIdSigner([oldKey]);
    const during = new ObjectIdSigner([newKey, oldKey]);
    const after = new ObjectIdSigner([newKey]);
    const issuedBefore = before.parse(prefix + before.issue(prefix, facts, 'png'))!;
    const issuedDuring = during.parse(prefix + during.issue(prefix, facts, 'png'))!;
    assert.ok(during.verify(issuedBefore, undefined));
    assert.ok(!after.verify(issuedBefore, undefined), 'the retired key no longer verifies');
    assert.ok(after.verify(issuedDuring, undefined));
    assert.ok(!before.verify(issuedDuring, undefined));
  });

  it('binds the svcid given to 4.2', () => {
    const a = ids.parse(prefix + ids.issue(prefix, { ...facts, svcid: 'p-1' }, 'png'))!;
    assert.ok(a.bound);
    assert.ok(ids.verify(a, 'p-1'));
    assert.ok(!ids.verify(a, 'p-2'));
    assert.ok(!ids.verify(a, undefined));
  });

  it('parses nothing else', () => {
    for (const s of [
      '',
      'https://x/evidence/1/abc.png',
      `${prefix}evidence/1/${'0'.repeat(32)}.png`,
      `${prefix}evidence/1/${'0'.repeat(64)}.png?x=1`,
      `${prefix}evidence/x/${'0'.repeat(64)}.png`,
    ]) {
      assert.equal(ids.parse(s), undefined, s);
    }
  });
});
