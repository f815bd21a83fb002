import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { PlatformKeySet, PlatformKeysError } from './platform-keys.js';
import { CallbackVerifier } from '../handlers/verifier.js';
import { buildCallbackHeaders } from '../callback-sign.js';

const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: ReturnType<typeof pair>) => k.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** PlatformKeySet against a loopback server answering GET /v1/platform-keys as the platform does. */
describe('PlatformKeySet', () => {
  const a = pair();
  const b = pair();
  let listed: Array<{ kid: string; publicKeyPem: string; status: string }> = [];
  let fetches = 0;
  let answer: number = 200;
  let url = '';
  const server = http.createServer((req, res) => {
    fetches++;
    if (req.url !== '/prefix/v1/platform-keys') return res.writeHead(404).end();
    res.writeHead(answer, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: listed }));
  });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prefix/`;
  });
  after(() => server.close());

  it('fetches once, serves from memory, refetches on an unknown key id at most once per minRefreshMs', async () => {
    listed = [{ kid: 'k1', publicKeyPem: pem(a), status: 'signing' }];
    fetches = 0;
    let now = 1_000_000;
    const keys = new PlatformKeySet({ baseUrl: url, minRefreshMs: 30_000, now: () => now });
    assert.ok(await keys.key('k1'));
    assert.ok(await keys.key('k1'));
    assert.equal(fetches, 1);
    listed = [
      { kid: 'k2', publicKeyPem: pem(b), status: 'signing' },
      ...listed.map((k) => ({ ...k, status: 'published' })),
    ];
    assert.equal(await keys.key('k2'), undefined, 'within minRefreshMs: no refetch');
    assert.equal(fetches, 1);
    now += 30_000;
    assert.ok(await keys.key('k2'), 'after it: the rotation is picked up');
    assert.equal(fetches, 2);
    assert.equal(await keys.key('x'.repeat(65)), undefined, 'a malformed key id never causes a fetch');
    assert.equal(fetches, 2);
    listed = [
      { kid: 'k2', publicKeyPem: pem(b), status: 'signing' },
      { kid: 'k1', publicKeyPem: pem(a), status: 'retired' },
    ];
    await keys.refresh();
    assert.deepEqual(Object.keys(await keys.keys()), ['k2'], 'a retired key is no longer trusted');
  });

  it('verifies a call through CallbackVerifier by its Key-Id', async () => {
    listed = [{ kid: 'k1', publicKeyPem: pem(a), status: 'signing' }];
    const verifier = new CallbackVerifier({ publicKeys: new PlatformKeySet({ baseUrl: url }), nonces: false });
    const body = '{"trxNo":1}';
    const headers = buildCallbackHeaders({ method: 'POST', path: '/cb', body, privateKey: a.privateKey, keyId: 'k1' });
    const call = await verifier.verify({ method: 'POST', url: '/cb', headers, body });
    assert.equal(call.keyId, 'k1');
    const forged = buildCallbackHeaders({ method: 'POST', path: '/cb', body, privateKey: b.privateKey, keyId: 'k1' });
    await assert.rejects(verifier.verify({ method: 'POST', url: '/cb', headers: forged, body }), /bad_signature/);
    const unknown = buildCallbackHeaders({ method: 'POST', path: '/cb', body, privateKey: b.privateKey, keyId: 'k9' });
    await assert.rejects(verifier.verify({ method: 'POST', url: '/cb', headers: unknown, body }), /unknown_key/);
  });

  it('a failed fetch is a PlatformKeysError (the handler answers 500, so the platform retries)', async () => {
    answer = 503;
    try {
      await assert.rejects(new PlatformKeySet({ baseUrl: url }).key('k1'), PlatformKeysError);
    } finally {
      answer = 200;
    }
    assert.throws(() => new PlatformKeySet({ baseUrl: 'ftp://x' }), TypeError);
  });
});
