import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { guestLogin, profile } from '../testing/accounts/accounts.js';
import { countRows, createGame, postReport, reportBody, type GameApp } from '../testing/reporting/reporting.js';
import { adminAs, operatorToken } from '../testing/operators.js';

/** A moderation decision may ban the reportee's platform account, and lift the ban later (issue 4). */
describe('moderation: banning the reportee', () => {
  let svc: TestService;
  let game: GameApp;
  before(async () => {
    svc = await startTestService();
    game = await createGame(svc);
  });
  after(async () => {
    await svc.close();
  });

  async function reportAgainst(svcid: string, reporter = 'p1') {
    const res = await postReport(
      svc,
      game,
      reportBody(game, { reporter: { svcid: reporter }, reportee: { svcid }, reasons: [{ id: 1 }] }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (await svc.admin('GET', `/reports?appId=${game.appId}&reportee=${svcid}`)).body.reports[0]
      .reportId as number;
  }

  it('bans with a decision: tokens revoked at once, logins refused, audited; lifting restores logins', async () => {
    const device = 'cheater-device-1';
    const cheater = await guestLogin(svc, game.clientId, device);
    assert.equal((await profile(svc, game.clientId, cheater)).status, 200);
    const reportId = await reportAgainst(cheater.userId);

    const until = new Date(Date.now() + 3600_000).toISOString();
    const decided = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: 'mod-ann',
      status: 'actioned',
      note: 'speed hack confirmed',
      ban: { reason: 'cheating', until },
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    assert.equal(decided.body.status, 'actioned');

    const revoked = await profile(svc, game.clientId, cheater);
    assert.equal(revoked.status, 403);
    assert.equal(revoked.body.code, 40300);
    const login = await svc.fetch('/api/account/v1/client/login/guest', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: game.clientId, deviceId: device }),
    });
    assert.equal(login.status, 403);
    assert.equal(((await login.json()) as any).code, 40302);

    const audit = (await svc.admin('GET', `/moderation/audit?reportId=${reportId}`)).body.actions;
    const ban = audit.find((a: any) => a.action === 'ban_account');
    assert.ok(ban, JSON.stringify(audit));
    assert.equal(ban.moderator, 'mod-ann');

    const lifted = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: 'mod-bob',
      status: 'dismissed',
      note: 'appeal accepted',
      liftBan: true,
    });
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    const again = await guestLogin(svc, game.clientId, device);
    assert.equal((await profile(svc, game.clientId, again)).status, 200);
    const audit2 = (await svc.admin('GET', `/moderation/audit?reportId=${reportId}`)).body.actions;
    assert.ok(audit2.some((a: any) => a.action === 'lift_ban' && a.moderator === 'mod-bob'));
  });

  it('bans permanently with until null', async () => {
    const player = await guestLogin(svc, game.clientId, 'perma-device');
    const reportId = await reportAgainst(player.userId, 'p2');
    const res = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: 'mod',
      status: 'actioned',
      note: 'bot',
      ban: { reason: 'botting', until: null },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const login = await svc.fetch('/api/account/v1/client/login/guest', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: game.clientId, deviceId: 'perma-device' }),
    });
    assert.equal(login.status, 403);
  });

  it('refuses a ban of a reportee without a platform account, or of an unknown user, changing nothing', async () => {
    for (const svcid of ['not-a-user-id', '999999']) {
      const reportId = await reportAgainst(svcid, `p-${svcid}`);
      const actions = await countRows(svc, 'moderation_actions');
      const res = await svc.admin('POST', `/reports/${reportId}/moderation`, {
        moderator: 'mod',
        status: 'actioned',
        note: 'x',
        ban: { reason: 'cheating', until: null },
      });
      assert.ok(res.status === 400 || res.status === 404, `${svcid}: ${res.status}`);
      const view = await svc.admin('GET', `/reports/${reportId}`);
      assert.equal(view.body.status, 'open', 'the decision rolled back with the ban');
      assert.equal(await countRows(svc, 'moderation_actions'), actions);
    }
  });

  it('refuses a ban that ends in the past', async () => {
    const player = await guestLogin(svc, game.clientId, 'past-device');
    const reportId = await reportAgainst(player.userId, 'p3');
    const res = await svc.admin('POST', `/reports/${reportId}/moderation`, {
      moderator: 'mod',
      status: 'actioned',
      note: 'x',
      ban: { reason: 'r', until: '2001-01-01T00:00:00Z' },
    });
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /until/);
    assert.equal((await profile(svc, game.clientId, player)).status, 200);
  });
  it("records a moderator account's own name, whatever name the request gives (docs/operators.md)", async () => {
    const token = await operatorToken(svc, 'mod-max', 'moderator');
    const player = await guestLogin(svc, game.clientId, 'named-device');
    const reportId = await reportAgainst(player.userId, 'p9');
    const decided = await adminAs(svc, token, 'POST', `/reports/${reportId}/moderation`, {
      moderator: 'somebody-else',
      status: 'actioned',
      note: 'confirmed',
      ban: { reason: 'cheating', until: null },
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const lifted = await adminAs(svc, token, 'POST', `/users/${player.userId}/unban?actor=somebody-else`);
    assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
    const audit = (await svc.admin('GET', `/moderation/audit?reportId=${reportId}`)).body.actions;
    assert.deepEqual([...new Set(audit.map((a: any) => a.moderator))], ['mod-max'], JSON.stringify(audit));
    const user = (await adminAs(svc, token, 'GET', `/users/${player.userId}`)).body;
    assert.equal(user.bans[0].actor, 'mod-max', JSON.stringify(user.bans));
    assert.equal(user.bans[0].liftedBy, 'mod-max');
  });
});
