import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import {
  countRows,
  createGame,
  postReport,
  reportBody,
  uploadEvidence,
  type GameApp,
} from '../testing/reporting/reporting.js';

/** The moderation queue under /admin/v1: list, show, decide, counts per reportee, audit log. */
describe('moderation queue (admin API)', () => {
  let svc: TestService;
  let game: GameApp;
  let other: GameApp;
  let withEvidence: number;
  before(async () => {
    svc = await startTestService();
    game = await createGame(svc);
    other = await createGame(svc, { name: 'other' });
    const file = await uploadEvidence(svc, game, Buffer.from('proof'), 'proof.png');
    // 'cheater' is reported by three players, 'rude' by one; one report in another app.
    const file4 = { evidence: [{ uri: file.uri }] };
    const send = async (app: GameApp, reporter: string, reportee: string, reason: number, extra = {}) => {
      const res = await postReport(
        svc,
        app,
        reportBody(app, {
          reporter: { svcid: reporter },
          reportee: { svcid: reportee, role_name: `${reportee}-name` },
          reasons: [{ id: reason }],
          ...extra,
        }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await send(game, 'p1', 'cheater', 1, file4);
    await send(game, 'p2', 'cheater', 2);
    await send(game, 'p3', 'cheater', 1);
    await send(game, 'p1', 'rude', 5);
    await send(other, 'p9', 'cheater', 1);
    withEvidence = (await svc.admin('GET', `/reports?appId=${game.appId}&reportee=cheater&reporter=p1`)).body.reports[0]
      .reportId;
  });
  after(async () => {
    await svc.close();
  });

  it('lists reports newest first and filters by app, reportee, reporter, reason, status and time', async () => {
    const all = await svc.admin('GET', '/reports');
    assert.equal(all.status, 200);
    assert.equal(all.body.reports.length, 5);
    const ids = all.body.reports.map((r: any) => r.reportId);
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => b - a),
    );
    const q = async (qs: string) => (await svc.admin('GET', `/reports?${qs}`)).body.reports.length;
    assert.equal(await q(`appId=${game.appId}`), 4);
    assert.equal(await q(`appId=${game.appId}&reportee=cheater`), 3);
    assert.equal(await q('reporter=p1'), 2);
    assert.equal(await q(`reasonId=1&appId=${game.appId}`), 2);
    assert.equal(await q('status=open'), 5);
    assert.equal(await q('status=dismissed'), 0);
    assert.equal(await q(`from=${Date.now() + 60_000}`), 0);
    assert.equal(await q(`to=${new Date(Date.now() + 60_000).toISOString()}&from=2020-01-01`), 5);
  });

  it('pages with a cursor, without repeats or gaps', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await svc.admin('GET', `/reports?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      seen.push(...res.body.reports.map((r: any) => r.reportId));
      cursor = res.body.nextCursor;
    } while (cursor);
    assert.equal(seen.length, 5);
    assert.equal(new Set(seen).size, 5);
  });

  it('counts reports per reportee, repeat offenders first, with pagination', async () => {
    const res = await svc.admin('GET', '/reports/reportees');
    assert.equal(res.status, 200);
    const top = res.body.reportees[0];
    assert.equal(top.appId, game.appId);
    assert.equal(top.reportee.key, 'cheater');
    assert.equal(top.reportee.role_name, 'cheater-name');
    assert.equal(top.reports, 3);
    assert.equal(top.openReports, 3);
    assert.equal(top.reporters, 3);
    assert.deepEqual(
      res.body.reportees.map((r: any) => r.reports),
      [3, 1, 1],
    );
    const page1 = await svc.admin('GET', '/reports/reportees?limit=2');
    const page2 = await svc.admin('GET', `/reports/reportees?limit=2&cursor=${page1.body.nextCursor}`);
    assert.deepEqual(
      [...page1.body.reportees, ...page2.body.reportees].map((r: any) => `${r.appId}:${r.reportee.key}`),
      res.body.reportees.map((r: any) => `${r.appId}:${r.reportee.key}`),
    );
    assert.equal(page2.body.nextCursor, null);
  });

  it('shows one report with a short-lived evidence link, and audits issuing it', async () => {
    const res = await svc.admin('GET', `/reports/${withEvidence}?moderator=alice`);
    assert.equal(res.status, 200);
    assert.equal(res.body.evidence.length, 1);
    assert.match(res.body.evidence[0].downloadUrl, /\?expires=\d+&signature=/);
    assert.deepEqual(res.body.history, []);
    const audit = await svc.admin('GET', `/moderation/audit?reportId=${withEvidence}&action=view_evidence`);
    assert.equal(audit.body.actions[0].moderator, 'alice');
    assert.deepEqual(audit.body.actions[0].details, { files: 1 });
  });

  it('sets the status with a note, kept as history and in the audit log', async () => {
    const first = await svc.admin('POST', `/reports/${withEvidence}/moderation`, {
      moderator: 'alice',
      status: 'actioned',
      note: 'clear speed hack on video',
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.status, 'actioned');
    const second = await svc.admin('POST', `/reports/${withEvidence}/moderation`, {
      moderator: 'bob',
      status: 'open',
      note: 'appeal: reopening',
      expectedStatus: 'actioned',
    });
    assert.equal(second.status, 200);
    assert.deepEqual(
      second.body.history.map((h: any) => [h.fromStatus, h.status, h.moderator, h.note]),
      [
        ['open', 'actioned', 'alice', 'clear speed hack on video'],
        ['actioned', 'open', 'bob', 'appeal: reopening'],
      ],
    );
    const audit = await svc.admin('GET', '/moderation/audit?action=set_status');
    assert.deepEqual(
      audit.body.actions.map((a: any) => a.moderator),
      ['bob', 'alice'],
    );
    assert.equal(audit.body.actions[0].toStatus, 'open');
  });

  it('refuses a decision on a report that moved meanwhile (expectedStatus), changing nothing', async () => {
    const before = await countRows(svc, 'moderation_actions');
    const res = await svc.admin('POST', `/reports/${withEvidence}/moderation`, {
      moderator: 'carol',
      status: 'dismissed',
      note: 'stale view',
      expectedStatus: 'dismissed',
    });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 40900);
    assert.equal(await countRows(svc, 'moderation_actions'), before);
  });

  it('refuses bad moderation input with a 2.3 error naming the field', async () => {
    const cases: Array<[string, string, unknown, number, RegExp]> = [
      ['POST', `/reports/${withEvidence}/moderation`, { moderator: 'a', status: 'banned', note: 'x' }, 400, /^status/],
      [
        'POST',
        `/reports/${withEvidence}/moderation`,
        { status: 'dismissed', note: 'x' },
        400,
        /^moderator: is required/,
      ],
      ['POST', `/reports/${withEvidence}/moderation`, { moderator: 'a', status: 'dismissed', note: '' }, 400, /^note/],
      [
        'POST',
        `/reports/${withEvidence}/moderation`,
        { moderator: 'a', status: 'dismissed', note: 'x', ban: true },
        400,
        /^ban: must be object/,
      ],
      [
        'POST',
        '/reports/999999/moderation',
        { moderator: 'a', status: 'dismissed', note: 'x' },
        404,
        /report 999999 does not exist/,
      ],
      ['GET', '/reports/999999', undefined, 404, /does not exist/],
      ['GET', '/reports?cursor=bm90LWEtY3Vyc29y', undefined, 400, /^cursor: is not a nextCursor/],
      ['GET', '/reports?limit=0', undefined, 400, /^limit: must be 1-200/],
      ['GET', '/reports?status=closed', undefined, 400, /^status/],
      ['GET', '/reports?from=yesterday', undefined, 400, /^from/],
      ['GET', '/reports?colour=red', undefined, 400, /^colour: is not a known field/],
    ];
    for (const [method, path, body, status, detail] of cases) {
      const res = await svc.admin(method, path, body);
      assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, detail, `${method} ${path}`);
    }
  });

  it('needs the admin token', async () => {
    for (const path of [
      '/admin/v1/reports',
      `/admin/v1/reports/${withEvidence}`,
      '/admin/v1/reports/reportees',
      '/admin/v1/moderation/audit',
    ]) {
      const res = await svc.fetch(path);
      assert.equal(res.status, 401, path);
    }
    const res = await svc.fetch(`/admin/v1/reports/${withEvidence}/moderation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ moderator: 'x', status: 'dismissed', note: 'x' }),
    });
    assert.equal(res.status, 401);
  });
});
