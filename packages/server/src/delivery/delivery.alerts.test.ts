import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { assertAlertFires, scrapeEvery, Scrapes } from '../testing/promtool.js';
import { appFor, FAST } from '../testing/delivery/delivery.js';

/**
 * What the person on call sees when delivery falls behind (docs/operations.md#alerts): events held back by a limit
 * (a slow game at DELIVERY_HOST_CONCURRENCY, an app over DELIVERY_APP_RATE) stay due and age from when they fell
 * due, so the lag gauges and the example alerts see them. Each alert is made to fire by promtool from the real
 * /metrics scrapes of the service in that state (thresholds lowered: a test cannot wait 5 minutes).
 */
describe('delivery alerts', () => {
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers.reverse()) await close();
  });

  async function setUp(env: Record<string, string>, reply: () => { status: number; delayMs?: number }) {
    const svc = await startTestService(env);
    const game = await startGameServer(await platformPublicKeys(svc.services), () => ({ body: 'ok', ...reply() }));
    closers.push(
      () => svc.close(),
      () => game.close(),
    );
    const app = await appFor(svc, game.url);
    return { svc, game, app };
  }

  /** `n` test events for the app, through the admin API, all at once (so a loaded machine does not spread them). */
  async function testEvents(svc: TestService, appId: number, n: number): Promise<void> {
    const sent = await Promise.all(
      Array.from({ length: n }, () => svc.admin('POST', `/apps/${appId}/test-events`, { type: 'payment' })),
    );
    for (const res of sent) assert.equal(res.status, 201, JSON.stringify(res.body));
  }

  const metricsOf = (svc: TestService) => async () => svc.metrics();

  /**
   * 40 test events for an app behind a limit, scraped before and 10 times after, 0.7 s apart: the events not yet sent
   * are due and the oldest has waited since it fell due (not since it was last handed back), held back by `reason`.
   */
  async function fallsBehind(
    env: Record<string, string>,
    reply: () => { status: number; delayMs?: number },
    reason: string,
  ) {
    const { svc, game, app } = await setUp(env, reply);
    const scrapes = new Scrapes();
    scrapes.add(await metricsOf(svc)());
    await testEvents(svc, Number(app.appId), 40);
    await scrapeEvery(scrapes, metricsOf(svc), 10, 700);
    const sent = game.requests.length;
    const due = scrapes.last('delivery_queue_events{state="due"}')!;
    const age = scrapes.last('delivery_oldest_due_age_seconds')!;
    assert.ok(sent < 40, `held back: ${sent} sends so far`);
    assert.ok(due >= 40 - sent - 2, `events not yet accepted are due: ${due}`);
    assert.ok(age >= 3, `the oldest due event has waited since it fell due, not since it was last handed back: ${age}`);
    assert.ok(scrapes.last(`delivery_held_events{reason="${reason}"}`)! > 0, `events held back by ${reason} counted`);
    const other = reason === 'host' ? 'app_rate' : 'host';
    assert.equal(scrapes.last(`delivery_held_events{reason="${other}"}`), 0);
    return scrapes;
  }

  it('a slow game behind DELIVERY_HOST_CONCURRENCY: its events stay due and age, held back by host; DeliveryBehind, DeliveryBacklogGrowing and DeliveryHeldBack fire', async () => {
    // Two sends at once to the game's host, each answered after a second: 40 events take 20 s.
    const scrapes = await fallsBehind(
      { DELIVERY_HOST_CONCURRENCY: '2' },
      () => ({ status: 200, delayMs: 1000 }),
      'host',
    );
    assertAlertFires({ alert: 'DeliveryBehind', scrapes, threshold: 3, for: '2m' });
    assertAlertFires({ alert: 'DeliveryBacklogGrowing', scrapes, threshold: 10, for: '2m' });
    assertAlertFires({ alert: 'DeliveryHeldBack', scrapes, threshold: 1, for: '2m', labels: { reason: 'host' } });
  });

  it('an app throttled by DELIVERY_APP_RATE: its events stay due and age, held back by app_rate; DeliveryBehind and DeliveryHeldBack fire', async () => {
    // The game answers at once; the app may be sent 2 events a second.
    const scrapes = await fallsBehind({ DELIVERY_APP_RATE: '2' }, () => ({ status: 200 }), 'app_rate');
    assertAlertFires({ alert: 'DeliveryBehind', scrapes, threshold: 3, for: '2m' });
    assertAlertFires({ alert: 'DeliveryHeldBack', scrapes, threshold: 1, for: '2m', labels: { reason: 'app_rate' } });
  });

  it('a game that answers 503: GameHostFailing fires, and DeadEvents once the schedule is used up', async () => {
    const { svc, app } = await setUp(FAST, () => ({ status: 503 }));
    const scrapes = new Scrapes();
    scrapes.add(await metricsOf(svc)());
    // A steady stream: an event between scrapes, each failing its three attempts and dying.
    for (let i = 0; i < 6; i++) {
      await testEvents(svc, Number(app.appId), 1);
      await new Promise((r) => setTimeout(r, 500));
      scrapes.add(await metricsOf(svc)());
    }
    assert.ok(scrapes.last(`delivery_dead_events{app_id="${app.appId}"}`)! >= 5, 'the events died');
    assertAlertFires({ alert: 'GameHostFailing', scrapes, for: '1m' });
    assertAlertFires({ alert: 'DeadEvents', scrapes, labels: { app_id: String(app.appId) } });
  });
});
