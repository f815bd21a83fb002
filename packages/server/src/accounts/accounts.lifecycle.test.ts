import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import {
  count,
  guestLogin,
  macRequest,
  profile,
  providerLogin,
  mintSandbox,
  sandboxLogin,
} from '../testing/accounts/accounts.js';
import { startAccountSweep } from './sweep.js';

/** Account cancellation (cooling-off, events in the outbox), bans, and the operator's admin API. */
describe('account lifecycle: cancellation, bans, admin', () => {
  let svc: TestService;
  let offset = 0;
  const now = () => Date.now() + offset;
  let app: any;
  let other: any;
  before(async () => {
    svc = await startTestService(
      { SANDBOX_LOGIN: 'true', CANCELLATION_COOLING_OFF_SECONDS: '3600', CANCELLATION_SWEEP_SECONDS: '1' },
      { now },
    );
    app = await svc.createApp({
      name: 'one',
      allowedIps: ['127.0.0.1'],
      cancellationCallbackUrl: 'https://one.example/cancel',
    });
    other = await svc.createApp({ name: 'two' });
  });
  after(async () => {
    await svc.close();
  });

  const ts = () => Math.floor(now() / 1000);
  const client = (path: string, token: { kid: string; macKey: string }, clientId = app.clientId) =>
    macRequest(svc, 'POST', `/api/account/v1/client/${path}?clientId=${clientId}`, token, { ts: ts() });
  const outbox = () =>
    svc.services.database.db
      .selectFrom('outbox')
      .selectAll()
      .where('type', '=', 'cancellation')
      .orderBy('event_id')
      .execute();

  describe('cancellation', () => {
    it('cancels after the cooling-off: tokens revoked, open ids freed, one event per app the user logged into', async () => {
      const a = await sandboxLogin(svc, app.clientId, { loginType: 3, openId: 'cancel-me' });
      const b = await sandboxLogin(svc, other.clientId, { loginType: 3, openId: 'cancel-me' });
      const requested = await client('cancellation', a);
      assert.equal(requested.status, 200, JSON.stringify(requested.body));
      assert.equal(requested.body.data.status, 'cancelling');
      const due = Date.parse(requested.body.data.cancelDueAt);
      assert.ok(Math.abs(due - now() - 3_600_000) < 60_000);
      assert.equal(
        (await client('cancellation', a)).body.data.cancelDueAt,
        requested.body.data.cancelDueAt,
        'asking again keeps the date',
      );

      // During the cooling-off the account still works, and nothing is cancelled yet.
      assert.equal((await profile(svc, other.clientId, b, { ts: ts() })).status, 200);
      assert.deepEqual((await svc.admin('POST', '/accounts/process-cancellations')).body, { cancelled: [] });

      offset = 3_600_000 + 1000;
      try {
        const run = await svc.admin('POST', '/accounts/process-cancellations');
        assert.deepEqual(run.body, { cancelled: [a.userId] });
        const refused = await profile(svc, other.clientId, b, { ts: ts() });
        assert.equal(refused.body.code, 40300);
        assert.match(refused.body.detail, /revoked \(cancellation\)/);

        const events = (await outbox()).filter((e) => JSON.parse(e.body).userId === a.userId);
        assert.deepEqual(events.map((e) => e.app_id).sort(), [app.appId, other.appId].sort());
        for (const e of events) {
          assert.equal(e.target, 'cancellation');
          assert.equal(e.state, 'pending');
          const body = JSON.parse(e.body);
          assert.deepEqual(Object.keys(body), [
            'notifyId',
            'notifyTime',
            'eventType',
            'appId',
            'userId',
            'userCode',
            'requestTime',
            'cancelTime',
          ]);
          assert.equal(body.notifyId, e.event_id);
          assert.equal(body.eventType, 'account_cancellation');
          assert.equal(body.appId, e.app_id);
          assert.ok(body.requestTime < body.cancelTime);
        }

        const lookup = await svc.fetch(
          `/api/account/v1/svc_id?clientId=${app.clientId}&loginType=google&openId=cancel-me`,
        );
        assert.equal(((await lookup.json()) as any).code, 40103, 'the open id no longer names a user');
        const fresh = await sandboxLogin(svc, app.clientId, { loginType: 3, openId: 'cancel-me' });
        assert.equal(fresh.isNew, true, 'the open id can start a new account');
        assert.notEqual(fresh.userId, a.userId);
        const shown = await svc.admin('GET', `/users/${a.userId}`);
        assert.equal(shown.body.status, 'cancelled');
        assert.deepEqual(shown.body.methods, []);
        assert.deepEqual(
          (await svc.admin('POST', '/accounts/process-cancellations')).body,
          { cancelled: [] },
          'cancelled once',
        );
      } finally {
        offset = 0;
      }
    });

    it('a withdrawn cancellation does not happen', async () => {
      const a = await guestLogin(svc, app.clientId);
      assert.equal((await client('cancellation', a)).status, 200);
      const w = await client('cancellation/withdraw', a);
      assert.deepEqual(w.body.data, { status: 'active', cancelDueAt: null });
      assert.equal((await client('cancellation/withdraw', a)).status, 409);
      offset = 3_600_000 + 1000;
      try {
        const run = await svc.admin('POST', '/accounts/process-cancellations');
        assert.ok(!run.body.cancelled.includes(a.userId));
      } finally {
        offset = 0;
      }
    });

    it('the periodic job cancels due accounts by itself', async () => {
      const a = await guestLogin(svc, app.clientId);
      assert.equal((await client('cancellation', a)).status, 200);
      offset = 3_600_000 + 1000;
      const timer = startAccountSweep(svc.services, (err) => {
        throw err;
      });
      try {
        for (let i = 0; i < 40; i++) {
          if ((await svc.admin('GET', `/users/${a.userId}`)).body.status === 'cancelled') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.equal((await svc.admin('GET', `/users/${a.userId}`)).body.status, 'cancelled');
      } finally {
        clearInterval(timer);
        offset = 0;
      }
    });
  });

  describe('bans', () => {
    it('revokes every token at once and refuses logins until lifted', async () => {
      const a = await sandboxLogin(svc, app.clientId, { loginType: 2, openId: 'ban-me' });
      const b = await sandboxLogin(svc, other.clientId, { loginType: 2, openId: 'ban-me' });
      const ban = await svc.admin('POST', `/users/${a.userId}/ban`, {
        reason: 'cheating',
        until: null,
        actor: 'mod-7',
      });
      assert.equal(ban.status, 201, JSON.stringify(ban.body));
      assert.equal(ban.body.reason, 'cheating');
      assert.equal(ban.body.until, null);
      assert.equal(ban.body.actor, 'mod-7');
      for (const [clientId, token] of [
        [app.clientId, a],
        [other.clientId, b],
      ] as const) {
        const res = await profile(svc, clientId, token);
        assert.equal(res.body.code, 40300);
        assert.match(res.body.detail, /revoked \(ban\)/);
      }
      const before = await count(svc, 'tokens');
      const refused = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 2, openId: 'ban-me' }),
      );
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 40302);
      assert.deepEqual(refused.body.data, { until: null });
      assert.equal(await count(svc, 'tokens'), before, 'nothing written');
      assert.equal((await svc.admin('GET', `/users?userId=${a.userId}`)).body.users[0].banned, true);

      const lifted = await svc.admin('POST', `/users/${a.userId}/unban?actor=mod-8`);
      assert.deepEqual(lifted.body, { lifted: 1 });
      const back = await providerLogin(
        svc,
        app.clientId,
        'sandbox',
        await mintSandbox(svc, { loginType: 2, openId: 'ban-me' }),
      );
      assert.equal(back.status, 200);
      const bans = (await svc.admin('GET', `/users/${a.userId}`)).body.bans;
      assert.equal(bans[0].liftedBy, 'mod-8');
    });

    it('a ban with an end stops refusing logins when it ends; the service API is usable by other domains', async () => {
      const a = await guestLogin(svc, app.clientId, 'device-timed-ban');
      const until = now() + 60_000;
      const ban = await svc.services.accounts.bans.banUser(Number(a.userId), {
        reason: 'spam',
        until,
        actor: 'reports',
      });
      assert.equal(ban.until, new Date(until).toISOString());
      const res = await svc.fetch('/api/account/v1/client/login/guest', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: app.clientId, deviceId: 'device-timed-ban' }),
      });
      const body = (await res.json()) as any;
      assert.equal(body.code, 40302);
      assert.equal(body.data.until, new Date(until).toISOString());
      offset = 61_000;
      try {
        assert.equal((await guestLogin(svc, app.clientId, 'device-timed-ban')).userId, a.userId);
        assert.equal(
          await svc.services.accounts.bans.liftBan(Number(a.userId), 'reports'),
          0,
          'an ended ban is no longer in force',
        );
      } finally {
        offset = 0;
      }
      assert.equal((await svc.admin('GET', `/users/${a.userId}`)).body.bans.length, 1, 'but still listed');
    });

    it('refuses bad ban requests', async () => {
      const a = await guestLogin(svc, app.clientId);
      const cases: Array<[string, unknown, number, RegExp]> = [
        [`/users/${a.userId}/ban`, { until: null }, 400, /^reason: is required/],
        [
          `/users/${a.userId}/ban`,
          { reason: 'x', until: '2000-01-01T00:00:00Z' },
          400,
          /^until: must be in the future/,
        ],
        [`/users/${a.userId}/ban`, { reason: 'x', until: 'tomorrow' }, 400, /^until/],
        [`/users/${a.userId}/ban`, { reason: 'x' }, 400, /^until: is required/],
        [`/users/${a.userId}/ban`, { reason: 'x'.repeat(501), until: null }, 400, /^reason/],
        ['/users/999999/ban', { reason: 'x', until: null }, 404, /user 999999 does not exist/],
        ['/users/abc/ban', { reason: 'x', until: null }, 400, /^userId/],
      ];
      for (const [path, body, status, detail] of cases) {
        const res = await svc.admin('POST', path, body);
        assert.equal(res.status, status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.detail, detail);
      }
      assert.equal((await svc.admin('GET', `/users/${a.userId}`)).body.bans.length, 0, 'nothing written');
    });
  });

  describe('admin API', () => {
    it('finds users by id, user code, open id or email, and shows methods and sessions', async () => {
      const u = await sandboxLogin(svc, app.clientId, {
        loginType: 3,
        openId: 'find-me',
        email: 'Find@Example.com',
        emailVerified: true,
        nickname: 'Fi',
      });
      for (const q of [
        `userId=${u.userId}`,
        `userCode=${u.userCode}`,
        `userCode=${u.userCode.toLowerCase()}`,
        'openId=find-me',
        'openId=find-me&loginType=3',
        'email=FIND@example.com',
      ]) {
        const res = await svc.admin('GET', `/users?${q}`);
        assert.equal(res.status, 200, q);
        assert.deepEqual(
          res.body.users.map((x: any) => x.userId),
          [u.userId],
          q,
        );
      }
      assert.deepEqual((await svc.admin('GET', '/users?openId=find-me&loginType=2')).body.users, []);
      const shown = await svc.admin('GET', `/users/${u.userId}`);
      assert.equal(shown.body.userCode, u.userCode);
      assert.equal(shown.body.methods[0].email, 'find@example.com');
      assert.equal(shown.body.methods[0].nickname, 'Fi');
      assert.equal(shown.body.sessions.length, 1);
      assert.equal(shown.body.sessions[0].live, true);
      assert.equal(shown.body.sessions[0].appId, app.appId);
      assert.deepEqual(
        shown.body.apps.map((x: any) => x.appId),
        [app.appId],
      );
      assert.equal(JSON.stringify(shown.body).includes(u.kid), false, 'the token itself is never shown');
      assert.equal(JSON.stringify(shown.body).includes(u.macKey), false);
    });

    it('refuses bad searches, and answers 404 for unknown users', async () => {
      for (const [q, detail] of [
        ['', /exactly one/],
        ['userId=1&email=a@b.c', /exactly one/],
        ['userCode=0000000Z', /userCode/],
        ['loginType=3&email=a@b.c', /^loginType/],
        ['colour=red', /^colour: is not a known field/],
        ['userId=x', /^userId/],
      ] as const) {
        const res = await svc.admin('GET', `/users?${q}`);
        assert.equal(res.status, 400, q);
        assert.match(res.body.detail, detail);
      }
      assert.equal((await svc.admin('GET', '/users/999999')).status, 404);
      assert.equal((await svc.admin('POST', '/users/999999/revoke-tokens')).status, 404);
      const unauth = await svc.fetch('/admin/v1/users?userId=1');
      assert.equal(unauth.status, 401);
    });
  });
});
