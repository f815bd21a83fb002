import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exponentOf, minorToNumber, minorToText, toMinor } from './money.js';
import { canTransition } from './status.js';

describe('money in minor units', () => {
  it('knows the ISO 4217 exponents', () => {
    assert.deepEqual(['USD', 'JPY', 'KWD', 'CLF', 'EUR', 'KRW'].map(exponentOf), [2, 0, 3, 4, 2, 0]);
  });

  it('reads numbers and decimal strings exactly, trailing zeros allowed', () => {
    assert.equal(toMinor('a', 6.99, 'USD'), 699);
    assert.equal(toMinor('a', 0.1, 'USD'), 10);
    assert.equal(toMinor('a', '19.90', 'USD'), 1990);
    assert.equal(toMinor('a', '120.00', 'JPY'), 120);
    assert.equal(toMinor('a', 1.005, 'KWD'), 1005);
    assert.equal(toMinor('a', 0, 'USD'), 0);
    assert.equal(toMinor('a', 1e3, 'USD'), 100000);
  });

  it('refuses more decimals than the currency has, negatives and non-decimals', () => {
    assert.throws(() => toMinor('price', 1.001, 'USD'), /price: has more decimals than USD allows \(2/);
    assert.throws(() => toMinor('price', 0.5, 'JPY'), /more decimals than JPY/);
    assert.throws(() => toMinor('price', 1e-9, 'USD'), /more decimals/);
    assert.throws(() => toMinor('price', -1, 'USD'), /non-negative/);
    assert.throws(() => toMinor('price', '1e3', 'USD'), /decimal amount/);
    assert.throws(() => toMinor('price', Number.NaN, 'USD'), /decimal amount/);
    assert.throws(() => toMinor('price', 1e20, 'USD'), /too large/);
  });

  it('writes minor units as exact JSON numbers', () => {
    assert.equal(minorToText(699, 'USD'), '6.99');
    assert.equal(minorToText(5, 'USD'), '0.05');
    assert.equal(minorToText(1250, 'KWD'), '1.250');
    assert.equal(minorToText(120, 'JPY'), '120');
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004; from minor units it is 0.3.
    assert.equal(JSON.stringify({ a: minorToNumber(10 + 20, 'USD') }), '{"a":0.3}');
    assert.equal(JSON.stringify(minorToNumber(999_999_999_999_999, 'USD')), '9999999999999.99');
    for (let minor = 0; minor < 3000; minor += 7)
      assert.equal(String(minorToNumber(minor, 'USD')), String(Number(minorToText(minor, 'USD'))));
  });
});

describe('order status machine (2.7, docs/orders.md)', () => {
  it('allows exactly the documented transitions', () => {
    const allowed = [
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 0],
      [2, 3],
      [2, 4],
    ];
    for (const from of [0, 1, 2, 3, 4]) {
      for (const to of [0, 1, 2, 3, 4]) {
        assert.equal(
          canTransition(from, to),
          allowed.some(([f, t]) => f === from && t === to),
          `${from} -> ${to}`,
        );
      }
    }
  });
});
