import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { canonicalPairs, canonicalParams, md5Sign, md5Verify, MAX_SIGN_DEPTH, type SignableValue } from './md5.js';
import { loadVectors, type Md5Vector } from './vectors.testlib.js';

const vectors = loadVectors<Md5Vector>('md5');

test('md5 vectors: canonical string and sign', async (t) => {
  for (const v of vectors) {
    await t.test(v.description, () => {
      assert.equal(canonicalParams(v.params), v.canonical);
      assert.equal(md5Sign(v.params, v.secret), v.sign);
      assert.ok(md5Verify(v.params, v.secret, v.sign));
      assert.ok(md5Verify(v.params, v.secret, v.sign.toUpperCase()));
      assert.ok(!md5Verify(v.params, `${v.secret}x`, v.sign));
      for (const k of v.bigintKeys ?? []) {
        const withBig = { ...v.params, [k]: BigInt(v.params[k] as string) };
        assert.equal(md5Sign(withBig, v.secret), v.sign, `bigint ${k}`);
      }
    });
  }
});

test('md5: the dot-path query form and the nested JSON form of 4.2 sign the same', () => {
  const [q, j] = [vectors[2]!, vectors[3]!];
  assert.equal(q.canonical, j.canonical);
  assert.equal(q.sign, j.sign);
});

test('md5: number 2^53+1 loses precision, bigint and string do not', () => {
  assert.equal(canonicalParams({ n: 2n ** 53n + 1n }), 'n=9007199254740993');
  assert.equal(canonicalParams({ n: '9007199254740993' }), 'n=9007199254740993');
  assert.equal(canonicalParams({ n: 2 ** 53 + 1 }), 'n=9007199254740992');
});

test('md5: rejects what cannot be signed with TypeError; md5Verify gives false instead', () => {
  const bad: Record<string, SignableValue>[] = [
    { n: NaN },
    { n: Infinity },
    { a: { n: -Infinity } },
    { 'a.b': 1, a: { b: 2 } },
    { d: new Date(0) as unknown as SignableValue },
    { f: (() => 1) as unknown as SignableValue },
    { s: Symbol('x') as unknown as SignableValue },
  ];
  let deep: SignableValue = 'x';
  for (let i = 0; i <= MAX_SIGN_DEPTH; i++) deep = { d: deep };
  bad.push({ deep });
  const cyclic: Record<string, SignableValue> = {};
  cyclic['self'] = cyclic;
  bad.push(cyclic);
  for (const p of bad) {
    assert.throws(() => canonicalParams(p), TypeError);
    assert.equal(md5Verify(p, 's', '0'.repeat(32)), false);
  }
});

test('md5Verify: wrong shapes of sign are false, never thrown', () => {
  const p = { a: '1' };
  const good = md5Sign(p, 's');
  for (const g of [
    '',
    good.slice(1),
    `${good}0`,
    ` ${good}`,
    good.replace(/./, 'g'),
    '\u00e9'.repeat(32),
    null,
    undefined,
    42,
    {},
    [],
  ]) {
    assert.equal(md5Verify(p, 's', g as unknown as string), false);
  }
});

// ---- property tests ----

const keyArb = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
  .filter((k) => !k.includes('.') && k !== 'sign' && k !== '__proto__');
const leafArb: fc.Arbitrary<SignableValue> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer(),
  fc.bigInt(),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(null, undefined),
);
const { tree } = fc.letrec<{ tree: SignableValue }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.dictionary(keyArb, tie('tree'), { maxKeys: 3 }),
  ),
}));
const paramsArb = fc.dictionary(keyArb, tree, { maxKeys: 6 });
const secretArb = fc.string({ unit: 'grapheme', maxLength: 16 });

function reorder(v: SignableValue): SignableValue {
  if (Array.isArray(v)) return v.map(reorder);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reorder(x)]),
    );
  }
  return v;
}

