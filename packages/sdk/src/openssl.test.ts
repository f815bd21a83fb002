/** Cross-check of all three schemes against an independent implementation: the openssl command line. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { generateKeyPairSync } from 'node:crypto';
import { canonicalParams, md5Sign } from './md5.js';
import { macSign, macSignBase } from './mac.js';
import { callbackSignBase, signCallback, verifyCallback } from './callback.js';
import { loadVectors, openssl, scratchDir, type MacVector, type Md5Vector, type RsaVector } from './vectors.testlib.js';

const tmp = scratchDir();
after(() => tmp.cleanup());

const md5Hex = (data: string): string =>
  openssl(['dgst', '-md5', '-r'], Buffer.from(data, 'utf8')).toString().split(' ')[0]!;
const hmacB64 = (keyHex: string, data: string): string =>
  openssl(
    ['dgst', '-sha1', '-mac', 'HMAC', '-macopt', `hexkey:${keyHex}`, '-binary'],
    Buffer.from(data, 'utf8'),
  ).toString('base64');

test('openssl: md5 of every vector', () => {
  for (const v of loadVectors<Md5Vector>('md5')) {
    assert.equal(md5Hex(canonicalParams(v.params) + v.secret), v.sign, v.description);
    assert.equal(md5Sign(v.params, v.secret), md5Hex(v.canonical + v.secret));
  }
});

test('openssl: HMAC-SHA1 of every vector (-hmac KEY)', () => {
  for (const v of loadVectors<MacVector>('mac')) {
    const input = { ts: v.ts, nonce: v.nonce, method: v.method, uri: v.uri, host: v.host, port: v.port };
    const out = openssl(['dgst', '-sha1', '-hmac', v.macKey, '-binary'], Buffer.from(macSignBase(input), 'utf8'));
    assert.equal(out.toString('base64'), macSign(input, v.macKey), v.description);
    assert.equal(out.toString('base64'), v.mac);
  }
});

test('openssl: RSA-SHA256 sign and verify of every vector', () => {
  for (const [n, v] of loadVectors<RsaVector>('rsa').entries()) {
    const key = tmp.file(`v${n}.pem`, v.privateKeyPem);
    const pub = tmp.file(`v${n}.pub.pem`, v.publicKeyPem);
    const input = { method: v.method, path: v.path, timestamp: v.timestamp, nonce: v.nonce, body: v.body };
    const base = callbackSignBase(input);
    const sig = openssl(['dgst', '-sha256', '-sign', key], base);
    assert.equal(sig.toString('base64'), signCallback(input, v.privateKeyPem), v.description);
    assert.equal(sig.toString('base64'), v.signature);
    const sigFile = tmp.file(`v${n}.sig`, Buffer.from(v.signature, 'base64'));
    assert.match(openssl(['dgst', '-sha256', '-verify', pub, '-signature', sigFile], base).toString(), /Verified OK/);
  }
});

test('openssl: md5 and HMAC-SHA1 of random inputs', () => {
  const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 10 }), fc.integer(), fc.bigInt(), fc.boolean());
  const key = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 6 })
    .filter((k) => !k.includes('.') && k !== 'sign' && k !== '__proto__');
  fc.assert(
    fc.property(
      fc.dictionary(
        key,
        fc.oneof(value, fc.array(value, { maxLength: 2 }), fc.dictionary(key, value, { maxKeys: 2 })),
        { maxKeys: 5 },
      ),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      (p, secret) => {
        assert.equal(md5Sign(p, secret), md5Hex(canonicalParams(p) + secret));
      },
    ),
    { numRuns: 25 },
  );
  const field = fc.string({ unit: 'grapheme', maxLength: 16 }).map((s) => s.replace(/\n/g, ' '));
  fc.assert(
    fc.property(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      fc.integer({ min: 0, max: 2 ** 40 }),
      field,
      field,
      field,
      fc.integer({ min: 1, max: 65535 }),
      (macKey, ts, nonce, uri, host, port) => {
        const input = { ts, nonce, method: 'get', uri: `/${uri}`, host, port };
        assert.equal(macSign(input, macKey), hmacB64(Buffer.from(macKey, 'utf8').toString('hex'), macSignBase(input)));
      },
    ),
    { numRuns: 25 },
  );
});

test('openssl: RSA-SHA256 of random bodies, both directions', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyFile = tmp.file('rand.pem', privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const pubFile = tmp.file('rand.pub.pem', publicKey.export({ type: 'spki', format: 'pem' }));
  const T0 = 1_700_000_000;
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 512 }),
      fc.stringMatching(/^\/[a-z0-9/_-]{0,20}$/),
      fc.stringMatching(/^[A-Za-z0-9]{6,20}$/),
      (body, path, nonce) => {
        const input = { method: 'POST', path, timestamp: T0, nonce, body };
        const base = callbackSignBase(input);
        const ours = signCallback(input, privateKey);
        const theirs = openssl(['dgst', '-sha256', '-sign', keyFile], base);
        assert.equal(theirs.toString('base64'), ours);
        const sigFile = tmp.file('rand.sig', Buffer.from(ours, 'base64'));
        assert.match(
          openssl(['dgst', '-sha256', '-verify', pubFile, '-signature', sigFile], base).toString(),
          /Verified OK/,
        );
        const headers = { timestamp: String(T0), nonce, signature: theirs.toString('base64') };
        assert.equal(
          verifyCallback({ method: 'POST', url: path, headers, body, publicKeys: publicKey, now: () => T0 * 1000 })
            .nonce,
          nonce,
        );
      },
    ),
    { numRuns: 20 },
  );
});
