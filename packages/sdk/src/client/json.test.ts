import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stringifyJson } from '../index.js';
import { checkInt64 } from './json.js';

describe('stringifyJson', () => {
  it('writes bigints as exact number literals, everything else as JSON.stringify', () => {
    const v = {
      a: 9007199254740993n,
      b: [-9223372036854775808n, 1n],
      s: '9007199254740993',
      n: 1.5,
      nested: { x: null },
    };
    assert.equal(
      stringifyJson(v),
      '{"a":9007199254740993,"b":[-9223372036854775808,1],"s":"9007199254740993","n":1.5,"nested":{"x":null}}',
    );
    assert.equal(stringifyJson({ s: '__int64_not_a_marker_5' }), '{"s":"__int64_not_a_marker_5"}');
    assert.equal(stringifyJson(5n), '5');
  });
});

describe('checkInt64', () => {
  it('passes bigints, decimal strings and safe integers unchanged; refuses the rest', () => {
    assert.equal(checkInt64(2n ** 63n - 1n, 'x'), 2n ** 63n - 1n);
    assert.equal(checkInt64('-9223372036854775808', 'x'), '-9223372036854775808');
    assert.equal(checkInt64(42, 'x'), 42);
    for (const bad of ['9223372036854775808', '01', '1.0', '', ' 1', 'abc'])
      assert.throws(() => checkInt64(bad, 'f'), /f:/);
    assert.throws(() => checkInt64(2n ** 63n, 'f'), RangeError);
    assert.throws(() => checkInt64(1.5, 'f'), TypeError);
    assert.throws(() => checkInt64(2 ** 53, 'f'), TypeError);
  });
});
