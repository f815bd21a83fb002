import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestService, type TestService } from '../testing/service.js';
import { spawnService } from '../testing/child.js';
import { processEnv } from '../testing/env.js';

/**
 * One envelope for every answer: each refusal, including those Node's HTTP
 * server makes before Fastify routes anything, answers in the route family's
 * envelope (docs/errors.md) with its documented status and headers, over real
 * loopback HTTP. Raw sockets send what fetch cannot: a 20 KB header, headers
 * that trickle, a malformed request line, pipelined requests.
 */

const REPORT = '/svc/reporting/open/v1/player/report';
const UPLOAD_URL = '/svc/reporting/open/v1/upload/oss_sign_url';
const GUEST_LOGIN = '/api/account/v1/client/login/guest';
const PROFILE = '/api/account/v1/user/profile';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** The platform envelope of spec 2.3 with this code (docs/errors.md). */
function assertPlatform(answer: Answer, status: number, code: number, reason: string): void {
  const what = JSON.stringify(answer);
  assert.equal(answer.status, status, what);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/, what);
  assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'data', 'detail', 'msg'], what);
  assert.equal(answer.body.code, code, what);
  assert.equal(typeof answer.body.msg, 'string');
  assert.ok(answer.body.detail.length > 0, what);
  assert.equal(answer.body.data, '');
  assert.ok(!('reason' in answer.body) && !what.includes('statusCode'), `no framework body: ${what} (${reason})`);
}

/** The rpcStatus of the reporting routes with this code (docs/errors.md). */
function assertRpc(answer: Answer, status: number, code: number, reason: string, grpc: number, grpcName: string): void {
  const what = JSON.stringify(answer);
  assert.equal(answer.status, status, what);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/, what);
  assert.deepEqual(Object.keys(answer.body).sort(), ['code', 'details', 'message'], what);
  assert.equal(answer.body.code, grpc, what);
  assert.ok(answer.body.message.length > 0, what);
  assert.deepEqual(answer.body.details, [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason,
      domain: 'game-platform',
      metadata: { code: String(code), status: grpcName },
    },
  ]);
}

async function answerOf(res: Response): Promise<Answer> {
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
}

