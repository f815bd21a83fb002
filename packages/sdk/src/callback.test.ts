import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import {
  buildCallbackHeaders,
  CALLBACK_HEADERS,
  callbackSignBase,
  callbackSignBaseText,
  CallbackVerificationError,
  signCallback,
  stripQuery,
  verifyCallback,
  type CallbackVerifyFailure,
  type VerifyCallbackOptions,
} from './callback.js';
import { loadVectors, vectorText, type RsaVector } from './vectors.testlib.js';

const vectors = loadVectors<RsaVector>('rsa');
const v0 = vectors[0]!;
const nowFor = (ts: string | number) => () => Number(ts) * 1000;

test('rsa vectors: sign base, signature, verification', async (t) => {
  for (const v of vectors) {
    await t.test(v.description, () => {
      const input = { method: v.method, path: v.path, timestamp: v.timestamp, nonce: v.nonce, body: v.body };
      assert.equal(callbackSignBase(input).toString('utf8'), v.signBase);
      assert.deepEqual(
        callbackSignBase({ ...input, body: Buffer.from(v.body, 'utf8') }),
        Buffer.from(v.signBase, 'utf8'),
      );
      assert.equal(callbackSignBaseText(input), v.signBase);
      assert.equal(signCallback(input, v.privateKeyPem), v.signature);
      assert.equal(signCallback(input, createPrivateKey(v.privateKeyPem)), v.signature);
      const got = verifyCallback({
        method: v.method,
        url: v.path,
        headers: v.headers,
        body: v.body,
        publicKeys: { [v.keyId]: v.publicKeyPem },
        now: nowFor(v.timestamp),
      });
      assert.deepEqual(got, { keyId: v.keyId, timestamp: Number(v.timestamp), nonce: v.nonce });
      const built = buildCallbackHeaders({
        method: v.method,
        path: v.path,
        body: v.body,
        privateKey: v.privateKeyPem,
        keyId: v.keyId,
        timestamp: Number(v.timestamp),
        nonce: v.nonce,
      });
      assert.deepEqual(built, v.headers);
    });
  }
});

test('rsa vectors: the committed PEM files are the key pair inside rsa.json', () => {
  for (const v of vectors) {
    assert.equal(v.privateKeyPem, vectorText('rsa-test-private.pem'));
    assert.equal(v.publicKeyPem, vectorText('rsa-test-public.pem'));
  }
  const derived = createPublicKey(v0.privateKeyPem).export({ type: 'spki', format: 'pem' });
  assert.equal(derived, v0.publicKeyPem);
});

test('callbackSignBaseText is callbackSignBase as text: query stripped, non-ASCII and line feeds in the body, LF in a value refused', () => {
  for (const c of [
    {
      method: 'post',
      path: '/pay/callback',
      timestamp: '1760000000',
      nonce: 'abc',
      body: '{"notifyId":1,"name":"Zoë ✓"}',
    },
    { method: 'GET', path: '/role?roleId=1&serverId=s1', timestamp: 1, nonce: 'n-_', body: '' },
    { method: 'POST', path: '/x', timestamp: '2', nonce: 'n', body: 'line\nbreaks\n' },
  ]) {
    assert.deepEqual(Buffer.from(callbackSignBaseText(c), 'utf8'), callbackSignBase(c));
  }
  assert.throws(
    () => callbackSignBaseText({ method: 'POST', path: '/a\nb', timestamp: '1', nonce: 'n', body: '' }),
    /line feed/,
  );
});

test('callbackSignBase: empty body gives a last line that is only LF; query is stripped', () => {
  const b = callbackSignBase({ method: 'get', path: '/r?x=1?y', timestamp: 5, nonce: 'n', body: '' });
  assert.equal(b.toString(), 'GET\n/r\n5\nn\n\n');
  const bytes = callbackSignBase({
    method: 'POST',
    path: '/p',
    timestamp: '5',
    nonce: 'n',
    body: new Uint8Array([0, 255, 10]),
  });
  assert.deepEqual(bytes, Buffer.concat([Buffer.from('POST\n/p\n5\nn\n'), Buffer.from([0, 255, 10, 10])]));
  assert.throws(
    () => callbackSignBase({ method: 'GET', path: '/p', timestamp: 5, nonce: 'a\nb', body: '' }),
    TypeError,
  );
});

// ---- verifyCallback error reasons ----

const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const base: VerifyCallbackOptions = {
  method: v0.method,
  url: v0.path,
  headers: v0.headers,
  body: v0.body,
  publicKeys: v0.publicKeyPem,
  now: nowFor(v0.timestamp),
};

function reasonOf(o: Partial<VerifyCallbackOptions>): CallbackVerifyFailure | 'ok' {
  try {
    verifyCallback({ ...base, ...o });
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof CallbackVerificationError, String(e));
    assert.ok(e.message.includes(e.reason));
    return e.reason;
  }
}

