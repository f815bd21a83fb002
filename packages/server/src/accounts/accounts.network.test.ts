import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { count, guestLogin, profile, sandboxLogin } from '../testing/accounts/accounts.js';

const svcId = (svc: TestService, query: Record<string, string>, headers: Record<string, string> = {}) =>
  svc
    .fetch(`/api/account/v1/svc_id?${new URLSearchParams(query)}`, { headers })
    .then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

/** 4.4 (IP allow-list, forged X-Forwarded-For) and userRegion from the edge country header, with and without a trusted proxy. */
describe('4.4 open id lookup and the edge headers', () => {
  describe('no trusted proxy: the peer address is the caller', () => {
    let svc: TestService;
    let allowed: any;
    let elsewhere: any;
    let userId: string;
    before(async () => {
      svc = await startTestService({ SANDBOX_LOGIN: 'true' });
      allowed = await svc.createApp({ name: 'allowed', allowedIps: ['127.0.0.0/8'] });
      elsewhere = await svc.createApp({ name: 'elsewhere', allowedIps: ['203.0.113.7'] });
      userId = (await sandboxLogin(svc, allowed.clientId, { loginType: 3, openId: 'g-123' })).userId;
      await sandboxLogin(svc, allowed.clientId, { loginType: 2, openId: 'a-123' });
      await sandboxLogin(svc, allowed.clientId, { loginType: 4, openId: 'f-123' });
    });
    after(async () => {
      await svc.close();
    });

    it('answers the svcid of an open id, for each of the three login type names', async () => {
      const res = await svcId(svc, { clientId: allowed.clientId, loginType: 'google', openId: 'g-123' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { code: 200, msg: 'success', detail: '', data: { svcid: userId } });
      for (const [loginType, openId] of [
        ['apple', 'a-123'],
        ['facebook', 'f-123'],
      ]) {
        const r = await svcId(svc, { clientId: allowed.clientId, loginType: loginType!, openId: openId! });
        assert.equal(r.status, 200);
        assert.match(r.body.data.svcid, /^[0-9]+$/);
      }
    });

    it('answers 40103 for an unknown open id, and for an open id of another login type', async () => {
      for (const q of [
        { loginType: 'google', openId: 'nobody' },
        { loginType: 'apple', openId: 'g-123' },
      ]) {
        const res = await svcId(svc, { clientId: allowed.clientId, ...q });
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 40103);
        assert.equal(res.body.data, '');
        assert.match(res.body.detail, /no user has the/);
      }
    });

    it("refuses a caller IP that is not on the app's allow-list, and an empty allow-list", async () => {
      const res = await svcId(svc, { clientId: elsewhere.clientId, loginType: 'google', openId: 'g-123' });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 40301);
      assert.match(res.body.detail, /caller IP 127\.0\.0\.1 is not on the allow-list/);
      const none = await svc.createApp({ name: 'none' });
      assert.equal(
        (await svcId(svc, { clientId: none.clientId, loginType: 'google', openId: 'g-123' })).body.code,
        40301,
      );
    });

    it('ignores a forged X-Forwarded-For from an untrusted peer', async () => {
      for (const xff of ['203.0.113.7', '203.0.113.7, 127.0.0.1', '127.0.0.1, 203.0.113.7']) {
        const res = await svcId(
          svc,
          { clientId: elsewhere.clientId, loginType: 'google', openId: 'g-123' },
          { 'x-forwarded-for': xff, 'x-real-ip': '203.0.113.7' },
        );
        assert.equal(res.status, 403, xff);
        assert.equal(res.body.code, 40301);
      }
    });

    it('refuses an unknown loginType with a 400 naming the field', async () => {
      for (const loginType of ['Google', 'guest', 'wechat', '3', '', 'g'.repeat(40)]) {
        const res = await svcId(svc, { clientId: allowed.clientId, loginType, openId: 'g-123' });
        assert.equal(res.status, 400, loginType);
        assert.equal(res.body.code, 40000);
        assert.match(res.body.detail, /^loginType/);
      }
    });

    it('refuses missing, duplicated and oversized parameters, and an unknown clientId', async () => {
      const base = { clientId: allowed.clientId, loginType: 'google', openId: 'g-123' };
      for (const field of ['clientId', 'loginType', 'openId'] as const) {
        const q: Record<string, string> = { ...base };
        delete q[field];
        const res = await svcId(svc, q);
        assert.equal(res.status, 400);
        assert.match(res.body.detail, new RegExp(`^${field}: is required`));
      }
      const long = await svcId(svc, { ...base, openId: 'x'.repeat(256) });
      assert.equal(long.status, 400);
      assert.match(long.body.detail, /^openId/);
      const twice = await svc.fetch(
        `/api/account/v1/svc_id?clientId=${allowed.clientId}&loginType=google&openId=a&openId=b`,
      );
      assert.equal(twice.status, 400);
      const unknown = await svcId(svc, { ...base, clientId: 'unknown' });
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.code, 40105);
    });

    it('believes no edge country header from a client talking to us directly', async () => {
      const login = await guestLogin(svc, allowed.clientId, undefined, { 'cf-ipcountry': 'JP' });
      assert.equal((await profile(svc, allowed.clientId, login)).body.userRegion, 'DF');
    });
  });

  describe('behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1)', () => {
    let svc: TestService;
    let app: any;
    before(async () => {
      svc = await startTestService({
        SANDBOX_LOGIN: 'true',
        TRUSTED_PROXIES: '127.0.0.1',
        EDGE_COUNTRY_HEADER: 'X-Edge-Country',
      });
      app = await svc.createApp({ name: 'proxied', allowedIps: ['198.51.100.10'] });
      await sandboxLogin(svc, app.clientId, { loginType: 3, openId: 'g-9' });
    });
    after(async () => {
      await svc.close();
    });

    it('uses the forwarded address of the trusted proxy for the allow-list', async () => {
      const ok = await svcId(
        svc,
        { clientId: app.clientId, loginType: 'google', openId: 'g-9' },
        { 'x-forwarded-for': '198.51.100.10' },
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const no = await svcId(
        svc,
        { clientId: app.clientId, loginType: 'google', openId: 'g-9' },
        { 'x-forwarded-for': '198.51.100.11' },
      );
      assert.equal(no.status, 403);
      assert.match(no.body.detail, /198\.51\.100\.11/);
      const direct = await svcId(svc, { clientId: app.clientId, loginType: 'google', openId: 'g-9' });
      assert.equal(direct.status, 403, 'the proxy itself is not allow-listed');
    });

    it('takes userRegion from the edge country header (configured name), validated as ISO 3166-1 alpha-2', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{ 'x-edge-country': 'JP' }, 'JP'],
        [{ 'x-edge-country': 'de' }, 'DE'],
        [{ 'x-edge-country': 'XX' }, 'DF'],
        [{ 'x-edge-country': 'T1' }, 'DF'],
        [{ 'x-edge-country': 'USA' }, 'DF'],
        [{ 'x-edge-country': 'EU' }, 'DF'],
        [{}, 'DF'],
        [{ 'cf-ipcountry': 'JP' }, 'DF'],
      ];
      for (const [headers, region] of cases) {
        const login = await guestLogin(svc, app.clientId, undefined, headers);
        const res = await profile(svc, app.clientId, login);
        assert.equal(res.body.userRegion, region, JSON.stringify(headers));
      }
    });

    it('records the forwarded client address as registIp', async () => {
      const login = await guestLogin(svc, app.clientId, undefined, { 'x-forwarded-for': '192.0.2.44' });
      assert.equal((await profile(svc, app.clientId, login)).body.registIp, '192.0.2.44');
    });

    it('writes nothing on a refused lookup', async () => {
      const before = [await count(svc, 'users'), await count(svc, 'tokens'), await count(svc, 'nonces')];
      await svcId(
        svc,
        { clientId: app.clientId, loginType: 'google', openId: 'g-9' },
        { 'x-forwarded-for': '10.9.9.9' },
      );
      assert.deepEqual([await count(svc, 'users'), await count(svc, 'tokens'), await count(svc, 'nonces')], before);
    });
  });
});