/** Splits what a server sent on one connection into its answers (each with a Content-Length). */
function parseAnswers(bytes: Buffer): Answer[] {
  const answers: Answer[] = [];
  let rest = bytes.toString('utf8');
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    assert.ok(end > 0, `an incomplete answer: ${JSON.stringify(rest)}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    assert.ok(headers['content-length'], `an answer without Content-Length: ${statusLine}`);
    const length = Number(headers['content-length']);
    const body = rest.slice(end + 4, end + 4 + length);
    assert.equal(Buffer.byteLength(body), length, 'Content-Length matches the body');
    answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

/** A raw connection: write bytes when the test says, and the answers once the server has closed it. */
function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on('data', (d) => received.push(d));
  // Writing after the server has answered and closed fails with EPIPE; the answers are what count.
  socket.on('error', () => {});
  const opened = Date.now();
  const closed = new Promise<{ answers: Answer[]; afterMs: number }>((resolve) => {
    socket.on('close', () => resolve({ answers: parseAnswers(Buffer.concat(received)), afterMs: Date.now() - opened }));
  });
  return {
    write: (data: string) => {
      socket.write(data);
    },
    closed,
    destroy: () => socket.destroy(),
  };
}

/** Sends the request bytes and returns the only answer, after the server closed the connection. */
async function rawExchange(url: string, ...parts: string[]): Promise<Answer & { afterMs: number }> {
  const conn = connect(url);
  for (const [i, part] of parts.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, 50)); // separate reads on the server
    conn.write(part);
  }
  const { answers, afterMs } = await conn.closed;
  assert.equal(answers.length, 1, JSON.stringify(answers));
  return { ...answers[0]!, afterMs };
}

describe('one envelope for every answer', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000', BODY_LIMIT_BYTES: '4096' });
  });
  after(async () => {
    await svc.close();
  });

  const json = (method: string, p: string, body: string, contentType = 'application/json') =>
    svc.fetch(p, { method, headers: { 'content-type': contentType }, body });

  it("431 HEADERS_TOO_LARGE for headers past Node's limit, in the envelope of the request line's path", async () => {
    const big = `x-padding: ${'a'.repeat(20_000)}\r\n`;
    const rpc = await rawExchange(svc.url, `POST ${REPORT} HTTP/1.1\r\nhost: x\r\n${big}\r\n`);
    assertRpc(rpc, 431, 43100, 'HEADERS_TOO_LARGE', 3, 'INVALID_ARGUMENT');
    assert.equal(rpc.headers.connection, 'close');
    assert.match(rpc.headers['x-request-id']!, /^[0-9a-f-]{36}$/);
    const platform = await rawExchange(svc.url, `GET ${PROFILE}?clientId=1 HTTP/1.1\r\nhost: x\r\n${big}\r\n`);
    assertPlatform(platform, 431, 43100, 'HEADERS_TOO_LARGE');
    assert.match(platform.body.detail, /larger than 16384 bytes/);
    // Sent in pieces, the bytes that overflow no longer hold the request line: the platform envelope (documented).
    const pieces = await rawExchange(
      svc.url,
      `POST ${REPORT} HTTP/1.1\r\nhost: x\r\nx-padding: ${'a'.repeat(10_000)}`,
      `${'a'.repeat(10_000)}\r\n\r\n`,
    );
    assertPlatform(pieces, 431, 43100, 'HEADERS_TOO_LARGE');
  });

  it("400 MALFORMED_REQUEST for what Node's HTTP parser refuses, and for HTTP/1.1 without Host", async () => {
    const badHeader = await rawExchange(svc.url, `GET ${UPLOAD_URL} HTTP/1.1\r\nhost: x\r\nbad header: 1\r\n\r\n`);
    assertRpc(badHeader, 400, 40002, 'MALFORMED_REQUEST', 3, 'INVALID_ARGUMENT');
    assert.match(badHeader.body.message, /not valid HTTP\/1\.1: Invalid header/);
    assert.equal(badHeader.headers.connection, 'close');
    const smuggling = await rawExchange(
      svc.url,
      `POST ${GUEST_LOGIN} HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n{}`,
    );
    assertPlatform(smuggling, 400, 40002, 'MALFORMED_REQUEST');
    const notHttp = await rawExchange(svc.url, '\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03 TLS hello\r\n\r\n');
    assertPlatform(notHttp, 400, 40002, 'MALFORMED_REQUEST');

    // Node would answer a missing Host with an empty 400; our onRequest hook answers it in the envelope.
    const noHost = await rawExchange(svc.url, `GET ${UPLOAD_URL} HTTP/1.1\r\nconnection: close\r\n\r\n`);
    assertRpc(noHost, 400, 40002, 'MALFORMED_REQUEST', 3, 'INVALID_ARGUMENT');
    assert.match(noHost.body.message, /must carry a Host header/);
    assertPlatform(
      await rawExchange(svc.url, `GET ${PROFILE} HTTP/1.1\r\nconnection: close\r\n\r\n`),
      400,
      40002,
      'MALFORMED_REQUEST',
    );
    assert.equal(
      (await rawExchange(svc.url, 'GET /healthz HTTP/1.0\r\n\r\n')).status,
      200,
      'HTTP/1.0 may leave Host out',
    );
  });

  it('417 EXPECTATION_FAILED for an Expect other than 100-continue', async () => {
    const request = (p: string) => `GET ${p} HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\nconnection: close\r\n\r\n`;
    assertRpc(await rawExchange(svc.url, request(UPLOAD_URL)), 417, 41700, 'EXPECTATION_FAILED', 3, 'INVALID_ARGUMENT');
    const platform = await rawExchange(svc.url, request(PROFILE));
    assertPlatform(platform, 417, 41700, 'EXPECTATION_FAILED');
    assert.ok(platform.headers['x-request-id']);
  });

  it('413 PAYLOAD_TOO_LARGE for a body past BODY_LIMIT_BYTES', async () => {
    const body = JSON.stringify({ padding: 'a'.repeat(5000) });
    assertRpc(await answerOf(await json('POST', REPORT, body)), 413, 41300, 'PAYLOAD_TOO_LARGE', 3, 'INVALID_ARGUMENT');
    assertPlatform(await answerOf(await json('POST', GUEST_LOGIN, body)), 413, 41300, 'PAYLOAD_TOO_LARGE');
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not application/json', async () => {
    assertRpc(
      await answerOf(await json('POST', REPORT, 'a=1', 'application/x-www-form-urlencoded')),
      415,
      41500,
      'UNSUPPORTED_MEDIA_TYPE',
      3,
      'INVALID_ARGUMENT',
    );
    assertPlatform(
      await answerOf(await json('POST', GUEST_LOGIN, '<a/>', 'text/xml')),
      415,
      41500,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('404 NOT_FOUND for an unknown path, also under /console and /docs', async () => {
    assertRpc(
      await answerOf(await svc.fetch('/svc/reporting/open/v1/no-such-thing')),
      404,
      40400,
      'NOT_FOUND',
      5,
      'NOT_FOUND',
    );
    for (const p of [
      '/api/account/v1/no-such-thing',
      '/no-such-thing',
      '/console/no-such-file.js',
      '/docs/no-such-file.js',
    ]) {
      assertPlatform(await answerOf(await svc.fetch(p)), 404, 40400, 'NOT_FOUND');
    }
  });

  it('405 METHOD_NOT_ALLOWED with Allow for a known path with another method', async () => {
    const rpc = await answerOf(await svc.fetch(REPORT));
    assertRpc(rpc, 405, 40500, 'METHOD_NOT_ALLOWED', 12, 'UNIMPLEMENTED');
    assert.equal(rpc.headers.allow, 'POST');
    const platform = await answerOf(await svc.fetch(`${GUEST_LOGIN}?x=1`, { method: 'PUT' }));
    assertPlatform(platform, 405, 40500, 'METHOD_NOT_ALLOWED');
    assert.equal(platform.headers.allow, 'POST');
    assert.match(platform.body.detail, /PUT is not allowed on this path; it takes POST/);
    // A path with a parameter, and GET routes (which take HEAD too).
    const app = await svc.createApp();
    const param = await answerOf(
      await svc.fetch(`/admin/v1/apps/${app.appId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${svc.adminToken}` },
      }),
    );
    assertPlatform(param, 405, 40500, 'METHOD_NOT_ALLOWED');
    assert.match(param.headers.allow!, /^GET, HEAD\b/);
    assert.equal((await answerOf(await svc.fetch('/healthz', { method: 'DELETE' }))).headers.allow, 'GET, HEAD');
  });

  it('408 REQUEST_TIMEOUT for headers that trickle, a connection that sends nothing, and a slow body', async () => {
    // Slowloris: a header line every 200 ms never completes the headers within HEADERS_TIMEOUT_MS (500).
    const trickling = connect(svc.url);
    trickling.write(`GET ${PROFILE} HTTP/1.1\r\nhost: x\r\n`);
    const trickle = setInterval(() => trickling.write('x-slow: 1\r\n'), 200);
    // A body slower than REQUEST_TIMEOUT_MS (1000): its headers were read, so the route's envelope.
    const partial = (p: string) =>
      `POST ${p} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":`;
    const [slow, silent, rpc, platform] = await Promise.all([
      trickling.closed.finally(() => clearInterval(trickle)),
      connect(svc.url).closed,
      rawExchange(svc.url, partial(REPORT)),
      rawExchange(svc.url, partial(GUEST_LOGIN)),
    ]);
    // The headers never completed, so the path is unknown: the platform envelope.
    assert.equal(slow.answers.length, 1);
    assertPlatform(slow.answers[0]!, 408, 40800, 'REQUEST_TIMEOUT');
    assert.equal(slow.answers[0]!.headers.connection, 'close');
    assert.ok(slow.afterMs >= 450 && slow.afterMs < 5000, `cut after ${slow.afterMs} ms`);
    assertPlatform(silent.answers[0]!, 408, 40800, 'REQUEST_TIMEOUT');
    assertRpc(rpc, 408, 40800, 'REQUEST_TIMEOUT', 4, 'DEADLINE_EXCEEDED');
    assert.ok(rpc.afterMs >= 950 && rpc.afterMs < 5000, `cut after ${rpc.afterMs} ms`);
    assertPlatform(platform, 408, 40800, 'REQUEST_TIMEOUT');
    assert.equal((await svc.fetch('/healthz')).status, 200, 'the service goes on serving');
  });
});

