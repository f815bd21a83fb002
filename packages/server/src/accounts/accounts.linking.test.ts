import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import {
  count,
  guestLogin,
  macRequest,
  mintSandbox,
  profile,
  providerLogin,
  sandboxLogin,
} from '../testing/accounts/accounts.js';

/** Binding and unbinding login methods, the email auto-binding rule and the account error codes 40021, 40902, 40901. */
describe('linking and the account error codes of section 7', () => {
  let svc: TestService;
  let app: any;
  let mainland: any;
  before(async () => {
    svc = await startTestService({ SANDBOX_LOGIN: 'true' });
    app = await svc.createApp({ name: 'overseas', region: 'overseas' });
    mainland = await svc.createApp({ name: 'mainland', region: 'mainland' });
  });
  after(async () => {
    await svc.close();
  });

  const bind = async (clientId: string, token: { kid: string; macKey: string }, identity: Record<string, unknown>) =>
    macRequest(svc, 'POST', `/api/account/v1/client/bind?clientId=${clientId}`, token, {
      body: { provider: 'sandbox', credential: await mintSandbox(svc, identity) },
    });
  const unbind = (clientId: string, token: { kid: string; macKey: string }, loginType: string) =>
    macRequest(svc, 'POST', `/api/account/v1/client/unbind?clientId=${clientId}&loginType=${loginType}`, token);
  const rows = async () => [
    await count(svc, 'users'),
    await count(svc, 'login_methods'),
    await count(svc, 'tokens'),
    await count(svc, 'user_apps'),
  ];

  it('binds another login method; a login through it reaches the same account', async () => {
    const guest = await guestLogin(svc, app.clientId);
    const res = await bind(app.clientId, guest, { loginType: 3, openId: 'bind-g-1' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { loginList: [0, 3], provider: ['guest', 'google'] });
    const viaGoogle = await sandboxLogin(svc, app.clientId, { loginType: 3, openId: 'bind-g-1' });
    assert.equal(viaGoogle.userId, guest.userId);
    assert.equal(viaGoogle.isNew, false);
    assert.equal(
      (await bind(app.clientId, guest, { loginType: 3, openId: 'bind-g-1' })).status,
      200,
      'binding again is idempotent',
    );
  });

  it('refuses to bind an open id of another account, or a second method of one login type', async () => {
    const other = await sandboxLogin(svc, app.clientId, { loginType: 2, openId: 'taken-apple' });
    const guest = await guestLogin(svc, app.clientId);
    const before = await rows();
    const taken = await bind(app.clientId, guest, { loginType: 2, openId: 'taken-apple' });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 40900);
    assert.doesNotMatch(taken.body.detail, new RegExp(other.userId), 'the other account is not revealed');
    assert.equal((await bind(app.clientId, guest, { loginType: 4, openId: 'fb-a' })).status, 200);
    const second = await bind(app.clientId, guest, { loginType: 4, openId: 'fb-b' });
    assert.equal(second.status, 409);
    assert.match(second.body.detail, /already bound to this account; unbind it first/);
    assert.equal((await rows())[1], before[1]! + 1);
  });

  it("unbinds a method (its other sessions are revoked), never the last one nor the current session's", async () => {
    const guest = await guestLogin(svc, app.clientId);
    assert.equal((await bind(app.clientId, guest, { loginType: 6, openId: 'chat-1' })).status, 200);
    const viaChat = await sandboxLogin(svc, app.clientId, { loginType: 6, openId: 'chat-1' });

    const own = await unbind(app.clientId, viaChat, '6');
    assert.equal(own.status, 409);
    assert.match(own.body.detail, /this session logged in with that method/);

    const res = await unbind(app.clientId, guest, '6');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, { loginList: [0], provider: ['guest'] });
    const gone = await profile(svc, app.clientId, viaChat);
    assert.equal(gone.body.code, 40300);
    assert.match(gone.body.detail, /revoked \(unbind\)/);

    const last = await unbind(app.clientId, guest, '0');
    assert.equal(last.status, 409);
    assert.match(last.body.detail, /last login method/);
    const none = await unbind(app.clientId, guest, '7');
    assert.equal(none.status, 404);
    const bad = await unbind(app.clientId, guest, '8');
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /^loginType/);
    const missing = await macRequest(svc, 'POST', `/api/account/v1/client/unbind?clientId=${app.clientId}`, guest);
    assert.match(missing.body.detail, /^loginType: is required/);
  });

  it('authenticates a client call before looking at its body', async () => {
    const res = await macRequest(
      svc,
      'POST',
      `/api/account/v1/client/bind?clientId=${app.clientId}`,
      { kid: 'x'.repeat(43), macKey: 'k' },
      { body: { nonsense: true } },
    );
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 40300);
    const noClient = await macRequest(svc, 'POST', '/api/account/v1/client/logout', { kid: 'x', macKey: 'k' });
    assert.equal(noClient.status, 400);
    assert.match(noClient.body.detail, /^clientId/);
  });

  describe('the email auto-binding rule', () => {
    it('auto-binds a first login with a verified email to the one account holding it', async () => {
      const a = await sandboxLogin(svc, app.clientId, {
        loginType: 3,
        openId: 'auto-g',
        email: 'Auto@Example.com',
        emailVerified: true,
      });
      const b = await sandboxLogin(svc, app.clientId, {
        loginType: 2,
        openId: 'auto-a',
        email: 'auto@example.com',
        emailVerified: true,
      });
      assert.equal(b.userId, a.userId);
      assert.equal(b.isNew, false);
      assert.deepEqual((await profile(svc, app.clientId, b)).body.loginList, [2, 3]);
    });

    it('never binds through an unverified email', async () => {
      const a = await sandboxLogin(svc, app.clientId, {
        loginType: 3,
        openId: 'unv-g',
        email: 'unv@example.com',
        emailVerified: true,
      });
      const b = await sandboxLogin(svc, app.clientId, {
        loginType: 2,
        openId: 'unv-a',
        email: 'unv@example.com',
        emailVerified: false,
      });
      assert.notEqual(b.userId, a.userId);
      assert.equal(b.isNew, true);
    });

    it('40902: the email is already bound to this login type on another account', async () => {
      const holder = await sandboxLogin(svc, app.clientId, {
        loginType: 3,
        openId: 'dup-g-1',
        email: 'dup@example.com',
        emailVerified: true,
      });
      const before = await rows();
      const res = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 3, openId: 'dup-g-2', email: 'dup@example.com', emailVerified: true }),
      );
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.code, 40902);
      assert.equal(res.body.msg, 'The email of this login is already bound to this login type.');
      assert.deepEqual(res.body.data, {
        loginType: 3,
        conflicts: [{ loginType: 3, userId: holder.userId }],
        email: 'dup@example.com',
      });
      assert.deepEqual(await rows(), before, 'nothing written');
    });

    it('40901: several accounts hold the email', async () => {
      const one = await sandboxLogin(svc, app.clientId, {
        loginType: 3,
        openId: 'many-g',
        email: 'many@example.com',
        emailVerified: true,
      });
      const two = await sandboxLogin(svc, app.clientId, {
        loginType: 4,
        openId: 'many-f',
        email: 'many@example.com',
        emailVerified: false,
      });
      // A second account gets the email verified through a method bound explicitly.
      assert.equal(
        (
          await bind(app.clientId, two, {
            loginType: 2,
            openId: 'many-a',
            email: 'many@example.com',
            emailVerified: true,
          })
        ).status,
        200,
      );
      const before = await rows();
      const res = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 6, openId: 'many-c', email: 'many@example.com', emailVerified: true }),
      );
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.code, 40901);
      assert.deepEqual(res.body.data, {
        loginType: 6,
        conflicts: [
          { loginType: 3, userId: one.userId },
          { loginType: 2, userId: two.userId },
        ],
        email: 'many@example.com',
      });
      assert.deepEqual(await rows(), before, 'nothing written');
    });

    it('40021: a first game-store login (overseas) with an unverified email creates nothing', async () => {
      const before = await rows();
      const res = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 5, openId: 'store-1', email: 'Store@Example.com', emailVerified: false }),
      );
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 40021);
      assert.deepEqual(res.body.data, { email: 'store@example.com', loginType: 5 });
      assert.deepEqual(await rows(), before, 'nothing written');
    });

    it('40021 applies only to users newly created through that login, and only overseas', async () => {
      const ok = await sandboxLogin(svc, app.clientId, {
        loginType: 5,
        openId: 'store-2',
        email: 'store2@example.com',
        emailVerified: true,
      });
      const again = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 5, openId: 'store-2', email: 'store2@example.com', emailVerified: false }),
      );
      assert.equal(again.status, 200, 'an existing user logs in even if the store now reports the email unverified');
      assert.equal(again.body.data.userId, ok.userId);
      const noEmail = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 5, openId: 'store-3' }),
      );
      assert.equal(noEmail.status, 200);
      const home = await providerLogin(
        svc,
        mainland.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 5, openId: 'store-4', email: 's4@example.com', emailVerified: false }),
      );
      assert.equal(home.status, 200, 'mainland apps are not subject to 40021');
    });
  });
});
