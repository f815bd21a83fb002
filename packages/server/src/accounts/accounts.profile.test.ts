import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMacAuthorization } from '@game-platform/sdk';
import { startTestService, type TestService } from '../testing/service.js';
import {
  count,
  guestLogin,
  macRequest,
  post,
  profile,
  profileUri,
  sandboxLogin,
} from '../testing/accounts/accounts.js';
import { encodeUserCode } from './user-code.js';
import { playerAuth } from './accounts.service.js';

/** 4.3 over real HTTP: every field of 2.2, and every way a MAC token is refused (40300). */
describe('4.3 login verification: GET /api/account/v1/user/profile', () => {
  let svc: TestService;
  let offset = 0;
  const now = () => Date.now() + offset;
  const ts = () => Math.floor(now() / 1000);
  let app: any;
  let other: any;
  let plain: any;
  before(async () => {
    svc = await startTestService({ SANDBOX_LOGIN: 'true', ACCESS_TOKEN_TTL_SECONDS: '3600' }, { now });
    app = await svc.createApp({ name: 'union', unionIdEnabled: true });
    other = await svc.createApp({ name: 'other' });
    plain = await svc.createApp({ name: 'plain' });
  });
  after(async () => {
    await svc.close();
  });

  it('answers exactly the object of 2.2 for a guest', async () => {
    const login = await guestLogin(svc, app.clientId);
    assert.equal(login.isNew, true);
    const res = await profile(svc, app.clientId, login);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = res.body;
    assert.deepEqual(
      Object.keys(p).sort(),
      [
        'appId',
        'avatar',
        'isGuest',
        'loginList',
        'loginType',
        'nickName',
        'openId',
        'provider',
        'registIp',
        'registTime',
        'source',
        'unionId',
        'userCode',
        'userId',
        'userRegion',
        'username',
      ].sort(),
    );
    assert.equal(p.appId, String(app.appId));
    assert.equal(p.userId, login.userId);
    assert.equal(typeof p.userId, 'string');
    assert.equal(p.userCode, encodeUserCode(Number(login.userId)));
    assert.equal(p.username, `player_${p.userCode}`);
    assert.equal(p.nickName, null);
    assert.equal(p.avatar, null);
    assert.equal(p.loginType, 0);
    assert.match(p.registTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);
    assert.ok(Math.abs(Date.parse(p.registTime) - now()) < 60_000);
    assert.equal(p.registIp, '127.0.0.1');
    assert.equal(p.source, 0);
    assert.deepEqual(p.loginList, [0]);
    assert.equal(p.isGuest, true);
    assert.deepEqual(p.provider, ['guest']);
    assert.equal(p.openId, login.openId);
    assert.match(p.openId, /^[A-Za-z0-9_-]{43}$/, 'a guest open id is a hash of the device id');
    assert.equal(p.userRegion, 'DF', 'no edge country header from a trusted proxy');
    assert.equal(p.unionId, null);
  });

  it("answers the current channel's nickname, avatar, openId and unionId (only for apps that enable it)", async () => {
    const identity = {
      loginType: 4,
      openId: 'fb-1001',
      unionId: 'union-77',
      nickname: 'Hero',
      avatar: 'https://cdn.example/a.png',
    };
    const login = await sandboxLogin(svc, app.clientId, identity);
    const p = (await profile(svc, app.clientId, login)).body;
    assert.equal(p.loginType, 4);
    assert.equal(p.nickName, 'Hero');
    assert.equal(p.avatar, 'https://cdn.example/a.png');
    assert.equal(p.openId, 'fb-1001');
    assert.equal(p.unionId, 'union-77');
    assert.deepEqual(p.loginList, [4]);
    assert.deepEqual(p.provider, ['facebook']);
    assert.equal(p.isGuest, false);

    const again = await sandboxLogin(svc, plain.clientId, identity);
    assert.equal(again.userId, login.userId);
    assert.equal(again.isNew, false);
    const q = (await profile(svc, plain.clientId, again)).body;
    assert.equal(q.unionId, null, 'unionId is null for an app that has not enabled it');
    assert.equal(q.appId, String(plain.appId));
  });

  it('lists every bound login method; loginType stays the current channel', async () => {
    const login = await guestLogin(svc, app.clientId);
    const bound = await macRequest(svc, 'POST', `/api/account/v1/client/bind?clientId=${app.clientId}`, login, {
      body: {
        provider: 'sandbox',
        credential: (await svc.admin('POST', '/sandbox/login-assertions', { loginType: 2, openId: 'apple-xyz' })).body
          .assertion,
      },
    });
    assert.equal(bound.status, 200, JSON.stringify(bound.body));
    const p = (await profile(svc, app.clientId, login)).body;
    assert.deepEqual(p.loginList, [0, 2]);
    assert.deepEqual(p.provider, ['guest', 'apple']);
    assert.equal(p.isGuest, false);
    assert.equal(p.loginType, 0);
  });

  it('answers an empty userRegion for a mainland app', async () => {
    const mainland = await svc.createApp({ name: 'mainland', region: 'mainland' });
    const login = await guestLogin(svc, mainland.clientId);
    assert.equal((await profile(svc, mainland.clientId, login)).body.userRegion, '');
  });

  describe('refusals: 40300 with a detail telling them apart, or 40105 / 400', () => {
    let login: Awaited<ReturnType<typeof guestLogin>>;
    before(async () => {
      login = await guestLogin(svc, app.clientId);
    });

    async function refused(res: { status: number; body: any }, detail: RegExp) {
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 40300);
      assert.equal(res.body.msg, 'Illegal access token.');
      assert.equal(res.body.data, '');
      assert.match(res.body.detail, detail);
    }

    it('a token of another app', async () => {
      await refused(await profile(svc, other.clientId, login), /issued for another app/);
    });

    it('a bad mac', async () => {
      await refused(await profile(svc, app.clientId, { kid: login.kid, macKey: 'not-the-key' }), /mac does not match/);
    });

    it('a mac over another uri, host or port', async () => {
      for (const o of [
        { uri: `/api/account/v1/user/profile?clientId=${app.clientId}&x=1` },
        { host: 'evil.example' },
        { port: 8443 },
      ]) {
        const authorization = buildMacAuthorization({
          kid: login.kid,
          macKey: login.macKey,
          method: 'GET',
          uri: profileUri(app.clientId),
          host: '127.0.0.1',
          port: 443,
          ...o,
        });
        await refused(await profile(svc, app.clientId, login, { authorization }), /mac does not match/);
      }
    });

    it('a stale ts', async () => {
      await refused(await profile(svc, app.clientId, login, { ts: ts() - 3600 }), /timestamp .* the window is 300 s/);
      await refused(await profile(svc, app.clientId, login, { ts: ts() + 3600 }), /the window is 300 s/);
    });

    it('a reused nonce', async () => {
      const nonce = 'once-only-nonce';
      assert.equal((await profile(svc, app.clientId, login, { nonce })).status, 200);
      await refused(await profile(svc, app.clientId, login, { nonce }), /already used/);
    });

    it('an unknown token', async () => {
      await refused(
        await profile(svc, app.clientId, { kid: 'A'.repeat(43), macKey: login.macKey }),
        /unknown, expired or revoked/,
      );
    });

    it('a malformed, missing or duplicated Authorization header', async () => {
      const cases: Array<[string | undefined, RegExp]> = [
        [undefined, /no Authorization header/],
        ['Bearer abc', /expected scheme MAC/],
        ['MAC id=abc', /Authorization header/],
        ['MAC id="a",ts="1",nonce="nnnnn"', /parameter mac is missing/],
        [
          `MAC id="${login.kid}",id="${login.kid}",ts="1",nonce="nnnnn",mac="${'A'.repeat(27)}="`,
          /parameter id given twice/,
        ],
        [`MAC id="${login.kid}",ts="soon",nonce="nnnnn",mac="${'A'.repeat(27)}="`, /ts: must be Unix time in seconds/],
        [
          `MAC id="${login.kid}",ts="${ts()}",nonce="${'n'.repeat(200)}",mac="${'A'.repeat(27)}="`,
          /nonce: must be 1-128/,
        ],
        [`MAC ${'x'.repeat(5000)}`, /longer than/],
      ];
      for (const [authorization, detail] of cases) {
        const res = await svc.fetch(profileUri(app.clientId), {
          headers: authorization === undefined ? {} : { authorization },
        });
        await refused({ status: res.status, body: await res.json() }, detail);
      }
    });

    it('a revoked token (logout)', async () => {
      const l = await guestLogin(svc, app.clientId);
      const out = await macRequest(svc, 'POST', `/api/account/v1/client/logout?clientId=${app.clientId}`, l);
      assert.equal(out.status, 200, JSON.stringify(out.body));
      assert.equal(out.body.data, true);
      await refused(await profile(svc, app.clientId, l), /revoked \(logout\)/);
    });

    it('an expired token', async () => {
      const l = await guestLogin(svc, app.clientId);
      offset = 3601_000;
      try {
        await refused(await profile(svc, app.clientId, l, { ts: ts() }), /expired at/);
      } finally {
        offset = 0;
      }
    });

    it('an unknown or missing clientId, and a bad query', async () => {
      const unknown = await profile(svc, 'nope', login);
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.code, 40105);
      const missing = await macRequest(svc, 'GET', '/api/account/v1/user/profile', login);
      assert.equal(missing.status, 400);
      assert.match(missing.body.detail, /^clientId: is required/);
      const long = await macRequest(svc, 'GET', `/api/account/v1/user/profile?clientId=${'c'.repeat(65)}`, login);
      assert.equal(long.status, 400);
      assert.match(long.body.detail, /^clientId/);
      const twice = await macRequest(
        svc,
        'GET',
        `/api/account/v1/user/profile?clientId=${app.clientId}&clientId=${app.clientId}`,
        login,
      );
      assert.equal(twice.status, 400);
      assert.match(twice.body.detail, /^clientId/);
    });

    it('writes nothing (no nonce) when the mac does not verify', async () => {
      const before = await count(svc, 'nonces');
      await profile(svc, app.clientId, { kid: login.kid, macKey: 'wrong' });
      await profile(svc, app.clientId, { kid: 'B'.repeat(43), macKey: 'wrong' });
      assert.equal(await count(svc, 'nonces'), before);
    });

    it('revocation by the operator takes effect at once on this instance', async () => {
      const l = await guestLogin(svc, app.clientId);
      assert.equal((await profile(svc, app.clientId, l)).status, 200);
      const res = await svc.admin('POST', `/users/${l.userId}/revoke-tokens`);
      assert.equal(res.body.revoked, 1);
      await refused(await profile(svc, app.clientId, l), /revoked \(admin\)/);
    });
  });

  it('exports the MAC hook and playerAuth for other domains', async () => {
    const l = await guestLogin(svc, app.clientId);
    const res = await post(svc, `/api/account/v1/client/logout?clientId=${app.clientId}`);
    assert.equal(res.status, 403, 'the client API needs the MAC token too');
    const request = {
      method: 'GET',
      url: profileUri(app.clientId),
      hostname: '127.0.0.1',
      headers: {
        authorization: buildMacAuthorization({
          kid: l.kid,
          macKey: l.macKey,
          method: 'GET',
          uri: profileUri(app.clientId),
          host: '127.0.0.1',
        }),
      },
    } as Record<string, unknown>;
    await svc.services.mac.check({ clientId: () => app.clientId, replay: 'await' })(request as never);
    const auth = playerAuth(svc.services.mac.caller(request as never));
    assert.deepEqual(
      { ...auth, tokenId: typeof auth.tokenId },
      { appId: app.appId, clientId: app.clientId, userId: l.userId, tokenId: 'number', loginType: 0 },
    );
  });
});
