import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import {
  BodyTooLargeError,
  CallbackBodyError,
  CallbackVerificationError,
  CallbackVerifier,
  createCallbackVerifier,
  DEFAULT_MAX_BODY_BYTES,
  MemoryNonceStore,
  readRawBody,
  verifiedCallOf,
  type CallbackRequest,
  type NonceStore,
} from '../index.js';
import { attachVerifiedCall, rejectionAnswer } from './verifier.js';
import { KEY_ID, other, PAYMENT_BODY, publicKey, signedHeaders } from './handlers.testlib.js';

const T = 1_700_000_000;
const clock = (s: number) => () => s * 1000;

function request(
  o: { body?: string; path?: string; sign?: Parameters<typeof signedHeaders>[0]['sign'] } = {},
): CallbackRequest {
  const body = o.body ?? PAYMENT_BODY;
  const path = o.path ?? '/pay/callback';
  return { method: 'POST', url: path, headers: signedHeaders({ path, body, sign: { timestamp: T, ...o.sign } }), body };
}

async function reasonOf(v: CallbackVerifier, req: CallbackRequest): Promise<string> {
  try {
    await v.verify(req);
    return 'ok';
  } catch (e) {
    if (e instanceof CallbackVerificationError) return e.reason;
    throw e;
  }
}