const H = CALLBACK_HEADERS;
const withHeaders = (h: Record<string, string | string[] | undefined>) => ({ headers: { ...v0.headers, ...h } });

test('verifyCallback: header lookup is case-insensitive; arrays of one value accepted', () => {
  const lower = Object.fromEntries(Object.entries(v0.headers).map(([k, x]) => [k.toLowerCase(), [x]]));
  assert.equal(reasonOf({ headers: lower }), 'ok');
  const upper = Object.fromEntries(Object.entries(v0.headers).map(([k, x]) => [k.toUpperCase(), x]));
  assert.equal(reasonOf({ headers: upper }), 'ok');
  assert.equal(reasonOf({ url: `${v0.path}?a=1&b=2` }), 'ok');
  assert.equal(reasonOf({ method: v0.method.toLowerCase() }), 'ok');
  assert.equal(reasonOf({ body: Buffer.from(v0.body) }), 'ok');
  assert.equal(reasonOf({ publicKeys: createPublicKey(v0.publicKeyPem) }), 'ok');
});

test('verifyCallback: every error reason', () => {
  const cases: [Partial<VerifyCallbackOptions>, CallbackVerifyFailure][] = [
    [withHeaders({ [H.timestamp]: undefined }), 'missing_header'],
    [withHeaders({ [H.nonce]: undefined }), 'missing_header'],
    [withHeaders({ [H.signature]: undefined }), 'missing_header'],
    [withHeaders({ [H.signature]: '' }), 'missing_header'],
    [withHeaders({ [H.nonce]: [] }), 'missing_header'],
    [{ headers: {} }, 'missing_header'],
    [withHeaders({ [H.timestamp]: '17e8' }), 'malformed_header'],
    [withHeaders({ [H.timestamp]: '-1700000000' }), 'malformed_header'],
    [withHeaders({ [H.timestamp]: '1700000000.5' }), 'malformed_header'],
    [withHeaders({ [H.timestamp]: ' 1700000000' }), 'malformed_header'],
    [withHeaders({ [H.timestamp]: '1'.repeat(16) }), 'malformed_header'],
    [withHeaders({ [H.signature]: 'not base64!' }), 'malformed_header'],
    [withHeaders({ [H.signature]: 'abc' }), 'malformed_header'],
    [withHeaders({ [H.signature]: 'A'.repeat(4096) }), 'malformed_header'],
    [withHeaders({ [H.signature]: v0.signature.replace(/\+/g, '-').replace(/\//g, '_') + '-' }), 'malformed_header'],
    [withHeaders({ [H.nonce]: ['a', 'b'] }), 'malformed_header'],
    [withHeaders({ [H.nonce]: 'a\u0001b' }), 'malformed_header'],
    [withHeaders({ [H.nonce]: 'n'.repeat(257) }), 'malformed_header'],
    [withHeaders({ nonce: 'again' }), 'malformed_header'],
    [{ now: () => (Number(v0.timestamp) + 301) * 1000 }, 'stale_timestamp'],
    [{ now: () => (Number(v0.timestamp) - 301) * 1000 }, 'stale_timestamp'],
    [{ now: () => (Number(v0.timestamp) + 61) * 1000, windowSeconds: 60 }, 'stale_timestamp'],
    [{ now: undefined }, 'stale_timestamp'],
    [{ publicKeys: { other: v0.publicKeyPem } }, 'unknown_key'],
    [{ publicKeys: {} }, 'unknown_key'],
    [{ publicKeys: {}, ...withHeaders({ [H.keyId]: undefined }) }, 'unknown_key'],
    [{ publicKeys: { [v0.keyId]: v0.publicKeyPem }, ...withHeaders({ [H.keyId]: 'toString' }) }, 'unknown_key'],
    [{ publicKeys: other.publicKey }, 'bad_signature'],
    [{ publicKeys: { [v0.keyId]: other.publicKey } }, 'bad_signature'],
    [{ body: `${v0.body} ` }, 'bad_signature'],
    [{ url: `${v0.path}/` }, 'bad_signature'],
    [{ method: 'PUT' }, 'bad_signature'],
    [withHeaders({ [H.nonce]: `${v0.nonce}x` }), 'bad_signature'],
    [{ ...withHeaders({ [H.timestamp]: String(Number(v0.timestamp) + 1) }) }, 'bad_signature'],
    [withHeaders({ [H.signature]: 'AAAA' }), 'bad_signature'],
  ];
  for (const [o, reason] of cases) assert.equal(reasonOf(o), reason, JSON.stringify(o, null, 0).slice(0, 200));
  assert.equal(reasonOf({ now: () => (Number(v0.timestamp) + 300) * 1000 }), 'ok');
  assert.equal(reasonOf({ now: () => (Number(v0.timestamp) - 300) * 1000 }), 'ok');
});

test('verifyCallback: key selection by Key-Id, single-entry map, or trying each key', () => {
  const noKid = withHeaders({ [H.keyId]: undefined }).headers;
  const map = { old: other.publicKey, [v0.keyId]: v0.publicKeyPem };
  const run = (o: Partial<VerifyCallbackOptions>) => verifyCallback({ ...base, ...o });
  assert.equal(run({ publicKeys: map }).keyId, v0.keyId);
  assert.equal(run({ publicKeys: map, headers: noKid }).keyId, v0.keyId);
  assert.equal(run({ publicKeys: { only: v0.publicKeyPem }, headers: noKid }).keyId, 'only');
  assert.equal(run({ publicKeys: v0.publicKeyPem, headers: noKid }).keyId, undefined);
  assert.equal(run({ publicKeys: v0.publicKeyPem }).keyId, v0.keyId);
  assert.equal(
    reasonOf({ publicKeys: { old: other.publicKey, older: other.publicKey }, headers: noKid }),
    'bad_signature',
  );
});

// ---- property tests ----

const pathArb = fc
  .array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 4 })
  .map((segs) => `/${segs.join('/')}`);
const nonceArb = fc.stringMatching(/^[A-Za-z0-9_-]{8,24}$/);
const T0 = 1_700_000_000;
const priv: KeyObject = createPrivateKey(v0.privateKeyPem);
const pub: KeyObject = createPublicKey(v0.publicKeyPem);

function flipChar(s: string, at: number, alphabet: string): string {
  const i = at % s.length;
  const c = s[i]!;
  const repl = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length]!;
  return s.slice(0, i) + repl + s.slice(i + 1);
}

const caseArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT'),
  path: pathArb,
  ts: fc.integer({ min: T0 - 299, max: T0 + 299 }),
  nonce: nonceArb,
  body: fc.uint8Array({ maxLength: 256 }),
  at: fc.nat(),
  xor: fc.integer({ min: 1, max: 255 }),
  tsDelta: fc.integer({ min: -200, max: 200 }).filter((d) => d !== 0),
  what: fc.constantFrom('body', 'path', 'timestamp', 'nonce', 'key', 'keyId'),
});

