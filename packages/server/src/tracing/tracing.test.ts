import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { verifyCallback } from '@game-platform/sdk';
import { guestLogin, macRequest, type Login } from '../testing/accounts/accounts.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { signMd5, startTestService, type TestService } from '../testing/service.js';
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../testing/otlp-collector.js';
import { SANDBOX, appWithProducts, payOk } from '../testing/orders/orders.js';
import { loggerOptions } from '../http/logging.js';
import { flushTracing, inSpan } from './tracing.js';

/**
 * OpenTelemetry tracing end to end (docs/operations.md#tracing): a service exporting to an OTLP collector fixture on
 * loopback (OTLP/HTTP protobuf, decoded with the protocol's own definitions), a game server fixture that verifies every
 * call (5.3) and keeps its headers. One payment's trace holds the placement request, its game calls (4.8, 4.10) and
 * the delivery attempt of its notification as one tree, and the game received our `traceparent` on each call.
 */
describe('tracing', () => {
  let collector: OtlpCollector;
  let svc: TestService;
  let game: GameServer;
  let app: any;
  let login: Login;
  let keys: Record<string, string>;
  before(async () => {
    collector = await startOtlpCollector();
    svc = await startTestService({
      ...SANDBOX,
      DELIVERY_POLL_MS: '50',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'platform-under-test',
    });
    keys = await platformPublicKeys(svc.services);
    game = await startGameServer(keys, (req) => {
      const path = req.url.split('?')[0];
      if (path === '/game/role') {
        const q = new URL(req.url, 'http://x').searchParams;
        const role = { userId: login.userId, roleId: q.get('roleId'), name: 'Aria', avatar: 'https://a/b.png' };
        return { status: 200, body: JSON.stringify({ ...role, roleLv: 1, serverId: 's1', serverName: 'S1' }) };
      }
      if (path === '/game/pre-order') return { status: 200, body: '' };
      if (path === '/game/pay/callback') return { status: 200, body: '{"code":"SUCCESS","msg":"ok"}' };
      return { status: 404, body: '{}' };
    });
    app = await appWithProducts(svc, {
      callbackUrls: { default: `${game.url}/game/pay/callback` },
      roleQueryUrl: `${game.url}/game/role`,
      preOrderCheckUrl: `${game.url}/game/pre-order`,
    });
    login = await guestLogin(svc, app.clientId);
  });
  after(async () => {
    await svc?.close();
    await game?.close();
    await collector?.close();
  });

  /** The spans of one trace, flushed and collected (the batch processor sends on its own schedule). */
  async function traceOf(traceId: string, names: string[]): Promise<CollectedSpan[]> {
    for (let i = 0; i < 100; i++) {
      await flushTracing();
      const spans = collector.spans.filter((s) => s.traceId === traceId);
      if (names.every((n) => spans.some((s) => s.name === n))) return spans;
      await new Promise((r) => setTimeout(r, 50));
    }
    const seen = collector.spans.filter((s) => s.traceId === traceId).map((s) => s.name);
    assert.fail(`trace ${traceId} lacks some of ${names.join(', ')}; it has ${seen.join(', ')}`);
  }

  it("one payment's trace: the placement, its game calls and the delivery attempt as one tree; the game got the traceparent", async () => {
    const placed = await macRequest(svc, 'POST', `/order/v1/client/orders?clientId=${app.clientId}`, login, {
      body: {
        orderId: 'traced-order-1',
        products: [{ productCode: 'gems_100', quantity: 1 }],
        game_server_id: 's1',
        game_role_id: 'role-7',
        game_ext: '',
        platform: 1,
        channel: 1,
        paymentType: 0,
      },
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const trxNo = placed.body.data.order.trxNo;
    await payOk(svc, trxNo);
    const callback = () => game.requests.find((r) => r.url === '/game/pay/callback');
    await game.waitFor(() => callback() !== undefined, 10_000, 'the payment notification');

    const [roleQuery, preOrder] = game.requests;
    const traceparents = [roleQuery, preOrder, callback()].map((r) => r!.headers.traceparent as string);
    for (const tp of traceparents) assert.match(tp, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, 'a sampled W3C traceparent');
    const traceId = traceparents[0]!.split('-')[1]!;
    assert.ok(
      traceparents.every((tp) => tp.split('-')[1] === traceId),
      'the game calls and the notification are one trace',
    );
    // The header is outside the 5.3 signature: every call still verifies.
    assert.ok(
      [roleQuery, preOrder, callback()].every((r) => r!.verified),
      'signatures verify with the header added',
    );
    assert.doesNotThrow(
      () =>
        verifyCallback({
          method: 'POST',
          url: '/game/pay/callback',
          headers: { ...callback()!.headers, traceparent: '00-' + 'f'.repeat(32) + '-' + 'e'.repeat(16) + '-01' },
          body: callback()!.body,
          publicKeys: keys,
        }),
      'a different traceparent does not change the signature',
    );

    const spans = await traceOf(traceId, [
      'POST /order/v1/client/orders',
      'game call role_query',
      'game call pre_order_check',
      'notify game payment',
      'deliver payment',
    ]);
    const one = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      assert.equal(found.length, 1, `one ${name}: ${found.length}`);
      return found[0]!;
    };
    const placement = one('POST /order/v1/client/orders');
    const role = one('game call role_query');
    const check = one('game call pre_order_check');
    const notify = one('notify game payment');
    const deliver = one('deliver payment');
    assert.equal(placement.parentSpanId, '', 'the placement request is the root');
    assert.equal(placement.kind, 2, 'a server span');
    assert.equal(placement.attributes['http.response.status_code'], 200);
    assert.equal(placement.serviceName, 'platform-under-test');
    for (const child of [role, check, notify]) assert.equal(child.parentSpanId, placement.spanId, child.name);
    assert.equal(deliver.parentSpanId, notify.spanId, 'the delivery attempt is a child of the notification');
    assert.equal(deliver.kind, 3, 'a client span');
    assert.equal(deliver.attributes['delivery.outcome'], 'delivered');
    assert.equal(deliver.attributes['delivery.attempt'], 1);
    // Issue 41: every game call and the signed request name the app; server.address is the host alone, its port apart.
    const gamePort = Number(new URL(game.url).port);
    for (const call of [role, check, deliver]) {
      assert.equal(call.attributes['game.app_id'], app.appId, call.name);
      assert.equal(call.attributes['server.address'], '127.0.0.1', call.name);
      assert.equal(call.attributes['server.port'], gamePort, call.name);
    }
    assert.equal(placement.attributes['game.app_id'], app.appId, 'the signed (MAC) request names its app');
    assert.equal(placement.attributes['server.address'], '127.0.0.1');
    assert.equal(placement.attributes['server.port'], Number(new URL(svc.url).port));
    // The game was sent the traceparent of each client span.
    assert.equal(traceparents[0]!.split('-')[2], role.spanId);
    assert.equal(traceparents[1]!.split('-')[2], check.spanId);
    assert.equal(traceparents[2]!.split('-')[2], deliver.spanId);
    // The request that completed the payment (another trace) is linked from the notification.
    const pay = collector.spans.find((s) => s.name === 'POST /admin/v1/sandbox/orders/:trxNo/pay');
    assert.ok(pay, 'the payment request has its span');
    assert.deepEqual(notify.links, [{ traceId: pay.traceId, spanId: pay.spanId }]);
    assert.equal(
      pay.attributes['operator.name'],
      'ADMIN_TOKEN',
      'an admin span names its operator (the break-glass token here)',
    );
    assert.equal(pay.attributes['operator.role'], 'admin');
    assert.ok(collector.contentTypes.every((t) => t === 'application/x-protobuf'));
  });

  it('a page load makes no traces for its files, nor do health checks (TRACE_QUIET_ROUTES off)', async () => {
    const started = collector.spans.length;
    for (const page of ['/console/', '/portal/']) {
      const html = await (await svc.fetch(page)).text();
      const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
      assert.ok(assets.length >= 3, `${page} names its files`);
      for (const asset of [...assets, `${page}vendor/preact.mjs`]) await (await svc.fetch(asset)).arrayBuffer();
    }
    for (const health of ['/healthz', '/readyz']) assert.equal((await svc.fetch(health)).status, 200);
    assert.equal((await svc.fetch('/openapi.json')).status, 200, 'a request that is not quiet, as a marker');
    for (let i = 0; i < 100 && !collector.spans.some((s) => s.name === 'GET /openapi.json'); i++) {
      await flushTracing();
      await new Promise((r) => setTimeout(r, 50));
    }
    const names = collector.spans.slice(started).map((s) => `${s.name} ${s.attributes['url.path']}`);
    assert.deepEqual(names.sort(), [
      'GET /console /console/',
      'GET /openapi.json /openapi.json',
      'GET /portal /portal/',
    ]);
  });

  it("continues a game's traceparent on its md5-signed requests only when its app says so (trustTraceparent)", async () => {
    const made = await svc.createApp({ name: 'traced game' });
    const traceOfCall = async (traceId: string) => {
      const q = signMd5(
        { 'client_info.client_id': made.clientId, file_name: 'shot.png', file_size: '1000' },
        made.secret,
      ) as Record<string, string>;
      const res = await svc.fetch(`/svc/reporting/open/v1/upload/oss_sign_url?${new URLSearchParams(q)}`, {
        headers: { traceparent: `00-${traceId}-${'1'.repeat(16)}-01`, 'x-forwarded-for': '203.0.113.9' },
      });
      assert.equal(res.status, 200, await res.text());
      for (let i = 0; i < 100; i++) {
        await flushTracing();
        const span = collector.spans.find(
          (s) =>
            s.name === 'GET /svc/reporting/open/v1/upload/oss_sign_url' &&
            s.attributes['game.app_id'] === made.appId &&
            !seen.has(s.spanId),
        );
        if (span) {
          seen.add(span.spanId);
          return span;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail('no span of the signed request');
    };
    const seen = new Set<string>();
    const untrusted = await traceOfCall('a'.repeat(32));
    assert.notEqual(untrusted.traceId, 'a'.repeat(32), 'off by default: a trace of our own');
    assert.equal(untrusted.parentSpanId, '');
    const patched = await svc.admin('PATCH', `/apps/${made.appId}`, { trustTraceparent: true });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.trustTraceparent, true);
    const trusted = await traceOfCall('b'.repeat(32));
    assert.equal(trusted.traceId, 'b'.repeat(32), "the game's trace is continued");
    assert.equal(trusted.parentSpanId, '1'.repeat(16));
    assert.equal(trusted.attributes['client.address'], '127.0.0.1', 'its forwarded addresses are not believed');
  });

  it('server.address and server.port as the semantic conventions say', async () => {
    const { serverAddress } = await import('./tracing.js');
    assert.deepEqual(serverAddress('game.example:8443', 'https:'), {
      'server.address': 'game.example',
      'server.port': 8443,
    });
    assert.deepEqual(serverAddress('game.example', 'https:'), { 'server.address': 'game.example', 'server.port': 443 });
    assert.deepEqual(serverAddress('[::1]:81', 'http'), { 'server.address': '::1', 'server.port': 81 });
    assert.deepEqual(serverAddress('', 'http'), {});
  });

  it('puts the trace and span ids in the log lines written inside a span', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions('info') as pino.LoggerOptions, sink);
    let ids: { traceId: string; spanId: string } | undefined;
    await inSpan('logged work', {}, async () => {
      log.info('inside');
      const tp = (await import('./tracing.js')).currentTraceparent()!;
      ids = { traceId: tp.split('-')[1]!, spanId: tp.split('-')[2]! };
    });
    log.info('outside');
    const [inside, outside] = lines.map((l) => JSON.parse(l));
    assert.deepEqual([inside.traceId, inside.spanId], [ids!.traceId, ids!.spanId]);
    assert.equal(outside.traceId, undefined);
  });

  it('loads no OpenTelemetry package statically: off, nothing of it is in memory', () => {
    const dist = fileURLToPath(new URL('..', import.meta.url));
    const files = fs
      .readdirSync(dist, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.js') && !f.endsWith('.test.js') && !f.startsWith('testing'));
    const staticImports = files.filter((f) =>
      /^import\s[^;]*from\s+['"]@opentelemetry\//m.test(fs.readFileSync(path.join(dist, f), 'utf8')),
    );
    assert.deepEqual(staticImports, [], 'only dynamic import() when tracing starts');
  });
  // Last: closing a service stops this process's tracing.
  it('TRACE_QUIET_ROUTES=true traces the health checks too', async () => {
    const loud = await startTestService({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, TRACE_QUIET_ROUTES: 'true' });
    try {
      const port = Number(new URL(loud.url).port);
      assert.equal((await loud.fetch('/healthz')).status, 200);
      const mine = () => collector.spans.find((s) => s.name === 'GET /healthz' && s.attributes['server.port'] === port);
      for (let i = 0; i < 100 && !mine(); i++) {
        await flushTracing();
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(mine(), 'the health check has its span');
    } finally {
      await loud.close();
    }
  });
});
