import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkTimestamp, DEFAULT_WINDOW_SECONDS, parseUnixSeconds } from './time.js';

test('checkTimestamp: inclusive ±window, strings of digits or safe integers only', () => {
  const now = 1_700_000_000_000;
  assert.equal(DEFAULT_WINDOW_SECONDS, 300);
  assert.ok(checkTimestamp('1700000000', 300, now));
  assert.ok(checkTimestamp(1_700_000_300, 300, now));
  assert.ok(checkTimestamp('1699999700', 300, now));
  assert.ok(!checkTimestamp('1700000301', 300, now));
  assert.ok(!checkTimestamp('1699999699', 300, now));
  assert.ok(checkTimestamp('1700000000', 0, now + 0));
  for (const bad of [
    '',
    ' 1700000000',
    '1700000000 ',
    '+1700000000',
    '-1',
    '1.5',
    '1e9',
    '0x10',
    '1'.repeat(16),
    NaN,
    1.5,
    -1,
    Infinity,
  ]) {
    assert.ok(!checkTimestamp(bad as string | number, 1e12, now), String(bad));
  }
  assert.ok(!checkTimestamp('1700000000', -1, now));
  assert.ok(!checkTimestamp('1700000000', NaN, now));
  assert.ok(!checkTimestamp('1700000000', 300, NaN));
  assert.equal(parseUnixSeconds('0042'), 42);
});

test('property: checkTimestamp agrees with |ts*1000 - now| <= window*1000', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.integer({ min: 0, max: 10_000 }),
      (ts, now, w) => {
        assert.equal(checkTimestamp(String(ts), w, now), Math.abs(ts * 1000 - now) <= w * 1000);
        assert.equal(checkTimestamp(ts, w, now), checkTimestamp(String(ts), w, now));
      },
    ),
  );
});