test('property: sign/verify round-trip with arbitrary bodies; any single change is rejected with the right reason', () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const headers = buildCallbackHeaders({
        method: c.method,
        path: c.path,
        body: c.body,
        privateKey: priv,
        keyId: 'k1',
        timestamp: c.ts,
        nonce: c.nonce,
      });
      const o: VerifyCallbackOptions = {
        method: c.method,
        url: c.path,
        headers,
        body: c.body,
        publicKeys: { k1: pub },
        now: () => T0 * 1000,
      };
      assert.deepEqual(verifyCallback(o), { keyId: 'k1', timestamp: c.ts, nonce: c.nonce });

      let changed: VerifyCallbackOptions;
      let want: CallbackVerifyFailure = 'bad_signature';
      switch (c.what) {
        case 'body': {
          const body = c.body.length === 0 ? new Uint8Array([c.xor]) : Uint8Array.from(c.body);
          if (c.body.length > 0) body[c.at % body.length]! ^= c.xor;
          changed = { ...o, body };
          break;
        }
        case 'path':
          changed = { ...o, url: flipChar(c.path, c.at, 'abcdefghijklmnopqrstuvwxyz0123456789_-/') };
          break;
        case 'timestamp':
          changed = { ...o, headers: { ...headers, [H.timestamp]: String(c.ts + c.tsDelta) } };
          if (Math.abs(c.ts + c.tsDelta - T0) > 300) want = 'stale_timestamp';
          break;
        case 'nonce':
          changed = {
            ...o,
            headers: {
              ...headers,
              [H.nonce]: flipChar(c.nonce, c.at, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'),
            },
          };
          break;
        case 'key':
          changed = { ...o, publicKeys: { k1: other.publicKey } };
          break;
        case 'keyId':
          changed = { ...o, headers: { ...headers, [H.keyId]: 'k2' } };
          want = 'unknown_key';
          break;
      }
      assert.throws(
        () => verifyCallback(changed),
        (e: unknown) => e instanceof CallbackVerificationError && e.reason === want,
      );
    }),
    { numRuns: 150 },
  );
});

test('property: signatures are deterministic (PKCS#1 v1.5) and bodies are bytes, not text', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), nonceArb, (body, nonce) => {
      const i = { method: 'POST', path: '/cb', timestamp: T0, nonce, body };
      assert.equal(signCallback(i, priv), signCallback(i, priv));
      assert.deepEqual(callbackSignBase(i).subarray(-body.length - 1, -1), Buffer.from(body));
    }),
    { numRuns: 30 },
  );
});

test('stripQuery: the path up to the first "?"', () => {
  assert.equal(stripQuery('/a/b?x=1?y'), '/a/b');
  assert.equal(stripQuery('/a/b'), '/a/b');
  assert.equal(stripQuery('/?'), '/');
});
