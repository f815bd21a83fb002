import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import {
  countRows,
  createGame,
  getUploadUrl,
  postRaw,
  postReport,
  reportBody,
  uploadEvidence,
  type GameApp,
} from '../testing/reporting/reporting.js';
import { signMd5 } from '../testing/service.js';

describe('reporting 4.1 / 4.2 (happy paths, embedded storage)', () => {
  let svc: TestService;
  let game: GameApp;
  before(async () => {
    svc = await startTestService();
    game = await createGame(svc);
  });
  after(async () => {
    await svc.close();
  });

  async function latestReport(): Promise<any> {
    const list = await svc.admin('GET', `/reports?appId=${game.appId}&limit=1`);
    assert.equal(list.status, 200);
    return (await svc.admin('GET', `/reports/${list.body.reports[0].reportId}`)).body;
  }

  it('4.2 answers a signed URL and ttl as an int64 string of seconds', async () => {
    const res = await getUploadUrl(svc, game, {
      'client_info.ip': '203.0.113.7',
      'client_info.device_id': 'dev-1',
      svcid: '90001',
      file_name: 'clip.mp4',
      file_size: '1024',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['signed_url', 'ttl']);
    assert.equal(res.body.ttl, '900');
    const url = new URL(res.body.signed_url);
    assert.match(url.pathname, new RegExp(`^/svc/reporting/open/v1/evidence/${game.appId}/[0-9a-f]{64}\\.mp4$`));
    assert.equal(url.searchParams.get('size'), '1024');
    assert.ok(Number(url.searchParams.get('expires')) > Date.now() / 1000 + 800);
  });

  it('runs the full flow: sign, PUT, report with every field of 2.1; moderators see it all', async () => {
    const content = Buffer.from('\x89PNG fake image bytes');
    const { uri } = await uploadEvidence(svc, game, content, 'screen.png', { svcid: '90001' });
    const res = await postReport(
      svc,
      game,
      reportBody(game, {
        evidence: [{ name: 'screen.png', size_byte: String(content.length), uri }],
      }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {});

    const report = await latestReport();
    assert.equal(report.status, 'open');
    assert.deepEqual(report.client_info, { client_id: game.clientId, ip: '203.0.113.7', DeviceID: 'dev-1' });
    assert.deepEqual(report.reporter, {
      svcid: '90001',
      role_id: 'r1',
      server_code: 's1',
      role_name: 'Alice',
      extra: '{"guild":"a"}',
    });
    assert.deepEqual(report.reportee, {
      svcid: '90002',
      role_id: 'r2',
      server_code: 's1',
      role_name: 'Mallory',
      extra: '{"guild":"b"}',
    });
    assert.deepEqual(report.reasons, [{ id: '7', title: 'speed hack', extras: '{"speed":12}' }]);
    assert.equal(report.user_description, 'moves too fast');
    assert.equal(report.extras, '{"match":"m-1"}');
    assert.equal(report.evidence.length, 1);
    const [ev] = report.evidence;
    assert.equal(ev.uri, uri);
    assert.equal(ev.size_byte, String(content.length));
    assert.equal(ev.contentType, 'image/png');

    const download = await fetch(ev.downloadUrl);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), content);
    assert.equal(download.headers.get('content-type'), 'image/png');
    assert.match(download.headers.get('content-disposition') ?? '', /^attachment; filename="[0-9a-f]{64}\.png"$/);
    assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
  });

  it('accepts the sample spellings device_id and extra, and stores the documented ones', async () => {
    const res = await postReport(
      svc,
      game,
      reportBody(game, {
        client_info: { client_id: game.clientId, device_id: 'dev-sample' },
        reporter: { svcid: '91001' },
        reasons: [{ id: 8, extra: 'sample spelling' }],
      }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const report = await latestReport();
    assert.equal(report.client_info.DeviceID, 'dev-sample');
    assert.deepEqual(report.reasons, [{ id: '8', title: null, extras: 'sample spelling' }]);
  });

  it('takes int64 fields as JSON numbers or decimal strings, exact past 2^53', async () => {
    const content = Buffer.from('twelve bytes');
    const { uri } = await uploadEvidence(svc, game, content, 'note.txt');
    const body = signMd5(
      reportBody(game, {
        reporter: { svcid: '92001' },
        reasons: [{ id: '9223372036854775807' }, { id: 12 }],
        evidence: [{ uri, size_byte: content.length }],
      }),
      game.secret,
    );
    // A raw JSON integer literal past 2^53 keeps its digits (http/json-body.ts), and the signature still matches.
    const text = JSON.stringify(body).replace('"9223372036854775807"', '9223372036854775807');
    assert.ok(text.includes(':9223372036854775807}'));
    const res = await postRaw(svc, text);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const report = await latestReport();
    assert.deepEqual(
      report.reasons.map((r: any) => r.id),
      ['9223372036854775807', '12'],
    );
    assert.equal(report.evidence[0].size_byte, '12');
    assert.equal((await svc.admin('GET', `/reports?reasonId=9223372036854775807`)).body.reports.length, 1);
  });

  it('takes a minimal report: client id, two players by role only, one reason', async () => {
    const res = await postReport(svc, game, {
      client_info: { client_id: game.clientId },
      reporter: { role_id: 'solo-1', server_code: 's9' },
      reportee: { role_id: 'solo-2', server_code: 's9' },
      reasons: [{ id: '3' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const report = await latestReport();
    assert.equal(report.reporter.svcid, null);
    assert.equal(report.reportee.role_id, 'solo-2');
    assert.deepEqual(report.evidence, []);
    assert.equal(report.user_description, null);
  });

  it('answers a repeated identical report 200 and stores it once; another reason set is a new report', async () => {
    const body = reportBody(game, { reporter: { svcid: '93001' }, reasons: [{ id: 1 }, { id: 2, title: 'x' }] });
    const before = await countRows(svc, 'reports');
    assert.equal((await postReport(svc, game, body)).status, 200);
    // Same reason set in another order, other titles and text: still the same report.
    const again = await postReport(svc, game, {
      ...body,
      reasons: [{ id: '2' }, { id: 1, title: 'other' }],
      user_description: 'again',
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, {});
    assert.equal(await countRows(svc, 'reports'), before + 1);
    assert.equal((await postReport(svc, game, { ...body, reasons: [{ id: 1 }] })).status, 200);
    assert.equal(await countRows(svc, 'reports'), before + 2);
  });

  it('stores one report when identical reports race', async () => {
    const body = reportBody(game, { reporter: { svcid: '94001' } });
    const before = await countRows(svc, 'reports');
    const answers = await Promise.all([1, 2, 3, 4].map(() => postReport(svc, game, body)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200],
    );
    assert.equal(await countRows(svc, 'reports'), before + 1);
  });

  it('keeps the client file name out of the object key: ../ in file_name is harmless', async () => {
    const content = Buffer.from('path trick');
    const res = await getUploadUrl(svc, game, {
      file_name: '../../../etc/passwd.txt',
      file_size: String(content.length),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const url = new URL(res.body.signed_url);
    assert.ok(!res.body.signed_url.includes('passwd') && !res.body.signed_url.includes('..'));
    assert.match(url.pathname, /\/evidence\/\d+\/[0-9a-f]{64}\.txt$/);
    assert.equal((await fetch(res.body.signed_url, { method: 'PUT', body: content })).status, 200);
    const stored = await svc.services.evidence.storage.storedSize(url.pathname.replace('/svc/reporting/open/v1/', ''));
    assert.equal(stored, content.length);
  });
});
