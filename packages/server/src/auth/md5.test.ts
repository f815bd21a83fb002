import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { md5Sign } from '@game-platform/sdk';
import type { FastifyInstance } from 'fastify';
import { signMd5, startTestService, type TestService } from '../testing/service.js';
import type { Services } from '../services.js';

/** Routes that do nothing but authenticate with the md5 scheme, in both envelopes. */
function md5Routes(app: FastifyInstance, services: Services) {
  const body = services.md5.hook({
    from: 'body',
    clientId: (b) => (b.client_info as Record<string, unknown> | undefined)?.client_id,
    recordNonce: 'hook',
  });
  const query = services.md5.hook({ from: 'query', clientId: (q) => q['client_info.client_id'], recordNonce: 'hook' });
  app.post('/test/md5', { preHandler: body }, async (request) => {
    return { appId: services.md5.caller(request).app.appId, echo: request.body };
  });
  app.get('/svc/reporting/test/md5', { preHandler: query }, async (request) => {
    return { appId: services.md5.caller(request).app.appId };
  });
}

describe('md5 signature scheme (5.1) over HTTP', () => {
  let svc: TestService;
  let clock = Date.now();
  let app: any;
  before(async () => {
    svc = await startTestService(
      { SIGN_WINDOW_SECONDS: '300', SECRET_GRACE_SECONDS: '60' },
      { routes: md5Routes, now: () => clock },
    );
    app = await svc.createApp();
  });
  after(async () => {
    await svc.close();
  });

  const nowTs = () => String(Math.floor(clock / 1000));
  const post = (body: unknown) =>
    svc.fetch('/test/md5', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const params = () => ({
    client_info: { client_id: app.clientId, ip: '203.0.113.9' },
    reasons: [{ id: 1, title: 'cheating' }],
    note: '举报 🎮',
  });

  it('accepts a correctly signed nested body', async () => {
    const res = await post(signMd5(params(), app.secret, { timestamp: nowTs() }));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as any).appId, app.appId);
  });

  it('accepts an upper-case sign', async () => {
    const signed = signMd5(params(), app.secret, { timestamp: nowTs() });
    const res = await post({ ...signed, sign: signed.sign.toUpperCase() });
    assert.equal(res.status, 200);
  });

  it('keeps int64 values past 2^53 exact, sent as a JSON number or a string', async () => {
    const big = '9007199254740993';
    const unsigned = { client_info: { client_id: app.clientId }, size_byte: big, nonce: 'n-big-1', timestamp: nowTs() };
    const sign = md5Sign(unsigned, app.secret);
    const asNumber = JSON.stringify({ ...unsigned, sign }).replace(`"size_byte":"${big}"`, `"size_byte":${big}`);
    assert.ok(asNumber.includes(`"size_byte":${big}`));
    const res = await post(asNumber);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as any).echo.size_byte, big);
    const asString = await post({
      ...unsigned,
      nonce: 'n-big-2',
      sign: md5Sign({ ...unsigned, nonce: 'n-big-2' }, app.secret),
    });
    assert.equal(asString.status, 200);
  });

  it('refuses a wrong signature with BAD_SIGNATURE and writes no nonce', async () => {
    const signed = signMd5(params(), app.secret, { timestamp: nowTs(), nonce: 'nonce-bad-sig' });
    const res = await post({ ...signed, note: 'changed after signing' });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as any).code, 40101);
    // The same nonce still works for a correctly signed request: nothing was recorded.
    assert.equal((await post(signed)).status, 200);
  });

  it('refuses a sign made with another secret', async () => {
    const res = await post(signMd5(params(), 'not-the-secret', { timestamp: nowTs() }));
    assert.equal(((await res.json()) as any).code, 40101);
  });

  it('refuses stale and future timestamps with STALE_TIMESTAMP', async () => {
    for (const offset of [-301, 301, -100000]) {
      const res = await post(signMd5(params(), app.secret, { timestamp: String(Math.floor(clock / 1000) + offset) }));
      assert.equal(res.status, 401, `offset ${offset}`);
      const body = (await res.json()) as any;
      assert.equal(body.code, 40102);
      assert.match(body.detail, /window is 300 s/);
    }
    assert.equal(
      (await post(signMd5(params(), app.secret, { timestamp: String(Math.floor(clock / 1000) - 299) }))).status,
      200,
    );
  });

  it('refuses a reused nonce with NONCE_REUSED', async () => {
    const first = signMd5(params(), app.secret, { timestamp: nowTs(), nonce: 'once-only' });
    assert.equal((await post(first)).status, 200);
    const replay = await post(first);
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as any).code, 40104);
    const again = await post(signMd5(params(), app.secret, { timestamp: nowTs(), nonce: 'once-only' }));
    assert.equal(((await again.json()) as any).code, 40104, 'even with a new timestamp and signature');
  });

  it('keeps nonces per app', async () => {
    const other = await svc.createApp({ name: 'other' });
    const mine = signMd5(params(), app.secret, { timestamp: nowTs(), nonce: 'shared-nonce' });
    const theirs = signMd5({ ...params(), client_info: { client_id: other.clientId } }, other.secret, {
      timestamp: nowTs(),
      nonce: 'shared-nonce',
    });
    assert.equal((await post(mine)).status, 200);
    assert.equal((await post(theirs)).status, 200);
  });

  it('refuses unknown and disabled client ids with UNKNOWN_CLIENT', async () => {
    const unknown = await post(signMd5({ client_info: { client_id: 'nope' } }, app.secret, { timestamp: nowTs() }));
    assert.equal(((await unknown.json()) as any).code, 40105);
    const disabled = await svc.createApp({ name: 'disabled' });
    await svc.admin('PATCH', `/apps/${disabled.appId}`, { status: 'disabled' });
    clock += 3000; // past the app cache
    const res = await post(
      signMd5({ client_info: { client_id: disabled.clientId } }, disabled.secret, { timestamp: nowTs() }),
    );
    assert.equal(((await res.json()) as any).code, 40105);
  });

  it('names the field when sign, nonce or timestamp is malformed', async () => {
    const good = signMd5(params(), app.secret, { timestamp: nowTs() });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...good, sign: 'xyz' }, /^sign:/],
      [{ ...good, sign: undefined }, /^sign:/],
      [{ ...good, nonce: undefined }, /^nonce:/],
      [{ ...good, nonce: '' }, /^nonce:/],
      [{ ...good, nonce: 'x'.repeat(129) }, /^nonce:/],
      [{ ...good, timestamp: 'yesterday' }, /^timestamp:/],
      [{ ...good, timestamp: undefined }, /^timestamp:/],
      [{ ...good, timestamp: -5 }, /^timestamp:/],
    ];
    for (const [body, detail] of cases) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(((await res.json()) as any).detail, detail);
    }
  });

  it('accepts the previous secret during the grace period only', async () => {
    const rotating = await svc.createApp({ name: 'rotating' });
    const rotated = (await svc.admin('POST', `/apps/${rotating.appId}/rotate-secret`)).body;
    const p = { client_info: { client_id: rotating.clientId } };
    assert.equal((await post(signMd5(p, rotating.secret, { timestamp: nowTs() }))).status, 200, 'old secret in grace');
    assert.equal((await post(signMd5(p, rotated.secret, { timestamp: nowTs() }))).status, 200, 'new secret');
    clock += 61_000;
    const late = await post(signMd5(p, rotating.secret, { timestamp: nowTs() }));
    assert.equal(((await late.json()) as any).code, 40101, 'old secret after grace');
    assert.equal((await post(signMd5(p, rotated.secret, { timestamp: nowTs() }))).status, 200);
  });

  it('signs a GET query the same way (flat dot keys) and answers rpcStatus on reporting routes', async () => {
    const q = signMd5({ 'client_info.client_id': app.clientId, file_name: 'a b.png', file_size: '1024' }, app.secret, {
      timestamp: nowTs(),
    });
    const qs = new URLSearchParams(q as Record<string, string>).toString();
    assert.equal((await svc.fetch(`/svc/reporting/test/md5?${qs}`)).status, 200);
    const bad = await svc.fetch(`/svc/reporting/test/md5?${qs.replace('file_size=1024', 'file_size=2048')}`);
    assert.equal(bad.status, 401);
    const body = (await bad.json()) as any;
    assert.equal(body.code, 16);
    assert.equal(body.details[0].reason, 'BAD_SIGNATURE');
    assert.equal(body.details[0].metadata.code, '40101');
    assert.equal(typeof body.message, 'string');
  });
});
