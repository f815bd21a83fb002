import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, signMd5, type TestService } from '../testing/service.js';

describe('delivery API (errors)', () => {
  let svc: TestService;
  let app: any;
  before(async () => {
    svc = await startTestService({}, { dispatcher: false });
    app = await svc.createApp({ callbackUrls: { default: 'http://127.0.0.1:9/cb' } });
  });
  after(async () => {
    await svc.close();
  });

  const expect400 = async (method: string, path: string, body: unknown, field: RegExp) => {
    const res = await svc.admin(method, path, body);
    assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
    assert.equal(res.body.code, 40000);
    assert.match(res.body.detail, field);
  };

  it('refuses a bad test event request, naming the field, and writes nothing', async () => {
    await expect400('POST', `/apps/${app.appId}/test-events`, { type: 'bonus' }, /^type/);
    await expect400('POST', `/apps/${app.appId}/test-events`, {}, /type: is required/);
    await expect400('POST', `/apps/${app.appId}/test-events`, { type: 'payment', serverId: 'bad id!' }, /^serverId/);
    await expect400(
      'POST',
      `/apps/${app.appId}/test-events`,
      { type: 'payment', extra: 1 },
      /extra: is not a known field/,
    );
    await expect400('POST', '/apps/abc/test-events', { type: 'payment' }, /appId/);
    const missing = await svc.admin('POST', '/apps/999999/test-events', { type: 'payment' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 40400);
    assert.deepEqual((await svc.admin('GET', '/events')).body.events, []);
  });

  it('refuses bad list filters, naming the field', async () => {
    await expect400('GET', '/events?state=lost', undefined, /^state/);
    await expect400('GET', '/events?type=bonus', undefined, /^type/);
    await expect400('GET', '/events?from=yesterday', undefined, /^from/);
    await expect400('GET', '/events?to=2026-13-45T99:00:00Z', undefined, /^to/);
    await expect400('GET', '/events?limit=0', undefined, /^limit/);
    await expect400('GET', '/events?limit=501', undefined, /^limit/);
    await expect400('GET', '/events?appId=-1', undefined, /^appId/);
    await expect400('GET', '/events?sort=asc', undefined, /sort: is not a known field/);
  });

  it('answers 404 for an unknown event or app', async () => {
    for (const [method, path, body] of [
      ['GET', '/events/424242', undefined],
      ['POST', '/events/424242/resend', undefined],
      ['POST', '/apps/424242/events/recover', { since: '0' }],
    ] as const) {
      const res = await svc.admin(method, path, body);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 40400);
    }
  });

  it('refuses a bad recover request', async () => {
    await expect400('POST', `/apps/${app.appId}/events/recover`, {}, /since: is required/);
    await expect400('POST', `/apps/${app.appId}/events/recover`, { since: 'last week' }, /^since/);
    await expect400('POST', `/apps/${app.appId}/events/recover`, { since: 0 }, /^since/);
  });

  it('keeps a test event pending in the outbox when no dispatcher runs, with its body ready', async () => {
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    const shown = (await svc.admin('GET', `/events/${eventId}`)).body;
    assert.equal(shown.state, 'pending');
    assert.equal(shown.attempts, 0);
    assert.deepEqual(shown.attemptLog, []);
    assert.equal(JSON.parse(shown.body).notifyId, eventId);
  });

  it('refuses bad pull requests with the 2.3 envelope naming the field', async () => {
    const pull = (q: Record<string, string | number>) =>
      svc.fetch(`/api/notify/v1/events?${new URLSearchParams(q as Record<string, string>)}`);
    const cases: Array<[Record<string, string | number>, number, number, RegExp]> = [
      [signMd5({ since: '0' }, app.secret), 400, 40000, /clientId/],
      [signMd5({ clientId: app.clientId, limit: '0' }, app.secret), 400, 40000, /^limit/],
      [signMd5({ clientId: app.clientId, since: 'today' }, app.secret), 400, 40000, /^since/],
      [signMd5({ clientId: app.clientId, cursor: '-1' }, app.secret), 400, 40000, /^cursor/],
      [
        { clientId: app.clientId, nonce: 'n1', timestamp: String(Math.floor(Date.now() / 1000)), sign: 'zz' },
        400,
        40000,
        /^sign/,
      ],
      [signMd5({ clientId: 'nobody' }, app.secret), 401, 40105, /nobody/],
      [
        signMd5({ clientId: app.clientId }, app.secret, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) }),
        401,
        40102,
        /window/,
      ],
    ];
    for (const [q, status, code, detail] of cases) {
      const res = await pull(q);
      const body = (await res.json()) as any;
      assert.equal(res.status, status, JSON.stringify(q));
      assert.equal(body.code, code, JSON.stringify(body));
      assert.match(body.detail, detail);
    }
  });
});
