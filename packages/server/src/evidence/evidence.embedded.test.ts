import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
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

/** The embedded backend's signed PUT: exactly the declared bytes, before expiry, to an untouched URL, once. */
describe('evidence upload, embedded storage', () => {
  let svc: TestService;
  let game: GameApp;
  let clock = Date.now();
  before(async () => {
    svc = await startTestService(
      { EVIDENCE_MAX_FILE_BYTES: '4096', EVIDENCE_URL_TTL_SECONDS: '60' },
      { now: () => clock },
    );
    game = await createGame(svc);
  });
  after(async () => {
    await svc.close();
  });

  async function issue(size: number, name = 'e.png'): Promise<URL> {
    const res = await getUploadUrl(
      svc,
      game,
      { file_name: name, file_size: String(size) },
      { timestamp: String(Math.floor(clock / 1000)) },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return new URL(res.body.signed_url);
  }

  async function put(url: URL | string, body: Buffer | string, headers: Record<string, string> = {}) {
    const res = await fetch(url, { method: 'PUT', body, headers });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, etag: res.headers.get('etag') };
  }

  const storedFiles = () => fs.readdirSync(path.join(svc.config.dataDir, 'evidence', String(game.appId))).length;

  it('stores exactly the declared bytes under DATA_DIR, answering the md5 as ETag', async () => {
    const url = await issue(11);
    const res = await put(url, 'hello world', { 'content-type': 'application/json' });
    assert.equal(res.status, 200);
    assert.equal(res.etag, '"5eb63bbbe01eeed093cb22bb8f5acdc3"');
    const file = path.join(svc.config.dataDir, url.pathname.replace('/svc/reporting/open/v1/', ''));
    assert.equal(fs.readFileSync(file, 'utf8'), 'hello world');
    assert.deepEqual(fs.readdirSync(path.join(svc.config.dataDir, 'evidence', '.tmp')), [], 'no temporary file left');
  });

  it('refuses an upload larger than declared, storing nothing', async () => {
    const url = await issue(5);
    const before = storedFiles();
    const res = await put(url, 'more than five');
    assert.equal(rpcError(res, 413, 3, 'PAYLOAD_TOO_LARGE', /larger than the declared file_size 5/), undefined);
    assert.equal(storedFiles(), before);
    // Nor is it citable.
    const report = await postReport(svc, game, reportBody(game, { evidence: [{ uri: url.href.split('?')[0] }] }), {
      timestamp: String(Math.floor(clock / 1000)),
    });
    assert.equal(
      rpcError(report, 400, 3, 'INVALID_PARAMETER', /^evidence\.0\.uri: nothing has been uploaded/),
      undefined,
    );
  });

  it('refuses an upload smaller than declared', async () => {
    const res = await put(await issue(10), 'short');
    assert.equal(
      rpcError(res, 400, 3, 'INVALID_PARAMETER', /^content-length: is 5; the declared file_size is 10/),
      undefined,
    );
  });

  it('refuses a body past EVIDENCE_MAX_FILE_BYTES even with a valid token', async () => {
    const url = await issue(4096);
    const res = await put(url, Buffer.alloc(5000));
    assert.equal(res.status, 413);
  });

  it('refuses a tampered URL: size, expiry, key, app or signature changed', async () => {
    const url = await issue(5);
    const tamper = (f: (u: URL) => void) => {
      const u = new URL(url);
      f(u);
      return u;
    };
    const cases = [
      tamper((u) => u.searchParams.set('size', '6')),
      tamper((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      tamper((u) => {
        u.pathname = u.pathname.replace(/[0-9a-f]{64}/, 'f'.repeat(64));
      }),
      tamper((u) => {
        u.pathname = u.pathname.replace(/\.png$/, '.txt');
      }),
      tamper((u) => {
        u.pathname = u.pathname.replace(`/evidence/${game.appId}/`, `/evidence/${game.appId + 1}/`);
      }),
      tamper((u) => u.searchParams.set('signature', 'A'.repeat(43))),
    ];
    for (const u of cases) {
      const res = await put(u, u.searchParams.get('size') === '6' ? 'sixsix' : 'five!');
      assert.equal(rpcError(res, 401, 16, 'BAD_SIGNATURE', /signature does not match/), undefined, u.href);
    }
    const traversal = await put(
      `${url.origin}/svc/reporting/open/v1/evidence/${game.appId}/..%2F..%2Fplatform.db?${url.searchParams}`,
      'five!',
    );
    assert.equal(traversal.status, 400);
    assert.equal((await put(url, 'five!')).status, 200, 'the untouched URL still works');
  });

  it('refuses an upload after expiry', async () => {
    const url = await issue(5);
    clock += 61_000;
    try {
      const res = await put(url, 'late!');
      assert.equal(rpcError(res, 403, 7, 'UPLOAD_URL_EXPIRED', /expired/), undefined);
    } finally {
      clock = Date.now();
    }
  });

  it('never overwrites: a second PUT to a used URL is refused and the first content stays', async () => {
    const url = await issue(5);
    assert.equal((await put(url, 'first')).status, 200);
    const again = await put(url, 'other');
    assert.equal(rpcError(again, 409, 6, 'CONFLICT', /never overwritten/), undefined);
    const file = path.join(svc.config.dataDir, url.pathname.replace('/svc/reporting/open/v1/', ''));
    assert.equal(fs.readFileSync(file, 'utf8'), 'first');
  });

  it('stores one of two racing uploads to the same URL', async () => {
    const url = await issue(4);
    const answers = await Promise.all([put(url, 'aaaa'), put(url, 'bbbb')]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
  });

  it('needs a Content-Length', async () => {
    const url = await issue(5);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('chunk'));
        c.close();
      },
    });
    const res = await fetch(url, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit);
    assert.equal(
      rpcError(
        { status: res.status, body: await res.json() },
        400,
        3,
        'INVALID_PARAMETER',
        /^content-length: is required/,
      ),
      undefined,
    );
  });

  it('keeps upload and download tokens apart', async () => {
    const url = await issue(5);
    const get = await fetch(url);
    assert.equal(
      rpcError(
        { status: get.status, body: await get.json() },
        400,
        3,
        'INVALID_PARAMETER',
        /^size: is not a known field/,
      ),
      undefined,
      'an upload URL does not download',
    );
    const withoutSize = new URL(url);
    withoutSize.searchParams.delete('size');
    assert.equal(
      rpcError(
        { status: (await fetch(withoutSize)).status, body: await (await fetch(withoutSize)).json() },
        401,
        16,
        'BAD_SIGNATURE',
      ),
      undefined,
    );
    const missing = await fetch(url.href.split('?')[0]!);
    assert.equal(missing.status, 400, 'the bare uri is not a download link');
  });

  it('still accepts an upload issued before ids were self-authenticating (a row written by 4.2)', async () => {
    const uploadId = 'a'.repeat(32);
    const key = `evidence/${game.appId}/${uploadId}.png`;
    const expiresAt = clock + 60_000;
    const storage = svc.services.evidence.storage;
    const { signedUrl, uri } = await storage.signUpload({
      key,
      appId: game.appId,
      size: 6,
      expiresAt,
      requestBaseUrl: new URL(svc.url).origin,
    });
    await svc.services.database.db
      .insertInto('evidence_uploads')
      .values({
        upload_id: uploadId,
        app_id: game.appId,
        backend: 'embedded',
        object_key: key,
        uri,
        file_name: 'old.png',
        content_type: 'image/png',
        declared_size: 6,
        svcid: null,
        client_ip: null,
        device_id: null,
        created_at: clock,
        expires_at: expiresAt,
        uploaded_at: null,
        uploaded_size: null,
      })
      .execute();
    assert.equal((await put(signedUrl, 'legacy')).status, 200);
    const res = await postReport(
      svc,
      game,
      reportBody(game, { reporter: { svcid: 'legacy-1' }, evidence: [{ uri }] }),
      { timestamp: String(Math.floor(clock / 1000)) },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const row = await svc.services.database.db
      .selectFrom('evidence_uploads')
      .selectAll()
      .where('upload_id', '=', uploadId)
      .executeTakeFirstOrThrow();
    assert.equal(row.uploaded_size, 6);
    assert.equal(row.file_name, 'old.png');
  });

  it('writes nothing for 4.2; the first report citing an upload records it, once', async () => {
    const before = await countRows(svc, 'evidence_uploads');
    const url = await issue(3);
    assert.equal(await countRows(svc, 'evidence_uploads'), before, 'the address is self-authenticating');
    assert.equal((await put(url, 'abc')).status, 200);
    const uri = url.href.split('?')[0]!;
    const ts = { timestamp: String(Math.floor(clock / 1000)) };
    for (const reporter of ['rec-1', 'rec-2']) {
      const res = await postReport(
        svc,
        game,
        reportBody(game, { reporter: { svcid: reporter }, evidence: [{ uri }] }),
        ts,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.equal(await countRows(svc, 'evidence_uploads'), before + 1);
  });
});
