import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { appFor, FAST, waitForEvent } from '../testing/delivery/delivery.js';

const notifyIdOf = (body: string) => (body ? JSON.parse(body).notifyId : undefined);

describe('delivery: retries, success rule, dead events, isolation', () => {
  let svc: TestService;
  let game: GameServer;
  let slow: GameServer;
  /** Replies by path; default 200. */
  const byPath = new Map<
    string,
    (index: number) => {
      status?: number;
      body?: string;
      delayMs?: number;
      destroy?: boolean;
      headers?: Record<string, string>;
    }
  >();
  before(async () => {
    svc = await startTestService({ ...FAST, DELIVERY_TIMEOUT_MS: '600', DELIVERY_HOST_CONCURRENCY: '2' });
    const keys = await platformPublicKeys(svc.services);
    game = await startGameServer(keys, (req) => {
      const path = req.url;
      const seen = game.requests.filter((r) => r.url === path).length - 1;
      return byPath.get(path)?.(seen) ?? { status: 200, body: 'ok' };
    });
    slow = await startGameServer(keys, () => ({ status: 200, delayMs: 400 }));
  });
  after(async () => {
    await svc.close();
    await game.close();
    await slow.close();
  });

  it('500, then a timeout, then 200: delivered on the third attempt, every attempt logged', async () => {
    byPath.set('/flaky', (i) =>
      i === 0
        ? { status: 500, body: '{"code":"FAIL","msg":"database down"}' }
        : i === 1
          ? { delayMs: 1500 }
          : { status: 200 },
    );
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/flaky` } });
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    const row = await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    assert.equal(row.attempts, 3);
    const log = (await svc.admin('GET', `/events/${eventId}`)).body.attemptLog;
    assert.deepEqual(
      log.map((a: any) => [a.attemptNo, a.outcome, a.httpStatus]),
      [
        [1, 'http_status', 500],
        [2, 'timeout', null],
        [3, 'delivered', 200],
      ],
    );
    assert.equal(log[0].responseBody, '{"code":"FAIL","msg":"database down"}');
    assert.match(log[0].error, /HTTP 500/);
    assert.match(log[1].error, /600 ms/);
    assert.ok(log[1].latencyMs >= 550, 'the timeout attempt took the timeout');
    const got = game.requests.filter((r) => r.url === '/flaky');
    assert.equal(got.length, 3);
    assert.ok(
      got.every((r) => r.verified && r.body === row.body),
      'same body, valid signature on every attempt',
    );
    assert.equal(new Set(got.map((r) => r.headers.nonce)).size, 3, 'a fresh nonce on every attempt');
  });

  it('records an answer holding a NUL byte (PostgreSQL text cannot hold one) with U+FFFD in its place', async () => {
    byPath.set('/nul', (i) => (i === 0 ? { status: 500, body: 'down\u0000\u0000 now' } : { status: 200 }));
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/nul` } });
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const log = (await svc.admin('GET', `/events/${eventId}`)).body.attemptLog;
    assert.deepEqual(
      log.map((a: any) => [a.attemptNo, a.httpStatus, a.responseBody]),
      [
        [1, 500, 'down\ufffd\ufffd now'],
        [2, 200, ''],
      ],
    );
  });

  it('does not accept 3xx, 201 or 202, and never follows a redirect', async () => {
    const statuses = [301, 302, 307, 201, 202, 400, 404];
    const ids: number[] = [];
    for (const status of statuses) {
      byPath.set(`/status/${status}`, () => ({
        status,
        headers:
          status < 400 && status >= 300 ? { location: `${game.url}/redirected` } : ({} as Record<string, string>),
      }));
      const app = await svc.createApp({ callbackUrls: { default: `${game.url}/status/${status}` } });
      ids.push((await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' })).body.eventId);
    }
    for (const [i, id] of ids.entries()) {
      const row = await waitForEvent(svc, id, (e) => e.state === 'dead');
      assert.equal(row.attempts, 3, `status ${statuses[i]}`);
      assert.equal(row.delivered_at, null);
      const log = (await svc.admin('GET', `/events/${id}`)).body.attemptLog;
      assert.ok(log.every((a: any) => a.outcome === 'http_status' && a.httpStatus === statuses[i]));
    }
    assert.equal(game.requests.filter((r) => r.url === '/redirected').length, 0, 'no redirect was followed');
    const dead = await svc.admin('GET', '/events?state=dead');
    assert.ok(ids.every((id) => dead.body.events.some((e: any) => e.eventId === id && e.deadAt !== null)));
  });

  it('a game down through the whole schedule: dead; a manual resend then delivers', async () => {
    let down = true;
    byPath.set('/down', () => (down ? { destroy: true } : { status: 204 }));
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/down` } });
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'refund' });
    const dead = await waitForEvent(svc, eventId, (e) => e.state === 'dead');
    assert.equal(dead.attempts, 3);
    assert.match(dead.last_error ?? '', /ECONNRESET|socket hang up/);
    down = false;
    const resent = await svc.admin('POST', `/events/${eventId}/resend`);
    assert.equal(resent.status, 200);
    assert.equal(resent.body.state, 'pending');
    const row = await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    assert.equal(row.attempts, 4);
    const log = (await svc.admin('GET', `/events/${eventId}`)).body.attemptLog;
    assert.deepEqual(
      log.map((a: any) => a.outcome),
      ['network', 'network', 'network', 'delivered'],
    );
    assert.equal(log[3].httpStatus, 204);
  });

  it('recovers every dead event of an app since a time, and no other', async () => {
    let down = true;
    byPath.set('/outage', () => (down ? { status: 503 } : { status: 200 }));
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/outage` } });
    const other = await svc.createApp({ callbackUrls: { default: `${game.url}/outage` } });
    const since = new Date().toISOString();
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' })).body.eventId);
    const otherId = (await svc.admin('POST', `/apps/${other.appId}/test-events`, { type: 'payment' })).body.eventId;
    for (const id of [...ids, otherId]) await waitForEvent(svc, id, (e) => e.state === 'dead');
    down = false;
    const future = await svc.admin('POST', `/apps/${app.appId}/events/recover`, { since: String(Date.now() + 60_000) });
    assert.deepEqual(future.body, { recovered: 0 });
    const res = await svc.admin('POST', `/apps/${app.appId}/events/recover`, { since });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { recovered: 3 });
    for (const id of ids) await waitForEvent(svc, id, (e) => e.state === 'delivered');
    assert.equal((await svc.services.delivery.events.get(otherId))!.state, 'dead');
  });

  it('an event with no URL for it fails with no_url and follows the schedule; a disabled app still gets its events', async () => {
    const app = await svc.createApp({ callbackUrls: { review: `${game.url}/review-only` } });
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment', serverId: 'prod' });
    const row = await waitForEvent(svc, eventId, (e) => e.state === 'dead');
    assert.match(row.last_error ?? '', /no callback URL for serverId "prod" nor a default/);
    const log = (await svc.admin('GET', `/events/${eventId}`)).body.attemptLog;
    assert.deepEqual(
      log.map((a: any) => [a.outcome, a.url]),
      [
        ['no_url', null],
        ['no_url', null],
        ['no_url', null],
      ],
    );

    const disabled = await svc.createApp({ callbackUrls: { default: `${game.url}/disabled` } });
    await svc.admin('PATCH', `/apps/${disabled.appId}`, { status: 'disabled' });
    const id = (await svc.admin('POST', `/apps/${disabled.appId}/test-events`, { type: 'refund' })).body.eventId;
    await waitForEvent(svc, id, (e) => e.state === 'delivered');
  });

  it('a slow game server does not delay deliveries to a healthy one', async () => {
    const slowApp = await svc.createApp({ callbackUrls: { default: `${slow.url}/cb` } });
    const fastApp = await svc.createApp({ callbackUrls: { default: `${game.url}/healthy` } });
    const slowIds = [];
    for (let i = 0; i < 10; i++)
      slowIds.push((await svc.admin('POST', `/apps/${slowApp.appId}/test-events`, { type: 'payment' })).body.eventId);
    const started = Date.now();
    const fastIds = [];
    for (let i = 0; i < 5; i++)
      fastIds.push((await svc.admin('POST', `/apps/${fastApp.appId}/test-events`, { type: 'payment' })).body.eventId);
    for (const id of fastIds) await waitForEvent(svc, id, (e) => e.state === 'delivered', 5000);
    const healthyDone = Date.now() - started;
    const slowDelivered = (await Promise.all(slowIds.map((id) => svc.services.delivery.events.get(id)))).filter(
      (e) => e!.state === 'delivered',
    ).length;
    assert.ok(healthyDone < 1000, `healthy deliveries took ${healthyDone} ms`);
    assert.ok(slowDelivered < 10, 'the slow game was still being served (2 at a time)');
    const maxParallel = Math.max(
      ...slow.requests.map((r) => slow.requests.filter((o) => Math.abs(o.at - r.at) < 200).length),
    );
    assert.ok(maxParallel <= 4, 'per-host concurrency limit held');
    for (const id of slowIds) await waitForEvent(svc, id, (e) => e.state === 'delivered', 10_000);
    assert.deepEqual(new Set(slow.requests.map((r) => notifyIdOf(r.body))), new Set(slowIds));
  });
});

describe('delivery: per-app rate limit', () => {
  it("spreads an app's sends to DELIVERY_APP_RATE per second without counting deferrals as attempts", async () => {
    const svc = await startTestService({ ...FAST, DELIVERY_APP_RATE: '2' });
    const game = await startGameServer(await platformPublicKeys(svc.services));
    try {
      const app = await appFor(svc, game.url);
      const ids = [];
      for (let i = 0; i < 5; i++)
        ids.push((await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' })).body.eventId);
      const rows = [];
      for (const id of ids) rows.push(await waitForEvent(svc, id, (e) => e.state === 'delivered'));
      assert.ok(
        rows.every((r) => r.attempts === 1),
        'one attempt each',
      );
      const times = game.requests.map((r) => r.at).sort((a, b) => a - b);
      assert.ok(times.at(-1)! - times[0]! >= 900, `5 sends at 2/s took ${times.at(-1)! - times[0]!} ms`);
    } finally {
      await svc.close();
      await game.close();
    }
  });
});
