import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';

describe('rate limit per app', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  after(async () => {
    await svc.close();
  });

  const profile = (clientId: string) => svc.fetch(`/api/account/v1/user/profile?clientId=${clientId}`);

  it('answers 429 RATE_LIMITED with Retry-After past the limit, per app', async () => {
    for (let i = 0; i < 3; i++) {
      const under = await profile('app-a');
      assert.notEqual(under.status, 429);
      assert.equal(under.headers.get('x-ratelimit-remaining'), null, 'no limit headers under the limit');
    }
    const limited = await profile('app-a');
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(limited.headers.get('x-ratelimit-limit'), '3');
    const body = (await limited.json()) as any;
    assert.equal(body.code, 42900);
    assert.match(body.detail, /app:app-a/);
    assert.notEqual((await profile('app-b')).status, 429, 'another app has its own budget');
  });

  it('counts an app named in a JSON body', async () => {
    const login = () =>
      svc.fetch('/api/account/v1/client/login/guest', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'app-c', deviceId: 'device-0001' }),
      });
    for (let i = 0; i < 3; i++) assert.notEqual((await login()).status, 429);
    const limited = await login();
    assert.equal(limited.status, 429);
    assert.match(((await limited.json()) as any).detail, /app:app-c/);
  });

  it('counts a HEAD request once, like its GET (the HEAD route is made from the GET route and its hooks)', async () => {
    const head = () => svc.fetch('/api/account/v1/user/profile?clientId=app-h', { method: 'HEAD' });
    for (let i = 0; i < 3; i++) assert.notEqual((await head()).status, 429, `request ${i + 1} of 3`);
    const limited = await head();
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(limited.headers.get('x-ratelimit-reset'), limited.headers.get('retry-after'));
  });

  it('never limits health, metrics or the admin API', async () => {
    for (let i = 0; i < 6; i++) {
      assert.equal((await svc.fetch('/healthz')).status, 200);
      assert.equal((await svc.admin('GET', '/apps')).status, 200);
    }
  });
});