/** Reference flattening written independently for the test. */
function explicitFlat(v: Record<string, SignableValue>): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (prefix: string, x: SignableValue): void => {
    if (x === null || x === undefined) return;
    if (typeof x === 'object') {
      for (const [k, y] of Object.entries(x)) walk(`${prefix}.${k}`, y);
    } else out[prefix] = String(x);
  };
  for (const [k, x] of Object.entries(v)) walk(k, x);
  return out;
}

test('property: canonical form does not depend on key insertion order', () => {
  fc.assert(
    fc.property(
      paramsArb.chain((p) => {
        const entries = Object.entries(p);
        return fc.tuple(
          fc.constant(p),
          fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }),
        );
      }),
      secretArb,
      ([p, shuffled], secret) => {
        const q = reorder(Object.fromEntries(shuffled)) as Record<string, SignableValue>;
        assert.equal(canonicalParams(q), canonicalParams(p));
        assert.equal(md5Sign(q, secret), md5Sign(p, secret));
      },
    ),
  );
});

test('property: a bigint and its decimal string sign the same', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), keyArb, secretArb, (b, k, s) => {
      assert.equal(md5Sign({ [k]: b }, s), md5Sign({ [k]: b.toString() }, s));
    }),
  );
});

test('property: unicode keys and values round-trip through the canonical string', () => {
  const safe = (x: string): boolean => !/[.&=]/.test(x);
  fc.assert(
    fc.property(
      fc.dictionary(keyArb.filter(safe), fc.string({ unit: 'grapheme', maxLength: 10 }).filter(safe), { maxKeys: 8 }),
      secretArb,
      (p, secret) => {
        const c = canonicalParams(p);
        const pairs = c === '' ? [] : c.split('&').map((kv) => kv.split('=') as [string, string]);
        assert.deepEqual(Object.fromEntries(pairs), { ...p });
        const keys = pairs.map(([k]) => k);
        const byCodePoint = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
        assert.deepEqual(keys, byCodePoint);
        assert.equal(
          md5Sign(p, secret),
          createHash('md5')
            .update(Buffer.from(c + secret, 'utf8'))
            .digest('hex'),
        );
      },
    ),
  );
});

test('property: nested/array flattening equals the explicit dot-path flat object', () => {
  fc.assert(
    fc.property(paramsArb, secretArb, (p, secret) => {
      const flat = explicitFlat(p);
      assert.equal(canonicalParams(p), canonicalParams(flat));
      assert.equal(md5Sign(p, secret), md5Sign(flat, secret));
    }),
  );
});

test('property: md5Verify accepts its own sign (any case) and rejects any change of a value or the secret', () => {
  fc.assert(
    fc.property(
      paramsArb,
      fc.dictionary(keyArb, fc.string({ maxLength: 8 }), { minKeys: 1, maxKeys: 5 }),
      secretArb,
      fc.nat(),
      (nested, flat, secret, pick) => {
        const p = { ...nested, ...flat };
        const sign = md5Sign(p, secret);
        assert.ok(md5Verify(p, secret, sign));
        assert.ok(md5Verify(p, secret, sign.toUpperCase()));
        const keys = Object.keys(flat);
        const k = keys[pick % keys.length]!;
        assert.ok(!md5Verify({ ...p, [k]: `${flat[k]}x` }, secret, sign));
        assert.ok(!md5Verify(p, `${secret}x`, sign));
      },
    ),
  );
});

test('property: garbage sign never throws', () => {
  fc.assert(
    fc.property(paramsArb, secretArb, fc.oneof(fc.string(), fc.anything()), (p, secret, garbage) => {
      const r = md5Verify(p, secret, garbage as string);
      assert.equal(typeof r, 'boolean');
      if (typeof garbage !== 'string') assert.equal(r, false);
    }),
  );
});

test('canonicalPairs: the sorted, flattened pairs behind canonicalParams', () => {
  assert.deepEqual(canonicalPairs({ b: 2, a: { y: [1, null, 'z'] }, sign: 'x' }), [
    ['a.y.0', '1'],
    ['a.y.2', 'z'],
    ['b', '2'],
  ]);
});
