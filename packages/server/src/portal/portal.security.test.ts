import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { routeAccess } from '../operators/permissions.js';
import { PORTAL_PUBLIC } from './portal-access.routes.js';
import { startTestService, type TestService } from '../testing/service.js';
import { totpCode } from '../identity/credentials.js';
import { auditEvents } from '../testing/operators/operators.js';
import { createOperator, operatorToken } from '../testing/operators.js';
import { sessionOf } from '../testing/operators/operators.js';
import {
  createDeveloper,
  portalAs,
  portalRoutesOf,
  portalSessionOf,
  portalSignIn,
  validBody,
  validQuery,
  type PortalSession,
  type TestDeveloper,
} from '../testing/portal/portal.js';

/**
 * The portal's walls (docs/portal.md): every portal route refuses another studio's app (404 in the envelope, and
 * nothing changes), a request without a portal session, and a change without its CSRF token; a studio's session is
 * refused on every /admin/v1 route; sign-in refusals are the same answer and audited.
 */
describe('studio portal (security)', () => {
  let svc: TestService;
  let appA: any;
  let appB: any;
  let devA: TestDeveloper;
  let devB: TestDeveloper;
  let sessionA: PortalSession;
  let sessionB: PortalSession;
  let eventA: number;
  let routes: Awaited<ReturnType<typeof portalRoutesOf>>;

  before(async () => {
    svc = await startTestService(
      { OPERATOR_LOGIN_MAX_FAILURES: '3', OPERATOR_LOCK_SECONDS: '600', OPERATOR_LOGIN_DELAY_MS: '1' },
      { dispatcher: false },
    );
    appA = await svc.createApp({ name: 'Studio A game', callbackUrls: { default: 'https://a.example/pay' } });
    appB = await svc.createApp({ name: 'Studio B game', callbackUrls: { default: 'https://b.example/pay' } });
    devA = await createDeveloper(svc, 'dev-a', [appA.appId]);
    devB = await createDeveloper(svc, 'dev-b', [appB.appId]);
    sessionA = await portalSessionOf(svc, devA);
    sessionB = await portalSessionOf(svc, devB);
    eventA = (await portalAs(svc, sessionA, 'POST', `/apps/${appA.appId}/test-events`, { type: 'payment' })).body
      .eventId;
    assert.ok(eventA > 0);
    routes = await portalRoutesOf(svc);
  });
  after(async () => {
    await svc.close();
  });

  it('documents every portal route under its own tag and security scheme', async () => {
    assert.ok(routes.length >= 14, `portal routes found: ${routes.length}`);
    for (const r of routes) {
      assert.deepEqual(r.op.tags, ['portal'], `${r.method} ${r.url}`);
      const open = PORTAL_PUBLIC.has(`${r.method} ${r.url}`);
      assert.deepEqual(r.op.security, open ? [] : [{ studioSession: [] }], `${r.method} ${r.url}`);
    }
    const doc = (await (await svc.fetch('/openapi.json')).json()) as any;
    assert.equal(doc.components.securitySchemes.studioSession.name, 'gp_studio_session');
  });

  it("answers 404 on every app route for another studio's app, and changes nothing", async () => {
    const before = (await svc.admin('GET', `/apps/${appA.appId}`)).body;
    const eventsBefore = (await svc.admin('GET', `/events?appId=${appA.appId}`)).body.events;
    const appRoutes = routes.filter((r) => r.url.includes(':appId'));
    assert.ok(appRoutes.length >= 11);
    const wrong: string[] = [];
    for (const r of appRoutes) {
      const path = r.url
        .replace('/portal/v1', '')
        .replace(':appId', String(appA.appId))
        .replace(':eventId', String(eventA))
        .replace(':trxNo', '1');
      const res = await portalAs(svc, sessionB, r.method, path + validQuery(r.url), validBody(r.method, r.url));
      if (res.status !== 404 || res.body?.code !== 40400) wrong.push(`${r.method} ${r.url}: ${res.status}`);
    }
    assert.deepEqual(wrong, []);
    const after = (await svc.admin('GET', `/apps/${appA.appId}`)).body;
    assert.deepEqual(after, before, 'app A changed');
    assert.deepEqual((await svc.admin('GET', `/events?appId=${appA.appId}`)).body.events, eventsBefore);
  });

  it('answers 404 for an app that does not exist exactly as for one of another studio', async () => {
    const other = await portalAs(svc, sessionB, 'GET', `/apps/${appA.appId}`);
    const none = await portalAs(svc, sessionB, 'GET', '/apps/999999');
    assert.equal(other.status, 404);
    assert.deepEqual(
      { ...other.body, msg: other.body.msg, detail: other.body.detail.replace(String(appA.appId), 'N') },
      { ...none.body, detail: none.body.detail.replace('999999', 'N') },
    );
  });

  it("refuses another app's event through the studio's own app", async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.url.includes(':eventId'))) {
      const path = r.url
        .replace('/portal/v1', '')
        .replace(':appId', String(appB.appId))
        .replace(':eventId', String(eventA));
      const res = await portalAs(svc, sessionB, r.method, path, validBody(r.method, r.url));
      if (res.status !== 404 || res.body?.code !== 40400) wrong.push(`${r.method} ${r.url}: ${res.status}`);
    }
    const many = await portalAs(svc, sessionB, 'POST', `/apps/${appB.appId}/events/resend`, { eventIds: [eventA] });
    if (many.status !== 404) wrong.push(`resend many: ${many.status}`);
    assert.deepEqual(wrong, []);
    const event = await svc.services.delivery.events.get(eventA);
    assert.equal(Number(event!.attempts), 0, 'the event was not resent');
  });

  it('lists only the studio its own apps', async () => {
    const res = await portalAs(svc, sessionB, 'GET', '/apps');
    assert.deepEqual(
      res.body.apps.map((a: any) => a.appId),
      [appB.appId],
    );
    assert.ok(!JSON.stringify(res.body).includes(appB.secret), 'no secret on a read');
  });

  it('refuses every route without a portal session, and with operator credentials', async () => {
    const admin = await createOperator(svc, 'portal-admin', 'admin');
    const opSession = await sessionOf(svc, admin, Date.now());
    const token = await operatorToken(svc, 'portal-op', 'operator');
    const wrong: string[] = [];
    for (const r of routes.filter((x) => !PORTAL_PUBLIC.has(`${x.method} ${x.url}`))) {
      const path = r.url
        .replace('/portal/v1', '')
        .replace(':appId', String(appA.appId))
        .replace(':eventId', String(eventA));
      const body = validBody(r.method, r.url);
      const attempts: [string, Record<string, string>][] = [
        ['nothing', {}],
        ['admin token', { authorization: `Bearer ${svc.adminToken}` }],
        ['operator token', { authorization: `Bearer ${token}` }],
        ['operator cookie', { cookie: `gp_operator_session=${opSession.cookie}`, 'x-csrf-token': opSession.csrfToken }],
        ['operator cookie as portal cookie', { cookie: `gp_studio_session=${opSession.cookie}` }],
      ];
      for (const [what, headers] of attempts) {
        const res = await portalAs(svc, null, r.method, path, body, { headers });
        if (res.status !== 401 || res.body?.code !== 40110) wrong.push(`${what}: ${r.method} ${r.url}: ${res.status}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('refuses every change without its CSRF token, audited', async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((x) => x.method !== 'GET' && !PORTAL_PUBLIC.has(`${x.method} ${x.url}`))) {
      const path = r.url
        .replace('/portal/v1', '')
        .replace(':appId', String(appA.appId))
        .replace(':eventId', String(eventA));
      const res = await portalAs(svc, sessionA, r.method, path, validBody(r.method, r.url), { csrf: false });
      if (res.status !== 403 || res.body?.code !== 40304) wrong.push(`${r.method} ${r.url}: ${res.status}`);
      const forged = await portalAs(svc, sessionA, r.method, path, validBody(r.method, r.url), {
        csrf: false,
        headers: { 'x-csrf-token': sessionB.csrfToken },
      });
      if (forged.status !== 403) wrong.push(`forged ${r.method} ${r.url}: ${forged.status}`);
    }
    assert.deepEqual(wrong, []);
    const refused = await auditEvents(svc, 'portal-csrf-refused');
    assert.ok(refused.some((a) => a.operator === 'studio:dev-a'));
  });

  it("refuses a studio's session on every /admin/v1 route", async () => {
    const doc = (await (await svc.fetch('/openapi.json')).json()) as any;
    const adminRoutes = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/admin/v1/'))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })));
    assert.ok(adminRoutes.length > 50);
    const wrong: string[] = [];
    for (const r of adminRoutes) {
      // The operator sign-in's public routes (the login, its methods, the OpenID Connect redirect) need no session.
      if (routeAccess(r.method, r.path.replace(/\{(\w+)\}/g, ':$1')) === 'public') continue;
      const path = r.path.replace(/\{(\w+)\}/g, String(appA.appId));
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
      for (const headers of [
        { cookie: `gp_studio_session=${sessionA.cookie}`, 'x-csrf-token': sessionA.csrfToken },
        { cookie: `gp_operator_session=${sessionA.cookie}`, 'x-csrf-token': sessionA.csrfToken },
        { authorization: `Bearer ${sessionA.cookie}` },
      ]) {
        const res = await svc.fetch(path, {
          method: r.method,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const json = (await res.json()) as any;
        if (res.status !== 401 || json.code !== 40106) wrong.push(`${r.method} ${r.path}: ${res.status}`);
      }
    }
    assert.deepEqual(wrong, []);
    // And the operator sign-in does not know a developer's name.
    const op = await svc.fetch('/admin/v1/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: devA.name, password: devA.password, recoveryCode: devA.recoveryCodes[0] }),
    });
    assert.equal(op.status, 401);
  });

  it('refuses a wrong password, a wrong and a replayed TOTP code the same way, audited; locks after repeats', async () => {
    const dev = await createDeveloper(svc, 'dev-locked', [appA.appId]);
    const now = Date.now();
    const wrongPassword = await portalSignIn(svc, { name: dev.name, password: 'not the password', totp: '123456' });
    const wrongCode = await portalSignIn(svc, {
      name: dev.name,
      password: dev.password,
      totp: totpCode(dev.totpSecret, now - 600_000),
    });
    assert.equal(wrongPassword.status, 401);
    assert.equal(wrongPassword.body.code, 40111);
    assert.deepEqual(wrongCode.body, wrongPassword.body);
    assert.equal(wrongPassword.cookie, undefined);
    const ok = await portalSignIn(svc, { name: dev.name, password: dev.password, totp: totpCode(dev.totpSecret, now) });
    assert.equal(ok.status, 200);
    assert.match(ok.setCookie!, /^gp_studio_session=[^;]+; Path=\/portal\/v1; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const replay = await portalSignIn(svc, {
      name: dev.name,
      password: dev.password,
      totp: totpCode(dev.totpSecret, now),
    });
    assert.equal(replay.status, 401);
    // Two more failures after the replay: three in a row (OPERATOR_LOGIN_MAX_FAILURES=3) lock it.
    for (let i = 0; i < 2; i++)
      assert.equal((await portalSignIn(svc, { name: dev.name, password: 'still wrong!', totp: '123456' })).status, 401);
    const failed = (await auditEvents(svc, 'portal-login-failed')).filter((a) => a.operator === 'studio:dev-locked');
    assert.deepEqual([...new Set(failed.map((a) => a.note))].sort(), [
      'replayed TOTP code',
      'wrong TOTP code',
      'wrong password',
    ]);
    // Locked: even the right answer waits.
    const locked = await portalSignIn(svc, {
      name: dev.name,
      password: dev.password,
      recoveryCode: dev.recoveryCodes[0],
    });
    assert.equal(locked.status, 429);
    assert.ok((await auditEvents(svc, 'portal-login')).some((a) => a.operator === 'studio:dev-locked'));
  });

  it('ends the sessions of a disabled developer and of one whose app was taken away', async () => {
    const dev = await createDeveloper(svc, 'dev-gone', [appA.appId, appB.appId]);
    const s = await portalSessionOf(svc, dev);
    assert.equal((await portalAs(svc, s, 'GET', `/apps/${appB.appId}`)).status, 200);
    await svc.admin('PATCH', `/studio-developers/${dev.name}`, { appIds: [appA.appId] });
    assert.equal((await portalAs(svc, s, 'GET', '/session')).status, 401);
    const s2 = await portalSessionOf(svc, dev);
    assert.equal((await portalAs(svc, s2, 'GET', `/apps/${appB.appId}`)).status, 404);
    await svc.admin('PATCH', `/studio-developers/${dev.name}`, { disabled: true });
    assert.equal((await portalAs(svc, s2, 'GET', '/session')).status, 401);
    const again = await portalSignIn(svc, {
      name: dev.name,
      password: dev.password,
      recoveryCode: dev.recoveryCodes[0],
    });
    assert.equal(again.status, 401);
  });

  it('keeps studio developers off the operator accounts and out of each other', async () => {
    const res = await svc.admin('POST', '/studio-developers', { name: 'dev-a', appIds: [appA.appId] });
    assert.equal(res.status, 409);
    const noApp = await svc.admin('POST', '/studio-developers', { name: 'dev-x', appIds: [999999] });
    assert.equal(noApp.status, 404);
    const badName = await svc.admin('POST', '/studio-developers', { name: 'Dev X!', appIds: [appA.appId] });
    assert.equal(badName.status, 400);
    const ops = (await svc.admin('GET', '/operators')).body.operators.map((o: any) => o.name);
    assert.ok(!ops.includes('dev-a'));
  });
});
