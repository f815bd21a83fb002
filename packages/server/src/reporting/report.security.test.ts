import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import {
  countRows,
  createGame,
  getUploadUrl,
  postReport,
  reportBody,
  rpcError,
  uploadEvidence,
  type GameApp,
} from '../testing/reporting/reporting.js';

describe('reporting 4.1 / 4.2 (signatures, replay, caps)', () => {
  let svc: TestService;
  let game: GameApp;
  let other: GameApp;
  before(async () => {
    svc = await startTestService({ REPORT_DAILY_CAP_PER_REPORTER: '3', REPORT_OPEN_CAP_PER_REPORTEE: '2' });
    game = await createGame(svc);
    other = await createGame(svc, { name: 'other' });
  });
  after(async () => {
    await svc.close();
  });

  const stale = String(Math.floor(Date.now() / 1000) - 3600);

  const authCases: Array<[string, () => GameApp, { secret?: string; timestamp?: string }, number, string]> = [
    ['a wrong secret', () => game, { secret: 'not-the-secret' }, 401, 'BAD_SIGNATURE'],
    ['the secret of another app', () => game, { secret: 'x' }, 401, 'BAD_SIGNATURE'],
    ['a stale timestamp', () => game, { timestamp: stale }, 401, 'STALE_TIMESTAMP'],
    [
      'a future timestamp',
      () => game,
      { timestamp: String(Math.floor(Date.now() / 1000) + 3600) },
      401,
      'STALE_TIMESTAMP',
    ],
    ['an unknown client id', () => ({ ...game, clientId: 'no-such-client' }), {}, 401, 'UNKNOWN_CLIENT'],
  ];

  for (const [name, who, opts, status, reason] of authCases) {
    it(`4.1 refuses ${name} and stores nothing`, async () => {
      const before = await countRows(svc, 'reports');
      const app = who();
      const secret = name === 'the secret of another app' ? other.secret : opts.secret;
      const res = await postReport(svc, app, reportBody(app), { ...opts, ...(secret ? { secret } : {}) });
      assert.equal(rpcError(res, status, 16, reason), undefined);
      assert.equal(await countRows(svc, 'reports'), before);
    });

    it(`4.2 refuses ${name} and issues no URL`, async () => {
      const before = await countRows(svc, 'evidence_uploads');
      const app = who();
      const secret = name === 'the secret of another app' ? other.secret : opts.secret;
      const res = await getUploadUrl(
        svc,
        app,
        { file_name: 'a.png', file_size: '5' },
        { ...opts, ...(secret ? { secret } : {}) },
      );
      assert.equal(rpcError(res, status, 16, reason), undefined);
      assert.equal(await countRows(svc, 'evidence_uploads'), before);
    });
  }

  it('4.1 refuses a body changed after signing', async () => {
    const res = await svc.fetch('/svc/reporting/open/v1/player/report', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...(await import('../testing/service.js')).signMd5(reportBody(game), game.secret),
        user_description: 'changed',
      }),
    });
    assert.equal(
      rpcError({ status: res.status, body: await res.json() }, 401, 16, 'BAD_SIGNATURE', /sign does not match/),
      undefined,
    );
  });

  it('4.1 and 4.2 refuse a reused nonce', async () => {
    const nonce = `n-${Date.now()}`;
    assert.equal(
      (await postReport(svc, game, reportBody(game, { reporter: { svcid: 'nonce-1' } }), { nonce })).status,
      200,
    );
    const again = await postReport(svc, game, reportBody(game, { reporter: { svcid: 'nonce-2' } }), { nonce });
    assert.equal(rpcError(again, 401, 16, 'NONCE_REUSED'), undefined);
    const u = `u-${Date.now()}`;
    assert.equal((await getUploadUrl(svc, game, { file_name: 'a.png', file_size: '5' }, { nonce: u })).status, 200);
    assert.equal(
      rpcError(
        await getUploadUrl(svc, game, { file_name: 'a.png', file_size: '5' }, { nonce: u }),
        401,
        16,
        'NONCE_REUSED',
      ),
      undefined,
    );
  });

  it('4.1: of concurrent reports sharing one nonce (one batch, distinct reporters), exactly one is stored', async () => {
    const nonce = `race-${Date.now()}`;
    const before = await countRows(svc, 'reports');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postReport(svc, game, reportBody(game, { reporter: { svcid: `race-${i}` } }), { nonce }),
      ),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1);
    for (const a of answers.filter((x) => x.status !== 200))
      assert.equal(rpcError(a, 401, 16, 'NONCE_REUSED'), undefined);
    assert.equal(await countRows(svc, 'reports'), before + 1);
  });

  it('refuses a disabled app', async () => {
    const off = await createGame(svc, { name: 'disabled' });
    await svc.admin('PATCH', `/apps/${off.appId}`, { status: 'disabled' });
    await new Promise((r) => setTimeout(r, 2100)); // the app cache (APP_CACHE_MS)
    assert.equal(rpcError(await postReport(svc, off, reportBody(off)), 401, 16, 'UNKNOWN_CLIENT'), undefined);
  });

  it('lets only the reporter named in 4.2 (svcid) cite the file', async () => {
    const { uri } = await uploadEvidence(svc, game, Buffer.from('bound'), 'b.png', { svcid: 'owner-1' });
    const res = await postReport(
      svc,
      game,
      reportBody(game, { reporter: { svcid: 'someone-else' }, evidence: [{ uri }] }),
    );
    assert.equal(
      rpcError(res, 400, 3, 'INVALID_PARAMETER', /^evidence\.0\.uri: was issued \(4\.2 svcid\) to another player/),
      undefined,
    );
    assert.equal(
      (await postReport(svc, game, reportBody(game, { reporter: { svcid: 'owner-1' }, evidence: [{ uri }] }))).status,
      200,
    );
  });

  it('caps open reports by one reporter against one reportee (RESOURCE_EXHAUSTED)', async () => {
    const reporter = { svcid: 'cap-open' };
    for (const id of [1, 2])
      assert.equal((await postReport(svc, game, reportBody(game, { reporter, reasons: [{ id }] }))).status, 200);
    const before = await countRows(svc, 'reports');
    const third = await postReport(svc, game, reportBody(game, { reporter, reasons: [{ id: 3 }] }));
    assert.equal(
      rpcError(
        third,
        429,
        8,
        'REPORT_LIMIT_REACHED',
        /2 open reports against this reportee.*REPORT_OPEN_CAP_PER_REPORTEE/,
      ),
      undefined,
    );
    assert.equal(third.body.details[0].metadata.status, 'RESOURCE_EXHAUSTED');
    assert.equal(await countRows(svc, 'reports'), before);
    // A repeat of a stored report is still answered 200 (duplicate rule before caps).
    assert.equal((await postReport(svc, game, reportBody(game, { reporter, reasons: [{ id: 1 }] }))).status, 200);
    // Another reportee is fine, and another app has its own counts.
    assert.equal((await postReport(svc, game, reportBody(game, { reporter, reportee: { svcid: 'x-2' } }))).status, 200);
    assert.equal((await postReport(svc, other, reportBody(other, { reporter, reasons: [{ id: 3 }] }))).status, 200);
  });

  it('caps reports a day per reporter (RESOURCE_EXHAUSTED)', async () => {
    const reporter = { svcid: 'cap-day' };
    for (const r of ['a', 'b', 'c'])
      assert.equal(
        (await postReport(svc, game, reportBody(game, { reporter, reportee: { svcid: `day-${r}` } }))).status,
        200,
      );
    const res = await postReport(svc, game, reportBody(game, { reporter, reportee: { svcid: 'day-d' } }));
    assert.equal(
      rpcError(res, 429, 8, 'REPORT_LIMIT_REACHED', /3 reports in the last 24 hours.*REPORT_DAILY_CAP_PER_REPORTER/),
      undefined,
    );
  });

  it('holds the daily cap exactly when one reporter sends a burst (reports of one reporter never share a batch)', async () => {
    const reporter = { svcid: 'cap-burst' };
    const before = await countRows(svc, 'reports');
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((r) =>
        postReport(svc, game, reportBody(game, { reporter, reportee: { svcid: `burst-${r}` } })),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 429, 429]);
    assert.equal(await countRows(svc, 'reports'), before + 3);
  });

  it('stores a burst of reports by many reporters, each once with its reasons, and answers repeats within it', async () => {
    const [reports, reasons] = [await countRows(svc, 'reports'), await countRows(svc, 'report_reasons')];
    const bodies = Array.from({ length: 24 }, (_, i) =>
      reportBody(game, {
        reporter: { svcid: `many-${i}` },
        reportee: { svcid: 'many-target' },
        reasons: [{ id: 1 }, { id: 2 + i }],
      }),
    );
    const answers = await Promise.all([...bodies, bodies[0]!, bodies[1]!].map((b) => postReport(svc, game, b)));
    assert.deepEqual(
      answers.filter((a) => a.status !== 200),
      [],
    );
    assert.equal(await countRows(svc, 'reports'), reports + 24);
    assert.equal(await countRows(svc, 'report_reasons'), reasons + 48);
    const listed = await svc.admin('GET', `/reports?appId=${game.appId}&reportee=many-target&limit=50`);
    assert.equal(listed.body.reports.length, 24);
    const one = listed.body.reports.find((r: any) => r.reporter.svcid === 'many-5');
    assert.deepEqual(
      one.reasons.map((r: any) => r.id),
      ['1', '7'],
    );
  });

  it('never echoes the secret in errors', async () => {
    const res = await postReport(svc, game, reportBody(game), { secret: 'wrong' });
    assert.equal(res.status, 401);
    assert.ok(!JSON.stringify(res.body).includes(game.secret));
  });
});
