import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { startTestService, type TestService } from '../testing/service.js';
import {
  countRows,
  createGame,
  getUploadUrl,
  postReport,
  reportBody,
  rpcError,
  type GameApp,
} from '../testing/reporting/reporting.js';
import { sigV4Valid } from '../testing/evidence/sigv4.js';

// s3rver's built-in account: it checks signatures made with it.
const SECRET = 'S3RVER';

/** The s3 backend against a real S3-compatible server on loopback (s3rver), plus the signature it cannot check. */
describe('evidence upload, s3 storage', () => {
  let s3: S3rver;
  let dir: string;
  let svc: TestService;
  let game: GameApp;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-s3-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'evidence-test' }],
    });
    const { port } = await s3.run();
    svc = await startTestService({
      EVIDENCE_BACKEND: 's3',
      EVIDENCE_S3_BUCKET: 'evidence-test',
      EVIDENCE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      EVIDENCE_S3_FORCE_PATH_STYLE: 'true',
      EVIDENCE_S3_ACCESS_KEY_ID: 'S3RVER',
      EVIDENCE_S3_SECRET_ACCESS_KEY: SECRET,
      EVIDENCE_URL_TTL_SECONDS: '600',
    });
    game = await createGame(svc);
  });
  after(async () => {
    await svc.close();
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function issue(size: number, name = 'clip.mp4'): Promise<string> {
    const res = await getUploadUrl(svc, game, { file_name: name, file_size: String(size) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.ttl, '600');
    return res.body.signed_url;
  }

  const putTo = (url: string, body: Buffer | string) =>
    fetch(url, { method: 'PUT', body, headers: { 'if-none-match': '*' } });

  it('runs the full flow: sign, PUT to the store, report, download link', async () => {
    const content = Buffer.from('fake mp4 content');
    const signedUrl = await issue(content.length);
    const uri = signedUrl.split('?')[0]!;
    assert.match(uri, new RegExp(`/evidence-test/evidence/${game.appId}/[0-9a-f]{64}\\.mp4$`));
    assert.equal((await putTo(signedUrl, content)).status, 200);

    const res = await postReport(
      svc,
      game,
      reportBody(game, { evidence: [{ uri, size_byte: content.length, name: 'clip.mp4' }] }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const list = await svc.admin('GET', `/reports?appId=${game.appId}`);
    const shown = await svc.admin('GET', `/reports/${list.body.reports[0].reportId}?moderator=mod-1`);
    const [ev] = shown.body.evidence;
    assert.equal(ev.uri, uri);
    assert.equal(ev.contentType, 'video/mp4');
    const download = await fetch(ev.downloadUrl);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), content);
    assert.equal(download.headers.get('content-type'), 'video/mp4');
    assert.match(download.headers.get('content-disposition') ?? '', /^attachment/);
    assert.ok(Date.parse(ev.downloadExpiresAt) <= Date.now() + 300_000 + 1000);
  });

  it('refuses a report citing a URL nothing was uploaded to', async () => {
    const uri = (await issue(10)).split('?')[0]!;
    const before = await countRows(svc, 'reports');
    const res = await postReport(svc, game, reportBody(game, { reporter: { svcid: 's3-2' }, evidence: [{ uri }] }));
    assert.equal(rpcError(res, 400, 3, 'INVALID_PARAMETER', /^evidence\.0\.uri: nothing has been uploaded/), undefined);
    assert.equal(await countRows(svc, 'reports'), before);
  });

  it('refuses a report citing an upload larger than declared (defence behind the signed length)', async () => {
    const signedUrl = await issue(4);
    // s3rver does not enforce the signed length, so it stores the oversize body; the report still refuses it.
    assert.equal((await putTo(signedUrl, 'much more than four bytes')).status, 200);
    const res = await postReport(
      svc,
      game,
      reportBody(game, { reporter: { svcid: 's3-3' }, evidence: [{ uri: signedUrl.split('?')[0]! }] }),
    );
    assert.equal(
      rpcError(res, 400, 3, 'INVALID_PARAMETER', /^evidence\.0\.uri: the stored file has 25 bytes but 4 were declared/),
      undefined,
    );
  });

  it('signs the content length, the key, the expiry and If-None-Match into the presigned URL', async () => {
    const signedUrl = await issue(1234, 'shot.png');
    const u = new URL(signedUrl);
    assert.equal(u.searchParams.get('X-Amz-Expires'), '600');
    assert.deepEqual(u.searchParams.get('X-Amz-SignedHeaders')!.split(';').sort(), [
      'content-length',
      'host',
      'if-none-match',
    ]);
    assert.equal(
      [...u.searchParams.keys()].filter((k) => /checksum/i.test(k)).length,
      0,
      'no checksum of an empty body',
    );

    const good = { 'content-length': '1234', 'if-none-match': '*' };
    assert.ok(sigV4Valid(signedUrl, 'PUT', good, SECRET), 'the URL verifies for the declared request');
    assert.ok(!sigV4Valid(signedUrl, 'PUT', { ...good, 'content-length': '1235' }, SECRET), 'another length breaks it');
    assert.ok(
      !sigV4Valid(signedUrl, 'PUT', { 'content-length': '1234', 'if-none-match': '' }, SECRET),
      'dropping If-None-Match breaks it',
    );
    const otherKey = new URL(signedUrl);
    otherKey.pathname = otherKey.pathname.replace(/[0-9a-f]{64}/, '0'.repeat(64));
    assert.ok(!sigV4Valid(otherKey.href, 'PUT', good, SECRET), 'another key breaks it');
    const longer = new URL(signedUrl);
    longer.searchParams.set('X-Amz-Expires', '604800');
    assert.ok(!sigV4Valid(longer.href, 'PUT', good, SECRET), 'another expiry breaks it');
    assert.ok(!sigV4Valid(signedUrl, 'GET', good, SECRET), 'another method breaks it');
  });
});
