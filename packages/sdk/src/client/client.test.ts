/**
 * PlatformClient against a real node:http fake of the platform that checks every
 * signature with the SDK's own verifiers.
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_MAC_PORT,
  PlatformApiError,
  PlatformError,
  PlatformClient,
  PlatformNetworkError,
  PlatformResponseError,
  type PlatformClientOptions,
} from '../index.js';
import {
  APP_ID,
  ARREARS,
  CLIENT_ID,
  FakePlatform,
  PLAYER,
  PROFILE,
  SECRET,
  parseExact,
} from './fake-platform.testlib.js';

const REPORT = '/svc/reporting/open/v1/player/report';
const UPLOAD_URL = '/svc/reporting/open/v1/upload/oss_sign_url';
const PROFILE_PATH = '/api/account/v1/user/profile';
const ARREARS_PATH = '/order/v1/user/arrears';
const NOTIFY = '/order/v1/game/pay/notify';
const EVENTS = '/api/notify/v1/events';

const fake = new FakePlatform();
before(() => fake.start());
after(() => fake.stop());
beforeEach(() => {
  fake.reset();
  fake.macHost = '127.0.0.1';
});

const client = (o: Partial<PlatformClientOptions> = {}) =>
  new PlatformClient({
    baseUrl: fake.base,
    clientId: CLIENT_ID,
    secret: SECRET,
    appId: APP_ID,
    retryDelayMs: 1,
    timeoutMs: 2000,
    ...o,
  });

async function apiError(p: Promise<unknown>): Promise<PlatformApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof PlatformApiError, String(e));
    return e;
  }
  return assert.fail('expected a PlatformApiError');
}

async function networkError(p: Promise<unknown>): Promise<PlatformNetworkError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof PlatformNetworkError, String(e));
    return e;
  }
  return assert.fail('expected a PlatformNetworkError');
}

const report = {
  reporter: { svcid: '90001', role_id: 'r1', server_code: 's1' },
  reportee: { svcid: '90002', role_id: 'r2', server_code: 's1', role_name: 'Cheater' },
  reasons: [{ id: 9007199254740993n, title: 'speed hack' }, { id: '9223372036854775807' }, { id: 7 }],
  evidence: [{ name: 'clip.mp4', size_byte: 9007199254740995n, uri: 'oss://bucket/e/1.mp4' }],
  user_description: 'he flew',
};

describe('4.1 report', () => {
  it('signs the body (5.1) with a fresh nonce and a string timestamp; int64 values are sent exactly', async () => {
    await client().report(report);
    const [r] = fake.requestsTo(REPORT);
    assert.equal(r!.signed, true);
    assert.equal(r!.headers['content-type'], 'application/json');
    assert.match(r!.text, /"id":9007199254740993,/);
    assert.match(r!.text, /"id":"9223372036854775807"/);
    assert.match(r!.text, /"size_byte":9007199254740995,/);
    const body = parseExact(r!.text) as Record<string, unknown>;
    assert.equal(typeof body.timestamp, 'string');
    assert.ok(Math.abs(Number(body.timestamp) - Date.now() / 1000) < 5);
    assert.ok(String(body.nonce).length >= 16);
    assert.deepEqual(body.client_info, { client_id: CLIENT_ID });
  });

  it('sends the given client_info (either device id spelling)', async () => {
    await client().report({ ...report, client_info: { ip: '203.0.113.9', DeviceID: 'd-1' } });
    const body = parseExact(fake.requestsTo(REPORT)[0]!.text) as Record<string, unknown>;
    assert.deepEqual(body.client_info, { client_id: CLIENT_ID, ip: '203.0.113.9', DeviceID: 'd-1' });
  });

  it('a refused signature is a PlatformApiError from the rpcStatus body', async () => {
    const e = await apiError(client({ secret: 'wrong' }).report(report));
    assert.equal(e.status, 401);
    assert.equal(e.envelope, 'rpc');
    assert.equal(e.code, 40101);
    assert.equal(e.rpcCode, 16);
    assert.equal(e.reason, 'BAD_SIGNATURE');
    assert.equal(e.msg, 'sign does not match');
    assert.equal(e.attempts, 1);
    assert.ok(e instanceof PlatformError);
    assert.equal(fake.requestsTo(REPORT).length, 1, 'a POST is never re-sent after a response');
  });

  it('is not re-sent after a 503 or a timeout (the platform may have seen it)', async () => {
    fake.next(REPORT, { kind: 'status', status: 503, body: '{"code":14,"message":"unavailable","details":[]}' });
    const e = await apiError(client().report(report));
    assert.equal(e.status, 503);
    assert.equal(e.code, 14);
    assert.equal(fake.requestsTo(REPORT).length, 1);

    fake.reset();
    fake.next(REPORT, { kind: 'hang' });
    const t = await networkError(client({ timeoutMs: 150 }).report(report));
    assert.equal(t.reason, 'timeout');
    assert.equal(t.attempts, 1);
    assert.equal(fake.requestsTo(REPORT).length, 1);
  });

  it('is retried, freshly signed, when the connection was never made', async () => {
    const sent: string[] = [];
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      sent.push(String(init?.body));
      if (++calls === 1)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        });
      return fetch(input, init);
    };
    await client({ fetch: flaky }).report(report);
    assert.equal(calls, 2);
    const [a, b] = sent.map((t) => parseExact(t) as Record<string, unknown>);
    assert.notEqual(a!.nonce, b!.nonce);
    assert.notEqual(a!.sign, b!.sign);
    assert.equal(fake.requestsTo(REPORT)[0]!.signed, true);
  });

  it('a network error after the connection is not retried for a POST', async () => {
    let calls = 0;
    const reset: typeof fetch = async () => {
      calls++;
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    };
    const e = await networkError(client({ fetch: reset }).report(report));
    assert.equal(e.reason, 'network');
    assert.match(e.message, /ECONNRESET/);
    assert.equal(calls, 1);
  });

  it('refuses int64 values it cannot send exactly', async () => {
    await assert.rejects(client().report({ ...report, reasons: [{ id: 2 ** 53 + 2 }] }), /safe integers/);
    await assert.rejects(client().report({ ...report, reasons: [{ id: '12x' }] }), /not an int64/);
    await assert.rejects(client().report({ ...report, reasons: [{ id: 2n ** 63n }] }), /int64 range/);
    assert.equal(fake.log.length, 0);
  });
});

describe('4.2 upload URL and upload', () => {
  it('signs the flat query (5.1); file_size goes exactly; uri is signed_url without its query', async () => {
    const u = await client().getUploadUrl({
      svcid: '90001',
      file_name: 'a b.png',
      file_size: 9007199254740993n,
      client_info: { device_id: 'd1' },
    });
    assert.deepEqual(u, {
      signed_url: `${fake.base}/objects/e1.png?expires=1&signature=abc`,
      ttl: '900',
      uri: `${fake.base}/objects/e1.png`,
    });
    const [r] = fake.requestsTo(UPLOAD_URL);
    assert.equal(r!.signed, true);
    assert.equal(r!.params.file_size, '9007199254740993');
    assert.equal(r!.params.file_name, 'a b.png');
    assert.equal(r!.params['client_info.client_id'], CLIENT_ID);
    assert.equal(r!.params['client_info.device_id'], 'd1');
    assert.match(r!.url, /file_name=a%20b\.png/);
  });

  it('uploads the bytes with If-None-Match: *, and uploadEvidence gives the evidence entry for the report', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    const file = await client().uploadEvidence({
      fileName: 'e1.png',
      data: bytes,
      svcid: '90001',
      contentType: 'image/png',
    });
    assert.deepEqual(file, { name: 'e1.png', size_byte: 7, uri: `${fake.base}/objects/e1.png` });
    assert.equal(fake.requestsTo(UPLOAD_URL)[0]!.params.file_size, '7');
    const [up] = fake.uploads;
    assert.deepEqual(up!.bytes, bytes);
    assert.equal(up!.headers['if-none-match'], '*');
    assert.equal(up!.headers['content-type'], 'image/png');
    assert.equal(up!.headers['content-length'], '7');
    await client().report({ ...report, evidence: [file] });
    assert.equal(fake.requestsTo(REPORT)[0]!.signed, true);
  });

  it('a refused upload is a PlatformApiError', async () => {
    fake.next('/objects/e1.png', {
      kind: 'status',
      status: 412,
      body: '{"code":9,"message":"already uploaded","details":[]}',
    });
    const e = await apiError(client().upload(`${fake.base}/objects/e1.png?x=1`, 'data'));
    assert.equal(e.status, 412);
    assert.equal(fake.requestsTo('/objects/e1.png').length, 1);
  });
});

describe('4.3 profile and 4.5 arrears (MAC, 5.2)', () => {
  it('signs method, path and query, host and port 443; answers the profile', async () => {
    assert.deepEqual(await client().getProfile(PLAYER), PROFILE);
    const [r] = fake.requestsTo(PROFILE_PATH);
    assert.equal(r!.signed, true);
    assert.equal(r!.url, `${PROFILE_PATH}?clientId=${CLIENT_ID}`);
    assert.match(
      String(r!.headers.authorization),
      /^MAC id="at-7f3a9c1e5b",ts="\d+",nonce="[^"]{16,}",mac="[A-Za-z0-9+/]{27}="$/,
    );
  });

  it('an illegal token is a PlatformApiError with the 2.3 envelope (40300)', async () => {
    const e = await apiError(client().getProfile({ ...PLAYER, macKey: 'stolen' }));
    assert.deepEqual(
      [e.status, e.code, e.msg, e.detail, e.data, e.envelope],
      [403, 40300, 'Illegal access token.', 'mac does not match', '', 'platform'],
    );
    assert.equal(fake.requestsTo(PROFILE_PATH).length, 1, 'a 403 is not retried');
  });

  it('the MAC host and port are options (the service signs its public host name)', async () => {
    assert.equal(DEFAULT_MAC_PORT, 443);
    fake.macHost = 'api.example.com';
    await apiError(client().getProfile(PLAYER));
    assert.deepEqual(await client({ macHost: 'api.example.com' }).getProfile(PLAYER), PROFILE);
    await apiError(client({ macHost: 'api.example.com', macPort: 8443 }).getProfile(PLAYER));
  });

  it('arrears: data.list of the envelope', async () => {
    assert.deepEqual(await client().getArrears(PLAYER), ARREARS);
    assert.equal(fake.requestsTo(ARREARS_PATH)[0]!.signed, true);
    assert.equal((await apiError(client().getArrears({ ...PLAYER, kid: 'other' }))).code, 40300);
  });

  it('needs kid and macKey', async () => {
    await assert.rejects(client().getProfile({ kid: '', macKey: 'k' }), TypeError);
  });
});

describe('retries of reads', () => {
  it('a GET is retried after 503s, each attempt with a fresh nonce and a valid signature', async () => {
    fake.next(
      PROFILE_PATH,
      { kind: 'status', status: 503, body: '{"code":50300,"msg":"unavailable","detail":"","data":""}' },
      2,
    );
    assert.deepEqual(await client().getProfile(PLAYER), PROFILE);
    const tries = fake.requestsTo(PROFILE_PATH);
    assert.equal(tries.length, 3);
    const nonces = tries.map((t) => /nonce="([^"]+)"/.exec(String(t.headers.authorization))![1]);
    assert.equal(new Set(nonces).size, 3);
    assert.equal(tries[2]!.signed, true);
  });

  it('gives up after `retries`, with the last error and the attempt count', async () => {
    fake.next(UPLOAD_URL, { kind: 'status', status: 502, body: 'Bad gateway' }, 5);
    const e = await apiError(client({ retries: 1 }).getUploadUrl({ file_name: 'x.png', file_size: 1 }));
    assert.deepEqual([e.status, e.code, e.envelope, e.attempts], [502, 502, 'none', 2]);
    assert.equal(fake.requestsTo(UPLOAD_URL).length, 2);
  });

  it('a GET is retried after a timeout, and after a 429 (Retry-After honoured)', async () => {
    fake.next(EVENTS, { kind: 'hang' });
    fake.next(EVENTS, {
      kind: 'status',
      status: 429,
      body: '{"code":42900,"msg":"slow down","detail":"","data":""}',
      headers: { 'retry-after': '0' },
    });
    const page = await client({ timeoutMs: 200 }).listEvents();
    assert.equal(page.list.length, 1);
    const tries = fake.requestsTo(EVENTS);
    assert.equal(tries.length, 3);
    assert.equal(
      new Set(tries.map((t) => t.params.nonce ?? new URL(t.url, fake.base).searchParams.get('nonce'))).size,
      3,
    );
  });

  it('4xx answers are not retried', async () => {
    const e = await apiError(client().lookupSvcId({ loginType: 'google', openId: 'unknown' }));
    assert.deepEqual([e.status, e.code, e.msg], [401, 40103, 'Illegal user id.']);
    assert.equal(fake.log.length, 1);
  });

  it('the caller can abort; a timeout with retries exhausted is a timeout error', async () => {
    fake.next(PROFILE_PATH, { kind: 'hang' }, 3);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const e = await networkError(client().getProfile(PLAYER, { signal: ac.signal }));
    assert.equal(e.reason, 'aborted');
    const t = await networkError(client({ timeoutMs: 60, retries: 1 }).getProfile(PLAYER));
    assert.deepEqual([t.reason, t.attempts], ['timeout', 2]);
  });
});

describe('4.4 open id lookup, 4.6 consumption notice, pull reconciliation', () => {
  it('open id lookup answers data.svcid', async () => {
    assert.equal(await client().lookupSvcId({ loginType: 'google', openId: 'g-1' }), '90001');
    assert.deepEqual(fake.log[0]!.params, { clientId: CLIENT_ID, loginType: 'google', openId: 'g-1' });
  });

  it('consumption notice: md5 with timestamp a number; answers data', async () => {
    assert.equal(
      await client().notifyConsumption({ userId: '90001', roleId: 'r1', serverId: 's1', productCode: 'gems.100' }),
      true,
    );
    const [r] = fake.requestsTo(NOTIFY);
    assert.equal(r!.signed, true);
    assert.match(r!.text, /"appId":1001,/);
    assert.match(r!.text, /"timestamp":\d{10},/);
    await assert.rejects(
      client({ appId: undefined }).notifyConsumption({ userId: 'u', roleId: 'r', serverId: 's', productCode: 'p' }),
      /appId/,
    );
  });

  it('store consumption report: md5 over the body with trxNo, answers data; bad values refused before sending', async () => {
    assert.deepEqual(await client().reportStoreConsumption({ trxNo: 77, consumptionPercentage: 50_000 }), {
      trxNo: 77,
      consumptionPercentage: 50_000,
    });
    const [r] = fake.requestsTo('/order/v1/game/orders/77/consumption');
    assert.equal(r!.signed, true);
    assert.match(r!.text, /"appId":1001,"trxNo":77,"consumptionPercentage":50000,/);
    for (const bad of [-1, 100_001, 1.5])
      await assert.rejects(client().reportStoreConsumption({ trxNo: 77, consumptionPercentage: bad }), TypeError);
  });

  it('an envelope whose code is not 200 is an error even with HTTP 200', async () => {
    fake.next(NOTIFY, {
      kind: 'status',
      status: 200,
      body: '{"code":50300,"msg":"busy","detail":"partner down","data":null}',
    });
    const e = await apiError(client().notifyConsumption({ userId: 'u', roleId: 'r', serverId: 's', productCode: 'p' }));
    assert.deepEqual([e.status, e.code, e.msg, e.detail, e.data], [200, 50300, 'busy', 'partner down', null]);
  });

  it('a success answer that is not the spec shape is a PlatformResponseError', async () => {
    fake.next(NOTIFY, { kind: 'status', status: 200, body: '<html>' });
    await assert.rejects(
      client().notifyConsumption({ userId: 'u', roleId: 'r', serverId: 's', productCode: 'p' }),
      PlatformResponseError,
    );
    fake.next(PROFILE_PATH, { kind: 'status', status: 200, body: '{"code":200}' });
    await assert.rejects(client().getProfile(PLAYER), PlatformResponseError);
  });

  it('pull reconciliation: since, cursor, limit and extra parameters are signed and sent', async () => {
    const page = await client().listEvents({ since: 1700000000000n, cursor: '41', limit: 50, type: 'payment' });
    assert.equal(page.nextCursor, '5');
    assert.equal(page.list[0]!.body, '{"trxType":0}');
    const [r] = fake.requestsTo(EVENTS);
    assert.equal(r!.signed, true);
    assert.deepEqual(
      Object.fromEntries(Object.entries(r!.params).filter(([k]) => !['nonce', 'timestamp', 'sign'].includes(k))),
      { clientId: CLIENT_ID, since: '1700000000000', cursor: '41', limit: '50', type: 'payment' },
    );
    await assert.rejects(client().listEvents({ nonce: 'x' }), /set by the client/);
  });
});

describe('client options', () => {
  it('validates its options, and needs the secret only for md5 calls', async () => {
    assert.throws(() => new PlatformClient({ baseUrl: fake.base, clientId: '' }), /clientId/);
    assert.throws(() => new PlatformClient({ baseUrl: 'not a url', clientId: 'c' }), /baseUrl/);
    assert.throws(() => new PlatformClient({ baseUrl: 'ftp://x', clientId: 'c' }), /http/);
    const noSecret = client({ secret: undefined });
    await assert.rejects(noSecret.report(report), /secret is required/);
    assert.deepEqual(await noSecret.getProfile(PLAYER), PROFILE);
  });

  it('keeps a path prefix of the base URL, and reportUrl may differ from baseUrl', async () => {
    await apiError(client({ baseUrl: `${fake.base}/prefix/` }).getArrears(PLAYER));
    assert.equal(fake.log[0]!.path, `/prefix${ARREARS_PATH}`);
    await client({ baseUrl: 'https://unused.invalid', reportUrl: fake.base }).report(report);
    assert.equal(fake.requestsTo(REPORT)[0]!.signed, true);
  });
});
