import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  buildMacAuthorization,
  macSign,
  macSignBase,
  macVerify,
  MacHeaderError,
  MAX_MAC_HEADER_LENGTH,
  parseMacAuthorization,
  type MacHeaderFailure,
} from './mac.js';
import { loadVectors, type MacVector } from './vectors.testlib.js';

const vectors = loadVectors<MacVector>('mac');

test('mac vectors: sign base, mac, header', async (t) => {
  for (const v of vectors) {
    await t.test(v.description, () => {
      const input = { ts: v.ts, nonce: v.nonce, method: v.method, uri: v.uri, host: v.host, port: v.port };
      assert.equal(macSignBase(input), v.signBase);
      assert.equal(macSign(input, v.macKey), v.mac);
      assert.ok(macVerify(input, v.macKey, v.mac));
      assert.ok(!macVerify(input, `${v.macKey}x`, v.mac));
      const header = buildMacAuthorization({
        kid: v.kid,
        macKey: v.macKey,
        method: v.method,
        uri: v.uri,
        host: v.host,
        port: v.port,
        ts: Number(v.ts),
        nonce: v.nonce,
      });
      assert.equal(header, v.header);
      assert.deepEqual(parseMacAuthorization(v.header), { id: v.kid, ts: String(v.ts), nonce: v.nonce, mac: v.mac });
    });
  }
});

test('buildMacAuthorization defaults: port 443, ts now, 16-byte base64url nonce', () => {
  const before = Math.floor(Date.now() / 1000);
  const h = buildMacAuthorization({ kid: 'k', macKey: 'm', method: 'GET', uri: '/x', host: 'h' });
  const c = parseMacAuthorization(h);
  assert.match(c.nonce, /^[A-Za-z0-9_-]{22}$/);
  assert.ok(Number(c.ts) >= before && Number(c.ts) <= before + 2);
  assert.ok(macVerify({ ts: c.ts, nonce: c.nonce, method: 'GET', uri: '/x', host: 'h', port: 443 }, 'm', c.mac));
  assert.ok(!macVerify({ ts: c.ts, nonce: c.nonce, method: 'GET', uri: '/x', host: 'h', port: 80 }, 'm', c.mac));
});

test('macSignBase rejects values containing a line feed; macVerify never throws', () => {
  const i = { ts: 1, nonce: 'a\nb', method: 'GET', uri: '/', host: 'h', port: 443 };
  assert.throws(() => macSignBase(i), TypeError);
  assert.equal(macVerify(i, 'k', 'x'.repeat(28)), false);
  const ok = { ...i, nonce: 'ab' };
  for (const g of ['', 'AAAA', macSign(ok, 'k').toLowerCase(), null, undefined, 7, {}]) {
    assert.equal(macVerify(ok, 'k', g as unknown as string), false);
  }
});

test('parseMacAuthorization: tolerant forms', () => {
  const want = { id: 'a', ts: '1', nonce: 'n', mac: 'm=' };
  for (const h of [
    'MAC id="a",ts="1",nonce="n",mac="m="',
    'mac  mac = "m=" , nonce="n",ts ="1",  id= "a"  ',
    '\tMaC id="a",\tts="1",nonce="n",mac="m=",ext="ignored",other=""',
    'MAC ID="a",TS="1",Nonce="n",MAC="m="',
    '  MAC id="a",ts="1",nonce="n",mac="m="',
  ]) {
    assert.deepEqual(parseMacAuthorization(h), want, h);
  }
  assert.deepEqual(parseMacAuthorization('MAC id="a\\"b\\\\c",ts="1",nonce="n",mac="m"'), {
    id: 'a"b\\c',
    ts: '1',
    nonce: 'n',
    mac: 'm',
  });
});

function reasonOf(h: string | undefined): MacHeaderFailure | 'ok' {
  try {
    parseMacAuthorization(h);
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof MacHeaderError);
    assert.ok(e.message.includes(e.reason), e.message);
    return e.reason;
  }
}

