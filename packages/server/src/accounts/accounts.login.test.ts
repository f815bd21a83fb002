import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../testing/service.js';
import {
  count,
  guestLogin,
  post,
  profile,
  providerLogin,
  startFakeIdp,
  type FakeIdp,
} from '../testing/accounts/accounts.js';

/** Client logins: guest, and Apple / Google / Facebook ID tokens verified against JWKS served on loopback. */
describe('client login API', () => {
  let svc: TestService;
  let apple: FakeIdp;
  let google: FakeIdp;
  let facebook: FakeIdp;
  let app: any;
  before(async () => {
    apple = await startFakeIdp({ issuer: 'https://appleid.apple.com', audience: 'com.example.game' });
    google = await startFakeIdp({ issuer: 'https://accounts.google.com', audience: 'g-client.apps.example' });
    facebook = await startFakeIdp({ issuer: 'https://www.facebook.com', audience: '1234567890' });
    svc = await startTestService({
      APPLE_JWKS_URL: apple.jwksUrl,
      APPLE_AUDIENCES: 'com.example.game',
      GOOGLE_JWKS_URL: google.jwksUrl,
      GOOGLE_AUDIENCES: 'g-client.apps.example, other.apps.example',
      FACEBOOK_JWKS_URL: facebook.jwksUrl,
      FACEBOOK_AUDIENCES: '1234567890',
      TOKENS_PER_USER_APP: '2',
    });
    app = await svc.createApp();
  });
  after(async () => {
    await svc.close();
    await Promise.all([apple.close(), google.close(), facebook.close()]);
  });

  it('guest login mints a MAC token of 256-bit kid and key; the same device is the same account', async () => {
    const first = await guestLogin(svc, app.clientId, 'device-0001');
    assert.equal(first.isNew, true);
    assert.match(first.kid, /^[A-Za-z0-9_-]{43}$/);
    assert.match(first.macKey, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(first.kid, 'base64url').length, 32);
    assert.ok(Math.abs(Date.parse(first.expiresAt) - Date.now() - 7 * 86_400_000) < 60_000, 'default TTL is 7 days');
    const second = await guestLogin(svc, app.clientId, 'device-0001');
    assert.equal(second.isNew, false);
    assert.equal(second.userId, first.userId);
    assert.notEqual(second.kid, first.kid);
    assert.notEqual((await guestLogin(svc, app.clientId, 'device-0002')).userId, first.userId);
  });

  it('stores only the hash of the kid and the MAC key sealed', async () => {
    const login = await guestLogin(svc, app.clientId);
    const rows = (
      await sql<{ kid_hash: string; mac_key_enc: string }>`select kid_hash, mac_key_enc from tokens`.execute(
        svc.services.database.db,
      )
    ).rows;
    assert.ok(rows.every((r) => r.kid_hash !== login.kid && !r.mac_key_enc.includes(login.macKey)));
    assert.ok(rows.every((r) => r.mac_key_enc.startsWith(`v2.${svc.services.box.currentKeyId}.`)));
  });

  it('re-login policy: a user keeps TOKENS_PER_USER_APP live tokens per app, the oldest are revoked', async () => {
    const a = await guestLogin(svc, app.clientId, 'device-relogin');
    const b = await guestLogin(svc, app.clientId, 'device-relogin');
    assert.equal((await profile(svc, app.clientId, a)).status, 200);
    const c = await guestLogin(svc, app.clientId, 'device-relogin');
    const old = await profile(svc, app.clientId, a);
    assert.equal(old.body.code, 40300);
    assert.match(old.body.detail, /revoked \(relogin\)/);
    assert.equal((await profile(svc, app.clientId, b)).status, 200);
    assert.equal((await profile(svc, app.clientId, c)).status, 200);
    const otherApp = await svc.createApp({ name: 'other' });
    await guestLogin(svc, otherApp.clientId, 'device-relogin');
    assert.equal((await profile(svc, app.clientId, c)).status, 200, 'tokens of another app do not count');
  });

  it('logs in with an Apple ID token (RS256 and ES256), as login type 2', async () => {
    const token = await apple.sign({ sub: 'apple-001', email: 'A@Example.com', email_verified: 'true' });
    const res = await providerLogin(svc, app.clientId, 'apple', token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.code, 200);
    assert.equal(res.body.data.loginType, 2);
    assert.equal(res.body.data.openId, 'apple-001');
    assert.equal(res.body.data.isNew, true);
    const again = await providerLogin(
      svc,
      app.clientId,
      'apple',
      await apple.sign({ sub: 'apple-001' }, { alg: 'ES256' }),
    );
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.data.userId, res.body.data.userId);
    assert.equal(again.body.data.isNew, false);
  });

  it('logs in with Google (either configured audience) and Facebook, taking nickname and avatar', async () => {
    const g = await providerLogin(
      svc,
      app.clientId,
      'google',
      await google.sign(
        { sub: 'g-001', name: 'Gina', picture: 'https://lh.example/p.png' },
        { audience: 'other.apps.example' },
      ),
    );
    assert.equal(g.status, 200, JSON.stringify(g.body));
    const p = (await profile(svc, app.clientId, g.body.data)).body;
    assert.equal(p.loginType, 3);
    assert.equal(p.nickName, 'Gina');
    assert.equal(p.avatar, 'https://lh.example/p.png');
    assert.deepEqual(p.provider, ['google']);
    const f = await providerLogin(svc, app.clientId, 'facebook', await facebook.sign({ sub: 'fb-001', name: 'Finn' }));
    assert.equal(f.status, 200, JSON.stringify(f.body));
    assert.equal(f.body.data.loginType, 4);
  });

  it('refuses ID tokens that do not verify, writing nothing', async () => {
    const before = [await count(svc, 'users'), await count(svc, 'login_methods'), await count(svc, 'tokens')];
    const cases: Array<[string, string, RegExp]> = [
      ['apple', await apple.sign({ sub: 'x' }, { audience: 'com.other.app' }), /ERR_JWT_CLAIM_VALIDATION_FAILED.*aud/],
      [
        'apple',
        await apple.sign({ sub: 'x' }, { issuer: 'https://evil.example' }),
        /ERR_JWT_CLAIM_VALIDATION_FAILED.*iss/,
      ],
      ['apple', await apple.sign({ sub: 'x' }, { expiresIn: Math.floor(Date.now() / 1000) - 120 }), /ERR_JWT_EXPIRED/],
      ['apple', await apple.sign({ sub: 'x' }, { foreignKey: true }), /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
      ['google', await apple.sign({ sub: 'x' }), /not a valid google ID token/],
      ['apple', 'not.a.jwt', /ERR_JWS_INVALID|ERR_JWT_INVALID/],
      ['apple', await apple.sign({}), /sub/],
    ];
    for (const [provider, credential, detail] of cases) {
      const res = await providerLogin(svc, app.clientId, provider, credential);
      assert.equal(res.status, 401, `${detail}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 40107);
      assert.match(res.body.detail, detail);
    }
    assert.deepEqual(
      [await count(svc, 'users'), await count(svc, 'login_methods'), await count(svc, 'tokens')],
      before,
    );
  });

  it("answers 503 when the provider's keys cannot be fetched", async () => {
    const isolated = await startFakeIdp({ issuer: 'https://appleid.apple.com', audience: 'com.example.game' });
    const s2 = await startTestService({ APPLE_JWKS_URL: isolated.jwksUrl, APPLE_AUDIENCES: 'com.example.game' });
    try {
      const a2 = await s2.createApp();
      isolated.failing = true;
      const res = await providerLogin(s2, a2.clientId, 'apple', await isolated.sign({ sub: 'x' }));
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 50300);
    } finally {
      await s2.close();
      await isolated.close();
    }
  });

  it('refuses bad login bodies with a 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ clientId: app.clientId }, /^deviceId: is required/],
      [{ clientId: app.clientId, deviceId: 'short' }, /^deviceId/],
      [{ clientId: app.clientId, deviceId: 'x'.repeat(129) }, /^deviceId/],
      [{ clientId: app.clientId, deviceId: 'device with spaces' }, /^deviceId/],
      [{ deviceId: 'device-0001' }, /^clientId: is required/],
      [{ clientId: app.clientId, deviceId: 'device-0001', extra: 1 }, /^extra: is not a known field/],
    ];
    for (const [body, detail] of cases) {
      const res = await post(svc, '/api/account/v1/client/login/guest', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, detail);
    }
    const unknownProvider = await providerLogin(svc, app.clientId, 'myspace', 'x');
    assert.equal(unknownProvider.status, 400);
    assert.match(
      unknownProvider.body.detail,
      /^provider: "myspace" is not a login provider of this service \(enabled: apple, google, facebook\)/,
    );
    const sandboxOff = await providerLogin(svc, app.clientId, 'sandbox', 'sbx.x');
    assert.match(sandboxOff.body.detail, /^provider: "sandbox"/, 'the sandbox provider is off unless SANDBOX_LOGIN');
    const huge = await providerLogin(svc, app.clientId, 'apple', 'x'.repeat(9000));
    assert.equal(huge.status, 400);
    assert.match(huge.body.detail, /^credential/);
    const unknownApp = await post(svc, '/api/account/v1/client/login/guest', {
      clientId: 'nope',
      deviceId: 'device-0001',
    });
    assert.equal(unknownApp.body.code, 40105);
    const disabled = await svc.createApp({ name: 'disabled' });
    await svc.admin('PATCH', `/apps/${disabled.appId}`, { status: 'disabled' });
    assert.equal(
      (await post(svc, '/api/account/v1/client/login/guest', { clientId: disabled.clientId, deviceId: 'device-0001' }))
        .body.code,
      40105,
    );
  });

  it('the sandbox admin route does not exist without SANDBOX_LOGIN', async () => {
    const res = await svc.admin('POST', '/sandbox/login-assertions', { loginType: 3, openId: 'x' });
    assert.equal(res.status, 404);
  });
});
