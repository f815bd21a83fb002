import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SignableValue } from '@game-platform/sdk';
import { signMd5, startTestService, type TestService } from '../testing/service.js';
import {
  countRows,
  createGame,
  getUploadUrl,
  postRaw,
  postReport,
  reportBody,
  rpcError,
  uploadEvidence,
  type GameApp,
  type RpcAnswer,
} from '../testing/reporting/reporting.js';

/** Bad input to 4.1 and 4.2: a clear rpcStatus naming the field, never a 500, and nothing stored. */
describe('reporting 4.1 / 4.2 (bad input)', () => {
  let svc: TestService;
  let game: GameApp;
  let other: GameApp;
  let uploaded: { uri: string; size: number };
  let otherAppUri: string;
  let notUploadedUri: string;
  before(async () => {
    svc = await startTestService({
      BODY_LIMIT_BYTES: '65536',
      EVIDENCE_MAX_FILES: '2',
      REPORT_MAX_REASONS: '3',
      REPORT_DESCRIPTION_MAX_CHARS: '20',
      REPORT_EXTRAS_MAX_CHARS: '16',
      EVIDENCE_MAX_FILE_BYTES: '1000',
    });
    game = await createGame(svc);
    other = await createGame(svc, { name: 'other game' });
    const content = Buffer.from('evidence!');
    uploaded = { uri: (await uploadEvidence(svc, game, content, 'a.png')).uri, size: content.length };
    otherAppUri = (await uploadEvidence(svc, other, content, 'b.png')).uri;
    const issued = await getUploadUrl(svc, game, { file_name: 'never.png', file_size: '5' });
    notUploadedUri = issued.body.signed_url.split('?')[0];
  });
  after(async () => {
    await svc.close();
  });

  const body = (o: Record<string, SignableValue>) => reportBody(game, o);
  const cases: Array<[string, () => Promise<RpcAnswer>, RegExp, number?, string?]> = [
    [
      'a missing client_info',
      () => {
        const b = body({});
        delete b.client_info;
        return postReport(svc, game, b);
      },
      /^client_info: is required/,
    ],
    [
      'a missing client_id',
      () => postReport(svc, game, body({ client_info: { ip: '1.2.3.4' } })),
      /^client_info\.client_id: is required/,
    ],
    [
      'a missing reporter',
      () => {
        const b = body({});
        delete b.reporter;
        return postReport(svc, game, b);
      },
      /^reporter: is required/,
    ],
    [
      'a missing reportee',
      () => {
        const b = body({});
        delete b.reportee;
        return postReport(svc, game, b);
      },
      /^reportee: is required/,
    ],
    [
      'missing reasons',
      () => {
        const b = body({});
        delete b.reasons;
        return postReport(svc, game, b);
      },
      /^reasons: is required/,
    ],
    ['an empty reason list', () => postReport(svc, game, body({ reasons: [] })), /^reasons/],
    [
      'a reason without id',
      () => postReport(svc, game, body({ reasons: [{ title: 'x' }] })),
      /^reasons\.0\.id: is required/,
    ],
    [
      'a reason id that is not an integer',
      () => postReport(svc, game, body({ reasons: [{ id: 'seven' }] })),
      /^reasons\.0\.id/,
    ],
    [
      'a reason id past int64',
      () => postReport(svc, game, body({ reasons: [{ id: '9223372036854775808' }] })),
      /^reasons\.0\.id: is out of the int64 range/,
    ],
    [
      'a reason listed twice',
      () => postReport(svc, game, body({ reasons: [{ id: 4 }, { id: '4' }] })),
      /^reasons\.1\.id: is listed twice/,
    ],
    [
      'too many reasons',
      () => postReport(svc, game, body({ reasons: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] })),
      /^reasons: at most 3/,
    ],
    ['a wrong type', () => postReport(svc, game, body({ user_description: 5 })), /^user_description: must be string/],
    [
      'a wrong nested type',
      () => postReport(svc, game, body({ reporter: { svcid: 90001 } })),
      /^reporter\.svcid: must be string/,
    ],
    ['an unknown field', () => postReport(svc, game, body({ colour: 'red' })), /^colour: is not a known field/],
    [
      'an unknown nested field',
      () => postReport(svc, game, body({ reportee: { svcid: '1', server_id: 's1' } })),
      /^reportee\.server_id: is not a known field/,
    ],
    [
      'a player without svcid or role_id',
      () => postReport(svc, game, body({ reportee: { role_name: 'x' } })),
      /^reportee\.svcid: svcid or role_id is required/,
    ],
    [
      'a player reporting themself (svcid)',
      () => postReport(svc, game, body({ reportee: { svcid: '90001' } })),
      /^reportee: is the reporter/,
    ],
    [
      'a player reporting themself (role)',
      () =>
        postReport(
          svc,
          game,
          body({ reporter: { role_id: 'r7', server_code: 's1' }, reportee: { role_id: 'r7', server_code: 's1' } }),
        ),
      /^reportee: is the reporter/,
    ],
    [
      'two different device ids',
      () => postReport(svc, game, body({ client_info: { client_id: game.clientId, DeviceID: 'a', device_id: 'b' } })),
      /^client_info\.device_id: differs from client_info\.DeviceID/,
    ],
    [
      'two different reason extras',
      () => postReport(svc, game, body({ reasons: [{ id: 1, extras: 'a', extra: 'b' }] })),
      /^reasons\.0\.extra: differs/,
    ],
    [
      'a too long description',
      () => postReport(svc, game, body({ user_description: 'x'.repeat(21) })),
      /^user_description: must be at most 20 characters/,
    ],
    ['too long extras', () => postReport(svc, game, body({ extras: 'x'.repeat(17) })), /^extras: must be at most 16/],
    [
      'too long reason extras',
      () => postReport(svc, game, body({ reasons: [{ id: 1, extras: 'x'.repeat(17) }] })),
      /^reasons\.0\.extras: must be at most 16/,
    ],
    [
      'too long player extra',
      () => postReport(svc, game, body({ reporter: { svcid: '1', extra: 'y'.repeat(17) } })),
      /^reporter\.extra: must be at most 16/,
    ],
    [
      'evidence without uri',
      () => postReport(svc, game, body({ evidence: [{ name: 'x' }] })),
      /^evidence\.0\.uri: is required/,
    ],
    [
      'an unknown evidence uri',
      () =>
        postReport(svc, game, body({ evidence: [{ uri: uploaded.uri }, { uri: 'https://elsewhere.example/x.png' }] })),
      /^evidence\.1\.uri: is not an evidence address this service issued to this app/,
    ],
    [
      'evidence of another app',
      () => postReport(svc, game, body({ evidence: [{ uri: otherAppUri }] })),
      /^evidence\.0\.uri: is not an evidence address this service issued to this app/,
    ],
    [
      'evidence not uploaded',
      () => postReport(svc, game, body({ evidence: [{ uri: uploaded.uri }, { uri: notUploadedUri }] })),
      /^evidence\.1\.uri: nothing has been uploaded/,
    ],
    [
      'a forged address (tag changed)',
      () =>
        postReport(
          svc,
          game,
          body({
            evidence: [{ uri: uploaded.uri.replace(/[0-9a-f](\.png)$/, (m, ext) => (m[0] === '0' ? '1' : '0') + ext) }],
          }),
        ),
      /^evidence\.0\.uri: is not an evidence address this service issued to this app/,
    ],
    [
      'an issued address under another host',
      () =>
        postReport(
          svc,
          game,
          body({ evidence: [{ uri: uploaded.uri.replace(/^https?:\/\/[^/]+/, 'https://elsewhere.example') }] }),
        ),
      /^evidence\.0\.uri: is not an evidence address this service issued to this app/,
    ],
    [
      'the signed URL instead of the uri',
      () => postReport(svc, game, body({ evidence: [{ uri: `${uploaded.uri}?expires=1&size=9&signature=x` }] })),
      /^evidence\.0\.uri: is not an evidence address/,
    ],
    [
      'a wrong size_byte',
      () => postReport(svc, game, body({ evidence: [{ uri: uploaded.uri, size_byte: '10' }] })),
      /^evidence\.0\.size_byte: is 10 but the uploaded file has 9 bytes/,
    ],
    [
      'a negative size_byte',
      () => postReport(svc, game, body({ evidence: [{ uri: uploaded.uri, size_byte: -1 }] })),
      /^evidence\.0\.size_byte: must be a non-negative int64/,
    ],
    [
      'the same evidence twice',
      () => postReport(svc, game, body({ evidence: [{ uri: uploaded.uri }, { uri: uploaded.uri }] })),
      /^evidence\.1\.uri: is already cited as evidence\.0/,
    ],
    [
      'too many evidence files',
      () =>
        postReport(
          svc,
          game,
          body({ evidence: [{ uri: uploaded.uri }, { uri: notUploadedUri }, { uri: otherAppUri }] }),
        ),
      /^evidence: at most 2 files/,
    ],
    [
      'a timestamp that is not seconds',
      () => postReport(svc, game, body({}), { timestamp: '2024-01-01' }),
      /^timestamp: must be Unix time in seconds/,
    ],
    [
      'a missing sign',
      () =>
        postRaw(svc, JSON.stringify({ ...body({}), nonce: 'n1', timestamp: String(Math.floor(Date.now() / 1000)) })),
      /^sign: is required/,
    ],
    ['malformed JSON', () => postRaw(svc, '{"client_info": {'), /not valid JSON/, 400, 'MALFORMED_JSON'],
    ['an empty body', () => postRaw(svc, ''), /empty/, 400, 'MALFORMED_JSON'],
    ['a JSON array body', () => postRaw(svc, '[]'), /must be object/],
    [
      'a form body',
      () => postRaw(svc, 'a=b', 'application/x-www-form-urlencoded'),
      /.+/,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a huge body',
      () => postRaw(svc, JSON.stringify({ ...signMd5(body({}), game.secret), user_description: 'x'.repeat(70_000) })),
      /.+/,
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];

  for (const [name, call, message, status = 400, reason = 'INVALID_PARAMETER'] of cases) {
    it(`4.1 refuses ${name} without storing anything`, async () => {
      const before = await countRows(svc, 'reports');
      const res = await call();
      assert.equal(rpcError(res, status, 3, reason, message), undefined);
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'details', 'message']);
      assert.equal(await countRows(svc, 'reports'), before);
    });
  }

  const uploadCases: Array<[string, Record<string, string>, RegExp]> = [
    ['a missing file_name', { file_size: '10' }, /^file_name: is required/],
    [
      'a disallowed content type',
      { file_name: 'tool.exe', file_size: '10' },
      /^file_name: content type application\/.* is not allowed/,
    ],
    [
      'an unknown extension',
      { file_name: 'noext', file_size: '10' },
      /^file_name: an unknown extension is not allowed/,
    ],
    [
      'a control character in file_name',
      { file_name: 'a\nb.png', file_size: '10' },
      /^file_name: must not contain control characters/,
    ],
    ['a missing file_size', { file_name: 'a.png' }, /^file_size: is required/],
    ['a zero file_size', { file_name: 'a.png', file_size: '0' }, /^file_size: must be at least 1/],
    [
      'a file_size above the limit',
      { file_name: 'a.png', file_size: '1001' },
      /^file_size: must be at most 1000 bytes/,
    ],
    ['a file_size that is not digits', { file_name: 'a.png', file_size: '12kb' }, /^file_size/],
    ['an unknown parameter', { file_name: 'a.png', file_size: '5', path: '../x' }, /^path: is not a known field/],
    [
      'two different device ids',
      { file_name: 'a.png', file_size: '5', 'client_info.device_id': 'a', 'client_info.DeviceID': 'b' },
      /^client_info\.DeviceID: differs/,
    ],
  ];
  for (const [name, params, message] of uploadCases) {
    it(`4.2 refuses ${name} without issuing a URL`, async () => {
      const before = await countRows(svc, 'evidence_uploads');
      const res = await getUploadUrl(svc, game, params);
      assert.equal(rpcError(res, 400, 3, 'INVALID_PARAMETER', message), undefined);
      assert.equal(await countRows(svc, 'evidence_uploads'), before);
    });
  }

  it('4.2 refuses a missing client_info.client_id', async () => {
    const res = await svc.fetch(
      '/svc/reporting/open/v1/upload/oss_sign_url?file_name=a.png&file_size=3&nonce=n&timestamp=1&sign=00000000000000000000000000000000',
    );
    assert.equal(
      rpcError(
        { status: res.status, body: await res.json() },
        400,
        3,
        'INVALID_PARAMETER',
        /^client_info\.client_id: is required/,
      ),
      undefined,
    );
  });

  it('answers a wrong method on a reporting path in rpcStatus', async () => {
    const res = await svc.fetch('/svc/reporting/open/v1/player/report');
    const body = (await res.json()) as any;
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.equal(body.code, 12);
    assert.equal(body.details[0].reason, 'METHOD_NOT_ALLOWED');
  });
});
