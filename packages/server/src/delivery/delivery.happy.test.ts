import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK_HEADERS } from '@game-platform/sdk';
import { startTestService, signMd5, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { enqueueEvent } from './outbox.js';
import { appFor, FAST, waitForEvent } from '../testing/delivery/delivery.js';

describe('delivery (happy paths)', () => {
  let svc: TestService;
  let game: GameServer;
  before(async () => {
    svc = await startTestService(FAST);
    game = await startGameServer(await platformPublicKeys(svc.services));
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  it('delivers a test payment event signed per 5.3, body bytes as stored, notifyId = event id', async () => {
    const app = await appFor(svc, game.url);
    const res = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    assert.equal(res.status, 201);
    const { eventId } = res.body;
    const row = await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const got = game.requests.find((r) => JSON.parse(r.body).notifyId === eventId)!;
    assert.ok(got, 'the game received the event');
    assert.equal(got.verified, true, got.verifyError);
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/pay/callback');
    assert.equal(got.body, row.body, 'the exact stored bytes are sent');
    assert.equal(got.headers['content-type'], 'application/json');
    const keys = await svc.services.keys.list();
    assert.equal(got.headers[CALLBACK_HEADERS.keyId.toLowerCase()], keys.find((k) => k.status === 'signing')!.kid);
    const body = JSON.parse(got.body);
    assert.equal(body.appId, app.appId);
    assert.equal(body.trxType, 0);
    assert.equal(typeof body.trxNo, 'number');
    assert.equal(typeof body.notifyTime, 'number');
    assert.deepEqual(Object.keys(body.products[0]), ['productCode', 'quantity', 'channelSkuCode']);
    assert.equal(row.attempts, 1);
    assert.ok(row.delivered_at! >= row.created_at);
  });

  it('logs the attempt with URL, status, latency and the start of the answer', async () => {
    const app = await appFor(svc, game.url);
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'refund' });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const shown = await svc.admin('GET', `/events/${eventId}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.state, 'delivered');
    assert.equal(shown.body.type, 'test');
    assert.equal(JSON.parse(shown.body.body).trxType, 2);
    assert.equal(shown.body.attemptLog.length, 1);
    const a = shown.body.attemptLog[0];
    assert.equal(a.attemptNo, 1);
    assert.equal(a.url, `${game.url}/pay/callback`);
    assert.equal(a.httpStatus, 200);
    assert.equal(a.outcome, 'delivered');
    assert.equal(a.responseBody, 'ok');
    assert.equal(typeof a.latencyMs, 'number');
    assert.equal(a.error, null);
  });

  it('picks the callback URL by serverId, falling back to default (4.7)', async () => {
    const app = await svc.createApp({
      callbackUrls: { default: `${game.url}/cb/default`, review: `${game.url}/cb/review` },
    });
    const review = (await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment', serverId: 'review' }))
      .body.eventId;
    const other = (await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment', serverId: 'prod-7' }))
      .body.eventId;
    await waitForEvent(svc, review, (e) => e.state === 'delivered');
    await waitForEvent(svc, other, (e) => e.state === 'delivered');
    const urlOf = (id: number) => game.requests.find((r) => r.body && JSON.parse(r.body).notifyId === id)!.url;
    assert.equal(urlOf(review), '/cb/review');
    assert.equal(urlOf(other), '/cb/default');
    assert.equal(
      JSON.parse(game.requests.find((r) => r.body && JSON.parse(r.body).notifyId === review)!.body).attach.gameServerId,
      'review',
    );
  });

  it('sends cancellation events to the cancellation URL', async () => {
    const app = await appFor(svc, game.url);
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'cancellation' });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const got = game.requests.find((r) => r.body && JSON.parse(r.body).notifyId === eventId)!;
    assert.equal(got.url, '/account/cancel');
    assert.equal(got.verified, true);
    const body = JSON.parse(got.body);
    assert.equal(body.eventType, 'account_cancellation');
    assert.deepEqual(Object.keys(body), [
      'notifyId',
      'notifyTime',
      'eventType',
      'appId',
      'userId',
      'userCode',
      'requestTime',
      'cancelTime',
    ]);
  });

  it('delivers an event enqueued in a business transaction promptly after the commit', async () => {
    const app = await appFor(svc, game.url);
    const started = Date.now();
    const eventId = await svc.services.database.db.transaction().execute(async (trx) => {
      const { eventId: id } = await enqueueEvent(trx, {
        appId: app.appId,
        type: 'payment',
        target: 'callback',
        serverId: null,
        body: (notifyId) => ({ notifyId, trxNo: 42, totalAmount: 1.1 }),
      });
      return id;
    });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    assert.ok(Date.now() - started < 2000, 'no wait for a long poll');
    assert.equal(
      game.requests.find((r) => r.body.includes(`"notifyId":${eventId},`))!.body,
      `{"notifyId":${eventId},"trxNo":42,"totalAmount":1.1}`,
    );
  });

  it('lists events by app, state and type, newest first, with paging', async () => {
    const app = await appFor(svc, game.url);
    const ids: number[] = [];
    for (const type of ['payment', 'refund', 'cancellation'])
      ids.push((await svc.admin('POST', `/apps/${app.appId}/test-events`, { type })).body.eventId);
    for (const id of ids) await waitForEvent(svc, id, (e) => e.state === 'delivered');
    const all = await svc.admin('GET', `/events?appId=${app.appId}&state=delivered&type=test`);
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.events.map((e: any) => e.eventId),
      [...ids].reverse(),
    );
    const page1 = await svc.admin('GET', `/events?appId=${app.appId}&limit=2`);
    assert.equal(page1.body.events.length, 2);
    const page2 = await svc.admin('GET', `/events?appId=${app.appId}&limit=2&before=${page1.body.nextBefore}`);
    assert.deepEqual(
      page2.body.events.map((e: any) => e.eventId),
      [ids[0]],
    );
    assert.equal(page2.body.nextBefore, null);
    const none = await svc.admin('GET', `/events?appId=${app.appId}&state=dead`);
    assert.deepEqual(none.body.events, []);
    const future = await svc.admin(
      'GET',
      `/events?appId=${app.appId}&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    assert.deepEqual(future.body.events, []);
  });

  it('documents its routes in the OpenAPI document', async () => {
    const doc = (await (await svc.fetch('/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const p of [
      '/admin/v1/events',
      '/admin/v1/events/{eventId}',
      '/admin/v1/events/{eventId}/resend',
      '/admin/v1/apps/{appId}/events/recover',
      '/admin/v1/apps/{appId}/test-events',
      '/api/notify/v1/events',
    ]) {
      assert.ok(doc.paths[p], p);
    }
  });

  it('exposes queue and attempt metrics', async () => {
    const text = await svc.metrics();
    assert.match(text, /delivery_attempts_total\{outcome="delivered"\} [1-9]/);
    assert.match(text, /delivery_queue_events\{state="pending"\} \d+/);
    assert.match(text, /delivery_queue_events\{state="dead"\} \d+/);
    assert.match(text, /delivery_latency_seconds_count\{app_id="\d+"\} [1-9]/);
  });

  it('lets a game pull its notifications with their state (extension, md5-signed)', async () => {
    const app = await appFor(svc, game.url);
    const first = (await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' })).body.eventId;
    const second = (await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'refund' })).body.eventId;
    await waitForEvent(svc, second, (e) => e.state === 'delivered');
    const q = signMd5({ clientId: app.clientId, since: '0', limit: '1' }, app.secret);
    const res = await svc.fetch(`/api/notify/v1/events?${new URLSearchParams(q as Record<string, string>)}`);
    assert.equal(res.status, 200);
    const page = (await res.json()) as any;
    assert.equal(page.code, 200);
    assert.equal(page.data.list.length, 1);
    assert.equal(page.data.list[0].notifyId, first);
    assert.equal(JSON.parse(page.data.list[0].body).notifyId, first);
    assert.equal(page.data.nextCursor, String(first));
    const q2 = signMd5({ clientId: app.clientId, cursor: page.data.nextCursor }, app.secret);
    const rest = (await (
      await svc.fetch(`/api/notify/v1/events?${new URLSearchParams(q2 as Record<string, string>)}`)
    ).json()) as any;
    assert.deepEqual(
      rest.data.list.map((n: any) => [n.notifyId, n.state]),
      [[second, 'delivered']],
    );
    assert.equal(rest.data.nextCursor, null);
  });
});
