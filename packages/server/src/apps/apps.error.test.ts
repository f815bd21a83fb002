import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';

/** Bad input at every admin route: a clear 2.3 error naming the field, never a 500, nothing written. */
describe('admin API: apps (bad input)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ BODY_LIMIT_BYTES: '4096' });
  });
  after(async () => {
    await svc.close();
  });

  async function raw(method: string, path: string, body: string, contentType = 'application/json') {
    const res = await svc.fetch(`/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${svc.adminToken}`, 'content-type': contentType },
      body,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function appCount() {
    return (await svc.admin('GET', '/apps')).body.apps.length;
  }

  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, number, RegExp]> = [
    ['malformed JSON', () => raw('POST', '/apps', '{"name": "x",'), 400, 40001, /not valid JSON/],
    ['an empty body', () => raw('POST', '/apps', ''), 400, 40001, /empty/],
    [
      'a wrong content type',
      () => raw('POST', '/apps', 'name=x', 'application/x-www-form-urlencoded'),
      415,
      41500,
      /.+/,
    ],
    ['text/plain', () => raw('POST', '/apps', '{"name":"x"}', 'text/plain'), 415, 41500, /.+/],
    ['a missing field', () => svc.admin('POST', '/apps', {}), 400, 40000, /^name: is required/],
    ['a wrong type', () => svc.admin('POST', '/apps', { name: 5 }), 400, 40000, /^name: must be string/],
    [
      'an unknown field',
      () => svc.admin('POST', '/apps', { name: 'x', colour: 'red' }),
      400,
      40000,
      /^colour: is not a known field/,
    ],
    ['an unknown region', () => svc.admin('POST', '/apps', { name: 'x', region: 'moon' }), 400, 40000, /^region/],
    ['an empty name', () => svc.admin('POST', '/apps', { name: '' }), 400, 40000, /^name/],
    [
      'a callback URL with a query string',
      () => svc.admin('POST', '/apps', { name: 'x', callbackUrls: { default: 'https://g.example/cb?x=1' } }),
      400,
      40000,
      /^callbackUrls\.default: must carry no query string/,
    ],
    [
      'a callback URL with an empty query string',
      () => svc.admin('POST', '/apps', { name: 'x', callbackUrls: { default: 'https://g.example/cb?' } }),
      400,
      40000,
      /^callbackUrls\.default: must carry no query string/,
    ],
    [
      'a callback URL with a fragment',
      () => svc.admin('POST', '/apps', { name: 'x', callbackUrls: { s1: 'https://g.example/cb#top' } }),
      400,
      40000,
      /^callbackUrls\.s1: must carry no fragment/,
    ],
    [
      'a relative URL',
      () => svc.admin('POST', '/apps', { name: 'x', roleQueryUrl: '/role' }),
      400,
      40000,
      /^roleQueryUrl: must be an absolute URL/,
    ],
    [
      'a non-http URL',
      () => svc.admin('POST', '/apps', { name: 'x', preOrderCheckUrl: 'ftp://g.example/x' }),
      400,
      40000,
      /^preOrderCheckUrl: must be an http or https URL/,
    ],
    [
      'a URL with credentials',
      () => svc.admin('POST', '/apps', { name: 'x', partnerUrl: 'https://u:p@g.example/x' }),
      400,
      40000,
      /^partnerUrl/,
    ],
    [
      'a bad server id key',
      () => svc.admin('POST', '/apps', { name: 'x', callbackUrls: { 'a b': 'https://g.example/cb' } }),
      400,
      40000,
      /callbackUrls/,
    ],
    [
      'a bad IP',
      () => svc.admin('POST', '/apps', { name: 'x', allowedIps: ['10.0.0.1', '300.1.1.1'] }),
      400,
      40000,
      /^allowedIps\.1: .* is not an IP address or CIDR/,
    ],
    [
      'a bad CIDR',
      () => svc.admin('POST', '/apps', { name: 'x', allowedIps: ['10.0.0.0/33'] }),
      400,
      40000,
      /^allowedIps\.0/,
    ],
    ['an oversize body', () => raw('POST', '/apps', JSON.stringify({ name: 'x'.repeat(5000) })), 413, 41300, /.+/],
    ['a __proto__ key', () => raw('POST', '/apps', '{"name":"x","__proto__":{"admin":true}}'), 400, 40000, /__proto__/],
  ];

  for (const [name, call, status, code, detail] of cases) {
    it(`refuses ${name} without writing`, async () => {
      const before = await appCount();
      const res = await call();
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.code, code);
      assert.equal(typeof res.body.msg, 'string');
      assert.match(res.body.detail, detail);
      assert.equal(await appCount(), before);
    });
  }

  it('answers 404 for an unknown app, on every app route', async () => {
    for (const [method, path, body] of [
      ['GET', '/apps/999999', undefined],
      ['PATCH', '/apps/999999', { name: 'x' }],
      ['POST', '/apps/999999/rotate-secret', undefined],
    ] as const) {
      const res = await svc.admin(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 40400);
    }
  });

  it('refuses a non-numeric app id and an empty patch', async () => {
    assert.equal((await svc.admin('GET', '/apps/abc')).body.code, 40000);
    const a = await svc.createApp();
    const res = await svc.admin('PATCH', `/apps/${a.appId}`, {});
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 40000);
  });

  it('answers an unknown route with a 404 in the envelope', async () => {
    const res = await svc.fetch('/nope');
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys((await res.json()) as object).sort(), ['code', 'data', 'detail', 'msg']);
  });

  it('refuses a bad patch without changing the app', async () => {
    const a = await svc.createApp({ name: 'stable', callbackUrls: { default: 'https://g.example/cb' } });
    const res = await svc.admin('PATCH', `/apps/${a.appId}`, {
      name: 'changed',
      callbackUrls: { default: 'https://g.example/cb?x' },
    });
    assert.equal(res.status, 400);
    const after = await svc.admin('GET', `/apps/${a.appId}`);
    assert.equal(after.body.name, 'stable');
  });
});
