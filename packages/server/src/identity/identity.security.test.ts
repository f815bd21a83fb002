import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { createOperator } from '../testing/operators.js';
import { sessionOf, withCookie } from '../testing/operators/operators.js';
import { createDeveloper, portalAs, portalSessionOf } from '../testing/portal/portal.js';

/**
 * The one identity model keeps the two doors apart (docs/operators.md "One identity model"): sessions of both live
 * in one table, so a session opened at one door must be nothing at the other, whatever cookie name carries it, and
 * the same name in both realms is two people.
 */
describe('one identity model: two doors', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  it("opens neither door with the other's session, and keeps a shared name two people", async () => {
    const app = await svc.createApp();
    const op = await createOperator(svc, 'same-name', 'admin');
    const dev = await createDeveloper(svc, 'same-name', [app.appId]);
    const consoleSession = await sessionOf(svc, op, Date.now());
    const portal = await portalSessionOf(svc, dev);

    // Each at its own door.
    assert.equal((await withCookie(svc, consoleSession.cookie, 'GET', '/session')).body.role, 'admin');
    assert.deepEqual((await portalAs(svc, portal, 'GET', '/session')).body.appIds, [app.appId]);

    // A portal session presented as the console's cookie, and the reverse: unknown there.
    const crossed = await withCookie(svc, portal.cookie, 'GET', '/operators');
    assert.equal(crossed.status, 401);
    assert.equal(crossed.body.code, 40106);
    const reverse = await portalAs(
      svc,
      { cookie: consoleSession.cookie, csrfToken: consoleSession.csrfToken },
      'GET',
      '/apps',
    );
    assert.equal(reverse.status, 401);
    assert.equal(reverse.body.code, 40110);

    // The developer's password and recovery code open nothing at the console (and the operator's none at the portal).
    const wrong = await svc.fetch('/admin/v1/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'same-name', password: dev.password, recoveryCode: dev.recoveryCodes[0] }),
    });
    assert.equal(wrong.status, 401);
    const wrongPortal = await portalAs(svc, null, 'POST', '/session', {
      name: 'same-name',
      password: op.password,
      recoveryCode: op.recoveryCodes[0],
    });
    assert.equal(wrongPortal.status, 401);

    // Disabling the developer leaves the same-named operator signed in.
    assert.equal((await svc.admin('PATCH', '/studio-developers/same-name', { disabled: true })).status, 200);
    assert.equal((await portalAs(svc, portal, 'GET', '/session')).status, 401);
    assert.equal((await withCookie(svc, consoleSession.cookie, 'GET', '/session')).status, 200);
  });
});
