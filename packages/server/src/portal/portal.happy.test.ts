import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { signMd5, startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { FAST, waitForEvent } from '../testing/delivery/delivery.js';
import { runCli } from '../testing/child.js';
import { TEST_DATABASE_URL } from '../testing/database.js';
import { auditEvents } from '../testing/operators/operators.js';
import { completeInvitation } from '../testing/operators.js';
import {
  createDeveloper,
  portalAs,
  portalSessionOf,
  portalSignIn,
  type PortalSession,
} from '../testing/portal/portal.js';

/** What a studio developer does in the portal API, on its own app (docs/portal.md). */
describe('studio portal (happy paths)', () => {
  let svc: TestService;
  let game: GameServer;
  let gameStatus = 200;
  let app: any;
  let s: PortalSession;

  before(async () => {
    svc = await startTestService({ ...FAST, SECRET_GRACE_SECONDS: '3600' });
    game = await startGameServer(await platformPublicKeys(svc.services), () => ({ status: gameStatus, body: 'ok' }));
    app = await svc.createApp({
      name: 'Happy Studio',
      callbackUrls: { default: `${game.url}/pay` },
      partnerUrl: `${game.url}/partner`,
      roleQueryUrl: `${game.url}/role`,
    });
    const dev = await createDeveloper(svc, 'happy-dev', [app.appId]);
    s = await portalSessionOf(svc, dev);
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  it('answers who is signed in, and signs out', async () => {
    const dev = await createDeveloper(svc, 'leaving-dev', [app.appId]);
    const mine = await portalSessionOf(svc, dev);
    const me = await portalAs(svc, mine, 'GET', '/session');
    assert.deepEqual(me.body, {
      name: 'leaving-dev',
      appIds: [app.appId],
      refundAppIds: [],
      csrfToken: mine.csrfToken,
      sandbox: { payments: false, login: false },
    });
    const out = await portalAs(svc, mine, 'DELETE', '/session');
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie')!, /^gp_studio_session=; Path=\/portal\/v1; Max-Age=0/);
    assert.equal((await portalAs(svc, mine, 'GET', '/session')).status, 401);
    assert.ok((await auditEvents(svc, 'portal-logout')).some((a) => a.operator === 'studio:leaving-dev'));
  });

  it('sends a test event and shows it with its attempts; resends one and many', async () => {
    const sent = await portalAs(svc, s, 'POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    assert.equal(sent.status, 201);
    const eventId = sent.body.eventId;
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const shown = await portalAs(svc, s, 'GET', `/apps/${app.appId}/events/${eventId}`);
    assert.equal(shown.body.state, 'delivered');
    assert.equal(shown.body.attemptLog.length, 1);
    assert.deepEqual(
      [shown.body.attemptLog[0].outcome, shown.body.attemptLog[0].httpStatus, shown.body.attemptLog[0].responseBody],
      ['delivered', 200, 'ok'],
    );
    assert.equal(typeof shown.body.attemptLog[0].latencyMs, 'number');
    const listed = await portalAs(svc, s, 'GET', `/apps/${app.appId}/events?type=test`);
    assert.ok(listed.body.events.some((e: any) => e.eventId === eventId));

    const one = await portalAs(svc, s, 'POST', `/apps/${app.appId}/events/${eventId}/resend`);
    assert.equal(one.status, 200);
    assert.equal(one.body.eventId, eventId);
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered' && Number(e.attempts) === 2);
    const many = await portalAs(svc, s, 'POST', `/apps/${app.appId}/events/resend`, { eventIds: [eventId, eventId] });
    assert.deepEqual(many.body, { resent: [eventId] });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered' && Number(e.attempts) === 3);
    // Studio actions are in the audit trail under the developer's name.
    const actions = (await svc.admin('GET', '/admin-actions?limit=200')).body.actions;
    assert.ok(actions.some((a: any) => a.operator === 'studio:happy-dev' && a.route.endsWith('/events/resend')));
  });

  it('recovers the dead events of an outage', async () => {
    gameStatus = 503;
    const sent = await portalAs(svc, s, 'POST', `/apps/${app.appId}/test-events`, { type: 'refund' });
    await waitForEvent(svc, sent.body.eventId, (e) => e.state === 'dead');
    gameStatus = 200;
    const since = new Date(Date.now() - 60_000).toISOString();
    const r = await portalAs(svc, s, 'POST', `/apps/${app.appId}/events/recover`, { since });
    assert.deepEqual(r.body, { recovered: 1 });
    await waitForEvent(svc, sent.body.eventId, (e) => e.state === 'delivered');
  });

  it('shows the game-call log with why each call failed', async () => {
    gameStatus = 500;
    const record = (await svc.services.apps.resolveByClientId(app.clientId))!;
    await svc.services.gameCalls.roleQuery(record, { roleId: 'r-1', serverId: 's-1' }).catch(() => undefined);
    gameStatus = 200;
    const calls = await portalAs(svc, s, 'GET', `/apps/${app.appId}/game-calls?failed=true`);
    assert.equal(calls.status, 200);
    assert.ok(calls.body.calls.length >= 1);
    assert.ok(calls.body.calls.every((c: any) => c.outcome !== 'ok' && c.appId === app.appId));
    assert.equal(calls.body.calls[0].httpStatus, 500);
  });

  it('lists the consumption notices of its app', async () => {
    const body = signMd5(
      { userId: '1001', roleId: 'r-1', serverId: 's1', productCode: 'gems', appId: app.appId },
      app.secret,
      { timestamp: Math.floor(Date.now() / 1000) },
    );
    const posted = await svc.fetch('/order/v1/game/pay/notify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(posted.status, 200, await posted.text());
    const notices = await portalAs(svc, s, 'GET', `/apps/${app.appId}/consumption-notices`);
    assert.equal(notices.body.notices.length, 1);
    assert.deepEqual([notices.body.notices[0].userId, notices.body.notices[0].productCode], ['1001', 'gems']);
  });

  it('sets its callback and game URLs with the same checks as the admin API, and nothing else', async () => {
    const set = await portalAs(svc, s, 'PATCH', `/apps/${app.appId}`, {
      callbackUrls: { default: `${game.url}/pay`, s2: `${game.url}/pay2` },
      preOrderCheckUrl: `${game.url}/check`,
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.callbackUrls, { default: `${game.url}/pay`, s2: `${game.url}/pay2` });
    const query = await portalAs(svc, s, 'PATCH', `/apps/${app.appId}`, {
      callbackUrls: { default: 'https://g.example/cb?x=1' },
    });
    assert.equal(query.status, 400);
    assert.match(query.body.detail, /^callbackUrls\.default: must carry no query string/);
    for (const field of ['name', 'status', 'allowedIps', 'region', 'unionIdEnabled']) {
      const res = await portalAs(svc, s, 'PATCH', `/apps/${app.appId}`, { [field]: 'x' });
      assert.equal(res.status, 400, field);
    }
    assert.equal((await svc.admin('GET', `/apps/${app.appId}`)).body.name, 'Happy Studio');
  });

  it('rotates its md5 secret: the new one shown once, the old one accepted for the grace period', async () => {
    const r = await portalAs(svc, s, 'POST', `/apps/${app.appId}/rotate-secret`);
    assert.equal(r.status, 200);
    assert.match(r.body.secret, /^\S{32,}$/);
    assert.ok(Date.parse(r.body.previousSecretExpiresAt) > Date.now() + 3_500_000);
    const read = await portalAs(svc, s, 'GET', `/apps/${app.appId}`);
    assert.ok(!JSON.stringify(read.body).includes(r.body.secret));
    const oldSecret = app.secret;
    app.secret = r.body.secret;
    const withOld = signMd5(
      { userId: '1002', roleId: 'r-2', serverId: 's1', productCode: 'gems', appId: app.appId },
      oldSecret,
      { timestamp: Math.floor(Date.now() / 1000) },
    );
    const posted = await svc.fetch('/order/v1/game/pay/notify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withOld),
    });
    assert.equal(posted.status, 200, 'the previous secret still signs during the grace period');
  });

  it('shows the platform public keys', async () => {
    const keys = await portalAs(svc, s, 'GET', '/platform-keys');
    assert.deepEqual(
      keys.body.keys.map((k: any) => k.kid),
      (await svc.admin('GET', '/platform-keys')).body.keys.map((k: any) => k.kid),
    );
    assert.match(keys.body.keys[0].publicKeyPem, /BEGIN PUBLIC KEY/);
  });

  it('lets an operator list, re-scope and reset a developer; the CLI does the same', async () => {
    const list = await svc.admin('GET', '/studio-developers');
    assert.ok(list.body.developers.some((d: any) => d.name === 'happy-dev' && d.appIds[0] === app.appId));
    const reset = await svc.admin('POST', '/studio-developers/happy-dev/reset', {});
    assert.deepEqual([reset.status, reset.body.invitation.kind], [200, 'reset']);
    assert.match(reset.body.link, /\/portal#\/invitation\/gpi_/);
    const renewed = await completeInvitation(svc, '/portal/v1', reset.body.link);
    assert.equal(renewed.recoveryCodes.length, 10);
    const again = await portalSignIn(svc, {
      name: 'happy-dev',
      password: renewed.password,
      recoveryCode: renewed.recoveryCodes[0],
    });
    assert.equal(again.status, 200);
    s = { cookie: again.cookie!, csrfToken: again.body.csrfToken };

    const schema = svc.services.database.schema;
    const env = {
      DATA_DIR: svc.config.dataDir,
      MASTER_KEY: svc.config.MASTER_KEY!,
      ADMIN_TOKEN: svc.adminToken,
      ...(schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
        : {}),
    };
    const cli = async (...args: string[]) => {
      const r = await runCli(env, ['--json', 'studio-developer', ...args]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout);
    };
    const made = await cli('create', 'cli-dev', '--apps', String(app.appId));
    assert.deepEqual(
      [made.developer.appIds, made.password, made.invitation.state],
      [[app.appId], undefined, 'pending'],
    );
    const invitee = await completeInvitation(svc, '/portal/v1', made.link);
    const signedIn = await portalSignIn(svc, {
      name: 'cli-dev',
      password: invitee.password,
      recoveryCode: invitee.recoveryCodes[0],
    });
    assert.equal(signedIn.status, 200);
    assert.equal((await cli('disable', 'cli-dev')).disabled, true);
    assert.ok((await cli('list')).developers.some((d: any) => d.name === 'cli-dev' && d.disabled));
  });
});