describe('CallbackVerifier', () => {
  const v = () => createCallbackVerifier({ publicKeys: { [KEY_ID]: publicKey }, now: clock(T) });

  it('answers the verified call: key id, timestamp, nonce, path without query, raw bytes, JSON', async () => {
    const req = { ...request({ sign: { nonce: 'n-1' } }), url: '/pay/callback?x=1' };
    const call = await v().verify(req);
    assert.equal(call.keyId, KEY_ID);
    assert.equal(call.timestamp, T);
    assert.equal(call.nonce, 'n-1');
    assert.equal(call.path, '/pay/callback');
    assert.equal(call.query.get('x'), '1');
    assert.equal(call.rawBody.toString(), PAYMENT_BODY);
    assert.equal((call.json as { amount: number }).amount, 1.1);
    const fromBytes = await v().verify({
      ...request({ sign: { nonce: 'n-2' } }),
      body: new TextEncoder().encode(PAYMENT_BODY),
    });
    assert.equal(fromBytes.rawBody.toString(), PAYMENT_BODY);
  });

  it('refuses changed body, path, timestamp, key and unknown key id, each with its reason', async () => {
    const cases: [CallbackRequest, string][] = [
      [{ ...request(), body: PAYMENT_BODY.replace('42', '43') }, 'bad_signature'],
      [{ ...request(), url: '/pay/callback2' }, 'bad_signature'],
      [request({ sign: { timestamp: T - 301 } }), 'stale_timestamp'],
      [{ ...request(), headers: { ...request().headers, Timestamp: String(T + 1) } }, 'bad_signature'],
      [request({ sign: { privateKey: other.privateKey } }), 'bad_signature'],
      [request({ sign: { keyId: 'nope' } }), 'unknown_key'],
      [{ ...request(), headers: {} }, 'missing_header'],
    ];
    for (const [req, reason] of cases) assert.equal(await reasonOf(v(), req), reason);
  });

  it('refuses a replayed nonce within the window, and only after the signature verified', async () => {
    const verifier = v();
    const req = request({ sign: { nonce: 'same' } });
    assert.equal(await reasonOf(verifier, req), 'ok');
    assert.equal(await reasonOf(verifier, req), 'replayed_nonce');
    // A forged call with a fresh nonce does not burn it for the real one.
    const forged = { ...request({ sign: { nonce: 'fresh' } }), body: '{}' };
    assert.equal(await reasonOf(verifier, forged), 'bad_signature');
    assert.equal(await reasonOf(verifier, request({ sign: { nonce: 'fresh' } })), 'ok');
  });

  it('uses the given nonce store with an expiry of timestamp + window; nonces: false turns it off', async () => {
    const seen: [string, number][] = [];
    const store: NonceStore = { remember: async (n, until) => (seen.push([n, until]), true) };
    const verifier = new CallbackVerifier({ publicKeys: publicKey, now: clock(T), windowSeconds: 60, nonces: store });
    await verifier.verify(request({ sign: { nonce: 'abc' } }));
    assert.deepEqual(seen, [['abc', (T + 60) * 1000 + 1000]]);
    const off = new CallbackVerifier({ publicKeys: publicKey, now: clock(T), nonces: false });
    const req = request();
    assert.equal(await reasonOf(off, req), 'ok');
    assert.equal(await reasonOf(off, req), 'ok');
  });

  it('a verified body that is not JSON is a CallbackBodyError; an empty body has no JSON', async () => {
    await assert.rejects(v().verify(request({ body: 'not json' })), CallbackBodyError);
    const call = await v().verify({ ...request({ body: '' }) });
    assert.equal(call.json, undefined);
  });

  it('refuses a body over maxBodyBytes before verifying', async () => {
    const verifier = new CallbackVerifier({ publicKeys: publicKey, now: clock(T), maxBodyBytes: 10 });
    await assert.rejects(verifier.verify(request()), BodyTooLargeError);
  });

  it('defaults to a 1 MiB body limit', () => {
    assert.equal(DEFAULT_MAX_BODY_BYTES, 1024 * 1024);
    assert.equal(createCallbackVerifier({ publicKeys: publicKey }).maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
  });

  it('needs public keys', () => {
    assert.throws(() => new CallbackVerifier({} as never), TypeError);
  });
});

describe('rejectionAnswer', () => {
  it('401 for signature failures, 413, 400, nothing for other errors', () => {
    assert.equal(rejectionAnswer(new CallbackVerificationError('stale_timestamp', 'x'))?.status, 401);
    assert.equal(
      rejectionAnswer(new CallbackVerificationError('stale_timestamp', 'x'))?.body.detail,
      'stale_timestamp',
    );
    assert.equal(rejectionAnswer(new BodyTooLargeError(1))?.status, 413);
    assert.equal(rejectionAnswer(new CallbackBodyError('x'))?.status, 400);
    assert.equal(rejectionAnswer(new Error('x')), undefined);
  });
});

describe('verifiedCallOf', () => {
  it('finds the call of a request or of its raw request, and throws for an unverified one', async () => {
    const call = await createCallbackVerifier({ publicKeys: publicKey, now: clock(T) }).verify(request());
    const raw = {};
    const fastifyRequest = { raw };
    attachVerifiedCall(fastifyRequest, call);
    assert.equal(verifiedCallOf(fastifyRequest), call);
    assert.equal(verifiedCallOf(raw), call);
    assert.equal(verifiedCallOf({ raw }), call);
    assert.throws(() => verifiedCallOf({}), /not verified/);
  });
});

describe('MemoryNonceStore', () => {
  it('remembers until expiry, then accepts again', () => {
    let now = 1000;
    const s = new MemoryNonceStore({ now: () => now });
    assert.equal(s.remember('a', 2000), true);
    assert.equal(s.remember('a', 2000), false);
    now = 2000;
    assert.equal(s.remember('a', 3000), true);
    assert.equal(s.size, 1);
  });

  it('stays within maxEntries: expired entries go first, then the oldest', () => {
    let now = 0;
    const s = new MemoryNonceStore({ maxEntries: 10, now: () => now });
    for (let i = 0; i < 10; i++) s.remember(`n${i}`, 100 + i);
    now = 105; // n0..n5 expired
    s.remember('x', 500);
    assert.equal(s.size, 5);
    for (let i = 0; i < 20; i++) s.remember(`y${i}`, 1000 + i);
    assert.ok(s.size <= 10);
    assert.equal(s.remember('y19', 2000), false, 'the newest entry is kept');
  });
});

describe('readRawBody', () => {
  it('reads the bytes unchanged', async () => {
    const p = new PassThrough();
    const done = readRawBody(p);
    p.write(Buffer.from([0xef, 0xbb, 0xbf, 0x7b]));
    p.end('}\n');
    assert.deepEqual(await done, Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a]));
  });

  it('rejects past the limit (declared or received) and on a stream error', async () => {
    const declared = Object.assign(new PassThrough(), { headers: { 'content-length': '11' } });
    await assert.rejects(readRawBody(declared, 10), BodyTooLargeError);
    const p = new PassThrough();
    const done = readRawBody(p, 10);
    p.write('x'.repeat(11));
    await assert.rejects(done, BodyTooLargeError);
    const e = new PassThrough();
    const failed = readRawBody(e);
    e.destroy(new Error('reset'));
    await assert.rejects(failed, /reset/);
  });
});