test('parseMacAuthorization: every error reason', () => {
  const full = 'id="a",ts="1",nonce="n",mac="m"';
  const cases: [string | undefined, MacHeaderFailure][] = [
    [undefined, 'missing'],
    ['', 'missing'],
    ['   ', 'missing'],
    ['Bearer abc', 'scheme'],
    [`MACX ${full}`, 'scheme'],
    [`HMAC ${full}`, 'scheme'],
    [`"MAC" ${full}`, 'scheme'],
    [`MAC ${full},x="${'a'.repeat(4096)}"`, 'malformed'],
    ['MAC,id="a"', 'malformed'],
    ['MAC id=a,ts="1",nonce="n",mac="m"', 'malformed'],
    ['MAC id="a,ts="1",nonce="n",mac="m"', 'malformed'],
    [`MAC ${full},`, 'malformed'],
    [`MAC ${full} x`, 'malformed'],
    ['MAC id="a" ts="1",nonce="n",mac="m"', 'malformed'],
    ['MAC id"a",ts="1",nonce="n",mac="m"', 'malformed'],
    ['MAC id="a",,ts="1",nonce="n",mac="m"', 'malformed'],
    ['MAC id="a\nb",ts="1",nonce="n",mac="m"', 'malformed'],
    ['MAC id="a\\', 'malformed'],
    ['MAC =""', 'malformed'],
    [`MAC ${full},id="b"`, 'duplicate'],
    [`MAC ${full},MAC="x"`, 'duplicate'],
    [`MAC ${full},x="1",x="2"`, 'duplicate'],
    ['MAC', 'missing_param'],
    ['MAC   ', 'missing_param'],
    ['MAC id="a",ts="1",nonce="n"', 'missing_param'],
    ['MAC id="",ts="1",nonce="n",mac="m"', 'missing_param'],
    ['MAC id="a",ts="1",nonce="n",mac=""', 'missing_param'],
  ];
  for (const [h, reason] of cases) assert.equal(reasonOf(h), reason, JSON.stringify(h));
  const longest = `MAC ${full},x="${'a'.repeat(4096 - 40)}"`;
  assert.equal(longest.length, 4096);
  assert.equal(MAX_MAC_HEADER_LENGTH, 4096);
  assert.equal(reasonOf(longest), 'ok');
});

// ---- property tests ----

const safeValue = fc.string({
  unit: fc.constantFrom(...'abcXYZ019+/=-_.~ "\\,:'.split('')),
  minLength: 1,
  maxLength: 24,
});
const space = fc.constantFrom('', ' ', '  ', '\t', ' \t ');
const quote = (v: string): string => `"${v.replace(/["\\]/g, (m) => `\\${m}`)}"`;
const NAMES = ['id', 'ts', 'nonce', 'mac'] as const;

function randomCase(s: string, bits: number): string {
  return [...s].map((c, i) => ((bits >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
}

const headerParts = fc.record({
  values: fc.tuple(safeValue, safeValue, safeValue, safeValue),
  order: fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
  spaces: fc.array(space, { minLength: 16, maxLength: 16 }),
  caseBits: fc.nat(7),
  lead: space,
});

interface HeaderParts {
  values: [string, string, string, string];
  order: number[];
  spaces: string[];
  caseBits: number;
  lead: string;
}

function assemble(p: HeaderParts, extra: string[] = []): string {
  const sp = (i: number): string => p.spaces[i % p.spaces.length]!;
  const params = p.order.map((n, j) => `${NAMES[n]!}${sp(j)}=${sp(j + 4)}${quote(p.values[n]!)}`);
  return `${p.lead}${randomCase('MAC', p.caseBits)} ${sp(8)}${[...params, ...extra].join(`${sp(9)},${sp(10)}`)}${sp(11)}`;
}

test('property: parse(build(x)) round-trips in any order with random spacing', () => {
  fc.assert(
    fc.property(headerParts, (p) => {
      const [id, ts, nonce, mac] = p.values;
      assert.deepEqual(parseMacAuthorization(assemble(p)), { id, ts, nonce, mac });
    }),
  );
  fc.assert(
    fc.property(
      safeValue,
      safeValue,
      fc.integer({ min: 0, max: 2 ** 40 }),
      safeValue,
      fc.string(),
      (kid, macKey, ts, nonce, uri) => {
        const o = { kid, macKey, method: 'GET', uri: `/${uri.replace(/\n/g, '')}`, host: 'h.example', ts, nonce };
        const c = parseMacAuthorization(buildMacAuthorization(o));
        assert.deepEqual([c.id, c.ts, c.nonce], [kid, String(ts), nonce]);
        assert.ok(macVerify({ ...o, ts: c.ts, port: 443 }, macKey, c.mac));
      },
    ),
  );
});

test('property: a duplicated parameter is rejected as duplicate', () => {
  fc.assert(
    fc.property(headerParts, fc.constantFrom(...NAMES), fc.nat(31), safeValue, (p, name, bits, v) => {
      const h = assemble(p, [`${randomCase(name, bits)}=${quote(v)}`]);
      assert.equal(reasonOf(h), 'duplicate');
    }),
  );
});
