import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestService, type TestService } from '../testing/service.js';
import {
  adminAs,
  codeOf,
  completeInvitation,
  createOperator,
  operatorToken,
  type TestOperator,
} from '../testing/operators.js';
import { auditEvents, sessionOf, signIn, withCookie } from '../testing/operators/operators.js';

/** Sign-in refusals, the lock, CSRF, cookie flags and the break-glass switch (docs/operators.md). */
describe('operators: security', () => {
  let svc: TestService;
  let clock = Date.parse('2026-03-02T10:00:00Z');
  const tick = (ms = 30_000) => (clock += ms);
  let eve: TestOperator;
  before(async () => {
    svc = await startTestService(
      { OPERATOR_LOGIN_MAX_FAILURES: '3', OPERATOR_LOCK_SECONDS: '600', OPERATOR_LOGIN_DELAY_MS: '1' },
      { now: () => clock, dispatcher: false },
    );
    eve = await createOperator(svc, 'eve', 'operator');
  });
  after(async () => {
    await svc.close();
  });

  it('refuses a wrong password, a wrong, missing or replayed TOTP and an unknown name alike, and audits why', async () => {
    tick();
    const good = codeOf(eve, clock);
    const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'eve', password: 'not the password', totp: good }, 'wrong password'],
      [{ name: 'eve', password: eve.password, totp: wrong }, 'wrong TOTP code'],
      [{ name: 'nobody', password: eve.password, totp: good }, 'unknown name'],
    ];
    for (const [body, why] of cases) {
      const r = await signIn(svc, body);
      assert.deepEqual([r.status, r.body.code, r.setCookie], [401, 40108, null], why);
      assert.equal((await auditEvents(svc, 'login-failed'))[0].note, why);
    }
    // Right: the code is used now; the same code again is a replay.
    assert.equal((await signIn(svc, { name: 'eve', password: eve.password, totp: good })).status, 200);
    const replay = await signIn(svc, { name: 'eve', password: eve.password, totp: good });
    assert.deepEqual([replay.status, replay.body.code], [401, 40108]);
    assert.equal((await auditEvents(svc, 'login-failed'))[0].note, 'replayed TOTP code');
    const none = await signIn(svc, { name: 'eve', password: eve.password });
    assert.equal(none.status, 401);
    assert.equal((await auditEvents(svc, 'login-failed'))[0].note, 'no second factor');
    tick();
    assert.equal((await signIn(svc, { name: 'eve', password: eve.password, totp: codeOf(eve, clock) })).status, 200);
  });

  it('locks an operator after repeated failures, even for the right credentials, until the lock ends or a reset', async () => {
    const op = await createOperator(svc, 'lou', 'support');
    for (let i = 0; i < 3; i++)
      assert.equal((await signIn(svc, { name: 'lou', password: 'wrong wrong wrong' })).status, 401);
    tick();
    const locked = await signIn(svc, { name: 'lou', password: op.password, totp: codeOf(op, clock) });
    assert.deepEqual([locked.status, locked.body.code, locked.headers.get('retry-after')], [429, 42902, '570']);
    assert.equal((await auditEvents(svc, 'login-locked'))[0].operator, 'lou');
    assert.ok((await svc.admin('GET', '/operators/lou')).body.lockedUntil);
    tick(600_000);
    assert.equal((await signIn(svc, { name: 'lou', password: op.password, totp: codeOf(op, clock) })).status, 200);
    // Locked again, then lifted by a password reset.
    for (let i = 0; i < 3; i++) await signIn(svc, { name: 'lou', password: 'wrong wrong wrong' });
    const reset = await svc.admin('POST', '/operators/lou/reset', {});
    assert.equal(reset.status, 200);
    const renewed = { ...op, ...(await completeInvitation(svc, '/admin/v1', reset.body.link)) };
    tick();
    assert.equal(
      (await signIn(svc, { name: 'lou', password: renewed.password, totp: codeOf(renewed, clock) })).status,
      200,
    );
  });

  it('refuses a cookie without its CSRF token (or with a wrong one) on a change, and audits it; reads need none', async () => {
    tick();
    const s = await sessionOf(svc, eve, clock);
    for (const csrf of [undefined, 'x'.repeat(43)]) {
      const r = await withCookie(svc, s.cookie, 'POST', '/apps', { body: { name: 'csrf' }, ...(csrf ? { csrf } : {}) });
      assert.deepEqual([r.status, r.body.code], [403, 40304]);
    }
    const events = await auditEvents(svc, 'csrf-refused');
    assert.deepEqual(
      events.slice(0, 2).map((a: any) => [a.operator, a.note]),
      [
        ['eve', 'wrong X-CSRF-Token'],
        ['eve', 'no X-CSRF-Token'],
      ],
    );
    assert.equal((await withCookie(svc, s.cookie, 'GET', '/apps')).status, 200);
    assert.equal((await withCookie(svc, 'forged', 'GET', '/apps')).status, 401);
    assert.equal((await svc.fetch('/admin/v1/apps')).status, 401);
  });

  it('marks the cookie Secure when the console is not reached on loopback', async () => {
    tick();
    const body = JSON.stringify({ name: 'eve', password: eve.password, totp: codeOf(eve, clock) });
    const { port } = new URL(svc.url);
    const setCookie = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/admin/v1/session',
          method: 'POST',
          headers: {
            host: 'console.example.com',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          resolve(String(res.headers['set-cookie']));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.match(setCookie, /; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('refuses non-admins the operator accounts, and a token above its owner', async () => {
    const token = await operatorToken(svc, 'eve');
    const r = await adminAs(svc, token, 'POST', '/operators', { name: 'mallory', role: 'admin' });
    assert.deepEqual([r.status, r.body.code, r.body.data.permission], [403, 40303, 'operators.write']);
    const up = await adminAs(svc, token, 'PATCH', '/operators/eve', { role: 'admin' });
    assert.equal(up.status, 403);
    const forAnother = await adminAs(svc, token, 'POST', '/operator-tokens', { name: 'x', operator: 'lou' });
    assert.equal(forAnother.status, 403);
    const above = await svc.admin('POST', '/operator-tokens', { name: 'x', operator: 'eve', role: 'admin' });
    assert.deepEqual([above.status, above.body.code], [400, 40000]);
    // Demoted below its token's role: the token stops working.
    assert.equal((await svc.admin('PATCH', '/operators/eve', { role: 'moderator' })).status, 200);
    const stale = await adminAs(svc, token, 'GET', '/apps');
    assert.deepEqual(
      [stale.status, stale.body.detail],
      [401, "the operator token is above its owner's role (moderator)"],
    );
    assert.equal((await svc.admin('PATCH', '/operators/eve', { role: 'operator' })).status, 200);
  });

  it('answers bad sign-in bodies 400, never 500', async () => {
    for (const body of [
      {},
      { name: 'eve' },
      { name: 'eve', password: 'x', totp: 'x'.repeat(17) },
      { name: 'e\u0000', password: 'p' },
    ]) {
      const r = await signIn(svc, body);
      assert.deepEqual([r.status, r.body.code], [400, 40000], JSON.stringify(body));
    }
  });
});

describe('operators: the break-glass token retired', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ ADMIN_TOKEN_ENABLED: 'false' }, { dispatcher: false });
  });
  after(async () => {
    await svc.close();
  });

  it('refuses ADMIN_TOKEN when ADMIN_TOKEN_ENABLED=false', async () => {
    const r = await svc.admin('GET', '/apps');
    assert.deepEqual([r.status, r.body.code], [401, 40106]);
  });
});