describe('429 RATE_LIMITED', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ RATE_LIMIT_PER_MINUTE: '1' });
  });
  after(async () => {
    await svc.close();
  });

  it("answers past the limit in the route family's envelope with Retry-After", async () => {
    const upload = () => svc.fetch(`${UPLOAD_URL}?client_info.client_id=limited-rpc&nonce=abcdef&timestamp=1&sign=00`);
    assert.notEqual((await upload()).status, 429);
    const rpc = await answerOf(await upload());
    assertRpc(rpc, 429, 42900, 'RATE_LIMITED', 8, 'RESOURCE_EXHAUSTED');
    assert.ok(Number(rpc.headers['retry-after']) > 0);
    const profile = () => svc.fetch(`${PROFILE}?clientId=limited-platform`);
    assert.notEqual((await profile()).status, 429);
    const platform = await answerOf(await profile());
    assertPlatform(platform, 429, 42900, 'RATE_LIMITED');
    assert.ok(Number(platform.headers['retry-after']) > 0);
  });
});

describe('503 UNAVAILABLE while shutting down', () => {
  it('refuses a request that arrives on an open connection once closing began; the one in flight is answered', async () => {
    const signal = () => {
      let fire!: () => void;
      const fired = new Promise<void>((r) => {
        fire = r;
      });
      return { fire, fired };
    };
    const release = signal();
    const closingBegan = signal();
    let held = 0;
    const bothHeld = signal();
    let refused = 0;
    const bothRefused = signal();
    const svc = await startTestService(
      {},
      {
        routes: (app) => {
          // A request in flight keeps its connection open through close (idle ones are closed at once).
          app.get('/test/hold', async () => {
            if (++held === 2) bothHeld.fire();
            await release.fired;
            return { held: true };
          });
          // Registered after the service's own preClose hook, so it runs once the closing flag is set.
          app.addHook('preClose', (done) => {
            closingBegan.fire();
            done();
          });
          // onSend, not onResponse: a refusal is sent only after the held answer before it on its connection.
          app.addHook('onSend', (_request, reply, payload, done) => {
            if (reply.statusCode === 503 && ++refused === 2) bothRefused.fire();
            done(null, payload);
          });
        },
      },
    );
    const rpcConn = connect(svc.url);
    const platformConn = connect(svc.url);
    for (const conn of [rpcConn, platformConn]) conn.write('GET /test/hold HTTP/1.1\r\nhost: x\r\n\r\n');
    await bothHeld.fired;

    const closed = svc.close();
    await closingBegan.fired;
    rpcConn.write(`GET ${UPLOAD_URL}?nonce=abcdef&timestamp=1&sign=00 HTTP/1.1\r\nhost: x\r\n\r\n`);
    platformConn.write(`GET ${PROFILE}?clientId=1 HTTP/1.1\r\nhost: x\r\n\r\n`);
    await bothRefused.fired;
    release.fire();

    const [rpc, platform] = [(await rpcConn.closed).answers, (await platformConn.closed).answers];
    await closed;
    for (const answers of [rpc, platform]) {
      assert.equal(answers.length, 2, JSON.stringify(answers));
      assert.deepEqual(
        [answers[0]!.status, answers[0]!.body],
        [200, { held: true }],
        'the request in flight is answered',
      );
      assert.equal(answers[1]!.headers['retry-after'], '5');
      assert.equal(answers[1]!.headers.connection, 'close');
      assert.ok(answers[1]!.headers['x-request-id']);
    }
    assertRpc(rpc[1]!, 503, 50300, 'UNAVAILABLE', 14, 'UNAVAILABLE');
    assertPlatform(platform[1]!, 503, 50300, 'UNAVAILABLE');
    assert.match(platform[1]!.body.detail, /shutting down/);
  });

  it('does the same in the real process after SIGTERM', async () => {
    const { env, cleanup } = await processEnv();
    // LOG_LEVEL=debug: the line of a request's arrival says it is in flight (http/logging.ts).
    const child = await spawnService({ ...env, LOG_LEVEL: 'debug' });
    try {
      const body = JSON.stringify({ clientId: '1', deviceId: 'device-0001' });
      const conn = connect(child.url);
      // Headers now, body later: the request is in flight (routed, waiting for its body) when SIGTERM comes.
      conn.write(
        `POST ${GUEST_LOGIN} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      await waitFor(() => child.output().includes(`"url":"${GUEST_LOGIN}","msg":"request received"`));
      child.process.kill('SIGTERM');
      await waitFor(() => child.output().includes('new requests are refused'));
      conn.write(`${body}GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n`);
      const { answers } = await conn.closed;
      assert.equal(answers.length, 2, JSON.stringify(answers));
      assertPlatform(answers[0]!, 401, 40105, 'UNKNOWN_CLIENT');
      assertPlatform(answers[1]!, 503, 50300, 'UNAVAILABLE');
      assert.equal(answers[1]!.headers['retry-after'], '5');
      assert.equal(await child.exited, 0);
    } finally {
      child.process.kill('SIGKILL');
      await cleanup();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
