import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AppError } from '../errors/app-error.js';
import { parseJsonBody } from './json-body.js';

describe('JSON body parsing', () => {
  it('parses ordinary JSON like JSON.parse', () => {
    // Long integers and prototype-polluting keys are left to the tests below (fast-check favours `__proto__` keys).
    const ordinary = (t: string) => !/\d{16}/.test(t) && !/"(__proto__|prototype)":/.test(t);
    fc.assert(
      fc.property(
        fc
          .jsonValue()
          .map((v) => JSON.stringify(v))
          .filter(ordinary),
        (text) => {
          assert.deepEqual(parseJsonBody(text), JSON.parse(text));
        },
      ),
    );
  });

  it('reads integers past 2^53 as their exact decimal strings, leaving strings and safe numbers alone', () => {
    const body = parseJsonBody(
      '{"a":9007199254740993,"b":-18446744073709551615,"c":"12345678901234567890","d":123,"e":[1e300,12345678901234567.5],"f":"x\\"9007199254740993"}',
    ) as any;
    assert.equal(body.a, '9007199254740993');
    assert.equal(body.b, '-18446744073709551615');
    assert.equal(body.c, '12345678901234567890');
    assert.equal(body.d, 123);
    assert.deepEqual(body.e, [1e300, 12345678901234567.5]);
    assert.equal(body.f, 'x"9007199254740993');
  });

  it('keeps every bigint exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n }), (n) => {
        const parsed = parseJsonBody(`{"n":${n}}`) as { n: number | string };
        assert.equal(String(parsed.n), n.toString());
      }),
    );
  });

  it('refuses malformed and empty bodies with MALFORMED_JSON', () => {
    for (const text of ['', '{', '{"a":}', 'nul', '{"a":1}x']) {
      assert.throws(
        () => parseJsonBody(text),
        (e: unknown) => e instanceof AppError && e.reason === 'MALFORMED_JSON',
      );
    }
  });

  it('refuses prototype-polluting keys', () => {
    for (const text of ['{"__proto__":{"x":1}}', '{"a":{"constructor":{"prototype":{"x":1}}}}']) {
      assert.throws(
        () => parseJsonBody(text),
        (e: unknown) => e instanceof AppError && e.reason === 'INVALID_PARAMETER',
      );
    }
    assert.deepEqual(parseJsonBody('{"constructor":"fine"}'), { constructor: 'fine' });
  });
});
