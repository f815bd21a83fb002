import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { adminAs, codeOf, completeInvitation, createOperator, type TestOperator } from '../testing/operators.js';
import { auditEvents, sessionOf, signIn, withCookie } from '../testing/operators/operators.js';

/** Operator accounts end to end over HTTP: the first admin, console sign-in, sessions, tokens, roles (docs/operators.md). */
describe('operators: happy paths', () => {
  let svc: TestService;
  let clock = Date.parse('2026-03-02T10:00:00Z');
  /** Moves the service's clock one TOTP step on, so the next code is a fresh one. */
  const tick = (ms = 30_000) => (clock += ms);
  let root: TestOperator;
  before(async () => {
    svc = await startTestService({}, { now: () => clock, dispatcher: false });
    root = await createOperator(svc, 'root', 'admin');
  });
  after(async () => {
    await svc.close();
  });

  it('the break-glass token creates the first admin, answering its password and second factor once', async () => {
    assert.ok(root.password.length >= 12);
    assert.equal(root.recoveryCodes.length, 10);
    assert.match(root.totpSecret, /^[A-Z2-7]{32}$/);
    const shown = await svc.admin('GET', '/operators/root');
    assert.equal(shown.status, 200);
    assert.deepEqual(
      [shown.body.name, shown.body.role, shown.body.disabled, shown.body.recoveryCodesLeft],
      ['root', 'admin', false, 10],
    );
    const text = JSON.stringify((await svc.admin('GET', '/operators')).body);
    for (const secret of [root.password, root.totpSecret, root.recoveryCodes[0]!]) assert.ok(!text.includes(secret));
    const created = await auditEvents(svc, 'operator-created');
    assert.deepEqual([created[0].operator, created[0].note], ['ADMIN_TOKEN', 'root as admin']);
  });

  it('signs in with name, password and TOTP: an HttpOnly SameSite=Strict cookie on /admin/v1, not Secure on loopback', async () => {
    tick();
    const r = await signIn(svc, { name: 'root', password: root.password, totp: codeOf(root, clock) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.name, r.body.role, r.body.via], ['root', 'admin', 'session']);
    assert.deepEqual(r.body.sandbox, { payments: false, login: false }, 'no sandbox on by default (issue 41)');
    assert.match(r.body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    assert.match(
      r.setCookie!,
      /^gp_operator_session=[A-Za-z0-9_-]{43}; Path=\/admin\/v1; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    const me = await withCookie(svc, r.cookie!, 'GET', '/session');
    assert.deepEqual([me.status, me.body.name, me.body.csrfToken], [200, 'root', r.body.csrfToken]);
    assert.ok(me.body.permissions.includes('operators.write'));
    // A change with the cookie and its CSRF token works and is recorded under the operator's name.
    const app = await withCookie(svc, r.cookie!, 'POST', '/apps', {
      body: { name: 'by root' },
      csrf: r.body.csrfToken,
    });
    assert.equal(app.status, 201);
    const trail = (await svc.admin('GET', '/admin-actions?operator=root')).body.actions;
    assert.ok(trail.some((a: any) => a.route === '/admin/v1/apps' && a.event === null));
    assert.ok(trail.some((a: any) => a.event === 'login'));
    // Sign out: the cookie is cleared and the session is gone.
    const out = await withCookie(svc, r.cookie!, 'DELETE', '/session', { csrf: r.body.csrfToken });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie')!, /^gp_operator_session=; .*Max-Age=0/);
    assert.equal((await withCookie(svc, r.cookie!, 'GET', '/session')).status, 401);
    assert.equal((await auditEvents(svc, 'logout'))[0].operator, 'root');
  });

  it('signs in with a recovery code once', async () => {
    tick();
    const code = root.recoveryCodes[3]!;
    const first = await signIn(svc, { name: 'root', password: root.password, recoveryCode: code.toUpperCase() });
    assert.equal(first.status, 200);
    assert.equal((await svc.admin('GET', '/operators/root')).body.recoveryCodesLeft, 9);
    const again = await signIn(svc, { name: 'root', password: root.password, recoveryCode: code });
    assert.deepEqual([again.status, again.body.code], [401, 40108]);
    assert.equal((await auditEvents(svc, 'login-failed'))[0].note, 'unknown or used recovery code');
  });

  it('an admin creates a moderator, changes roles and disables; the change applies to open sessions at once', async () => {
    tick();
    const { cookie, csrfToken } = await sessionOf(svc, root, clock);
    // Only the first admin may be given a password: the others set their own with the invitation.
    const withPassword = await withCookie(svc, cookie, 'POST', '/operators', {
      body: { name: 'mia', role: 'moderator', password: 'a long enough password' },
      csrf: csrfToken,
    });
    assert.deepEqual(
      [withPassword.status, withPassword.body.detail],
      [400, 'password: the invitee sets its own password'],
    );
    const made = await withCookie(svc, cookie, 'POST', '/operators', {
      body: { name: 'mia', role: 'moderator' },
      csrf: csrfToken,
    });
    assert.equal(made.status, 201);
    assert.deepEqual(
      [made.body.password, made.body.secondFactor, made.body.invitation.state, made.body.mail],
      [undefined, undefined, 'pending', 'off'],
    );
    const mia: TestOperator = {
      name: 'mia',
      role: 'moderator',
      ...(await completeInvitation(svc, '/admin/v1', made.body.link)),
    };
    const s = await sessionOf(svc, mia, clock);
    assert.equal((await withCookie(svc, s.cookie, 'GET', '/reports')).status, 200);
    const keys = await withCookie(svc, s.cookie, 'GET', '/platform-keys');
    assert.deepEqual(
      [keys.status, keys.body.code, keys.body.data],
      [403, 40303, { permission: 'keys.read', role: 'moderator' }],
    );
    // Promoted to support: reads keys now.
    const patched = await withCookie(svc, cookie, 'PATCH', '/operators/mia', {
      body: { role: 'support' },
      csrf: csrfToken,
    });
    assert.deepEqual([patched.status, patched.body.role], [200, 'support']);
    assert.equal((await withCookie(svc, s.cookie, 'GET', '/platform-keys')).status, 200);
    const changed = (await auditEvents(svc, 'role-changed'))[0];
    assert.deepEqual([changed.operator, changed.note], ['root', 'mia: moderator -> support']);
    // Disabled: the session ends.
    assert.equal(
      (await withCookie(svc, cookie, 'PATCH', '/operators/mia', { body: { disabled: true }, csrf: csrfToken })).status,
      200,
    );
    assert.equal((await withCookie(svc, s.cookie, 'GET', '/reports')).status, 401);
    tick();
    assert.equal((await signIn(svc, { name: 'mia', password: mia.password, totp: codeOf(mia, clock) })).status, 401);
  });

  it("per-operator API tokens: shown once, a role at most the owner's, last use recorded, revoked, expired", async () => {
    tick();
    const op = await createOperator(svc, 'olga', 'operator');
    const s = await sessionOf(svc, op, clock);
    const made = await withCookie(svc, s.cookie, 'POST', '/operator-tokens', {
      body: { name: 'deploy script', expiresInDays: 1 },
      csrf: s.csrfToken,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.match(made.body.token, /^gpo_/);
    assert.deepEqual([made.body.info.role, made.body.info.lastUsedAt], ['operator', null]);
    const token = made.body.token as string;
    const tooMuch = await withCookie(svc, s.cookie, 'POST', '/operator-tokens', {
      body: { name: 'x', role: 'admin' },
      csrf: s.csrfToken,
    });
    assert.deepEqual([tooMuch.status, tooMuch.body.code], [400, 40000]);
    const readOnly = await withCookie(svc, s.cookie, 'POST', '/operator-tokens', {
      body: { name: 'dashboards', role: 'support' },
      csrf: s.csrfToken,
    });
    assert.equal(readOnly.status, 201);

    assert.equal((await adminAs(svc, token, 'POST', '/apps', { name: 'by script' })).status, 201);
    assert.equal((await adminAs(svc, readOnly.body.token, 'POST', '/apps', { name: 'no' })).status, 403);
    const listed = await adminAs(svc, token, 'GET', '/operator-tokens');
    assert.equal(listed.body.tokens.length, 2);
    assert.equal(listed.body.tokens[0].lastUsedAt, new Date(clock).toISOString());
    assert.ok(!JSON.stringify(listed.body).includes(token), 'a token is never answered again');
    assert.equal(
      (await auditEvents(svc, 'token-created'))[0].note,
      `#${readOnly.body.info.tokenId} dashboards for olga as support`,
    );
    const trail = (await svc.admin('GET', '/admin-actions?operator=olga')).body.actions;
    assert.ok(trail.some((a: any) => a.route === '/admin/v1/apps' && a.status === 201));

    // Revoked: refused and audited.
    const revoked = await adminAs(svc, token, 'DELETE', `/operator-tokens/${readOnly.body.info.tokenId}`);
    assert.ok(revoked.body.revokedAt);
    const refused = await adminAs(svc, readOnly.body.token, 'GET', '/apps');
    assert.deepEqual(
      [refused.status, refused.body.code, refused.body.detail],
      [401, 40106, 'the operator token is revoked'],
    );
    // Expired after its day.
    tick(86_400_000);
    const expired = await adminAs(svc, token, 'GET', '/apps');
    assert.deepEqual([expired.status, expired.body.detail], [401, 'the operator token is expired']);
    const notes = (await auditEvents(svc, 'token-refused')).map((a: any) => a.note);
    assert.deepEqual(notes.slice(0, 2), [
      `#${made.body.info.tokenId} deploy script: expired`,
      `#${readOnly.body.info.tokenId} dashboards: revoked`,
    ]);
  });

  it('resets a lost second factor with a link the person completes: the old code refused after it', async () => {
    tick();
    const op = await createOperator(svc, 'pat', 'support');
    const reset = await svc.admin('POST', '/operators/pat/reset', {});
    assert.equal(reset.status, 200);
    assert.deepEqual([reset.body.invitation.kind, reset.body.invitation.state], ['reset', 'pending']);
    assert.ok(!JSON.stringify(reset.body).includes(op.totpSecret));
    const renewed = { ...op, ...(await completeInvitation(svc, '/admin/v1', reset.body.link)) };
    tick();
    assert.equal((await signIn(svc, { name: 'pat', password: op.password, totp: codeOf(op, clock) })).status, 401);
    assert.notEqual(renewed.totpSecret, op.totpSecret);
    tick();
    assert.equal(
      (await signIn(svc, { name: 'pat', password: renewed.password, totp: codeOf(renewed, clock) })).status,
      200,
    );
  });
});
