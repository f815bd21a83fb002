import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { callRows } from '../testing/game-calls/call-log.js';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import {
  ALERT_RULES_FILE,
  alertRules,
  assertAlertFires,
  metricsNamed,
  promtool,
  Scrapes,
} from '../testing/promtool.js';

/**
 * The example alert rules (docs/alerts.yml): promtool accepts them, docs/operations.md lists each, every metric they
 * name is exported by a running service, and GameCallsFailing and the retention alerts fire from real scrapes. The
 * delivery, sign-in, refusal, store and database alerts are made to fire beside what they watch
 * (delivery.alerts.test.ts, sign-in.alerts.test.ts, admin-audit/refusals.test.ts, store-payments/apple.security.test.ts,
 * db/outage.alerts.test.ts): every alert of docs/alerts.yml fires in some test.
 */
describe('the example alert rules', () => {
  let svc: TestService;
  let game: GameServer;
  before(async () => {
    svc = await startTestService();
    game = await startGameServer(await platformPublicKeys(svc.services), () => ({ status: 503 }));
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  it('pass `promtool check rules`, and docs/operations.md names each alert', () => {
    const checked = promtool(['check', 'rules', ALERT_RULES_FILE]);
    assert.equal(checked.status, 0, checked.output);
    assert.match(checked.output, /SUCCESS: \d+ rules found/);
    const doc = fs.readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
    for (const name of alertRules().keys())
      assert.ok(doc.includes(`\`${name}\``), `docs/operations.md explains ${name}`);
  });

  it('each fire in a test from real scrapes (assertAlertFires names every one of them somewhere)', () => {
    // The compiled tests sit beside their sources' twins in dist/: read every test of the package for the names.
    const dist = new URL('../', import.meta.url);
    const fired = new Set<string>();
    const walk = (dir: URL) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(new URL(`${e.name}/`, dir));
        else if (e.name.endsWith('.test.js'))
          for (const m of fs
            .readFileSync(new URL(e.name, dir), 'utf8')
            .matchAll(/assertAlertFires\(\{\s*alert: '(\w+)'/g))
            fired.add(m[1]!);
      }
    };
    walk(dist);
    assert.deepEqual(
      [...alertRules().keys()].filter((name) => !fired.has(name)),
      [],
      'alerts no test makes fire',
    );
  });

  it('name only metrics the service exports, with the delivery ones filled by real traffic', async () => {
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/cb` } });
    const sent = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    assert.equal(sent.status, 201);
    await game.waitFor(() => game.requests.length > 0, 10_000, 'a delivery attempt');
    // The game answered 503: once the outcome is written, the host's failed attempt is counted.
    let text = '';
    for (let i = 0; i < 50; i++) {
      text = await svc.metrics();
      if (/delivery_host_attempts_total\{host="127\.0\.0\.1:\d+",result="failed"\} 1/.test(text)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const names = [...new Set([...alertRules().values()].flatMap((r) => metricsNamed(r.expr)))];
    assert.ok(names.includes('delivery_oldest_due_age_seconds') && names.includes('game_calls_total'), names.join());
    for (const name of names) assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exported`);
    assert.match(text, /delivery_host_attempts_total\{host="127\.0\.0\.1:\d+",result="failed"\} 1/);
    assert.match(text, /^delivery_queue_events\{state="pending"\} 1$/m, 'the event waits for its retry');
    assert.match(text, /^delivery_oldest_due_age_seconds \d/m);
    assert.match(text, /^delivery_held_events\{reason="host"\} 0$/m);
  });

  it("GameCallsFailing fires when an app's role queries fail (the game answers 503)", async () => {
    const app = await svc.createApp({ roleQueryUrl: `${game.url}/role` });
    const record = (await svc.services.apps.resolveByAppId(Number(app.appId)))!;
    const scrapes = new Scrapes();
    const scrape = async () => scrapes.add(await svc.metrics());
    await scrape();
    for (let i = 0; i < 4; i++) {
      // The service's own game-call client, as an order placement calls it (4.8, tried twice).
      const outcome = await svc.services.gameCalls.roleQuery(record, { roleId: `r${i}`, serverId: 's1' });
      assert.equal(outcome.ok, false);
      await scrape();
    }
    assertAlertFires({ alert: 'GameCallsFailing', scrapes, for: '2m', labels: { app_id: String(app.appId) } });
  });

  it('RetentionBehind fires while sweeps stop at their budget with rows left, RetentionStopped when sweeps stop', async () => {
    // One row a batch and a 10 ms budget: a sweep cannot take 3,000 old rows.
    const small = await startTestService(
      { RETENTION_BATCH: '1', RETENTION_SWEEP_BUDGET_MS: '10' },
      { dispatcher: false },
    );
    try {
      const db = small.services.database.db;
      const old = Date.now() - 400 * 86_400_000;
      for (let i = 0; i < 3000; i += 500)
        await db
          .insertInto('game_calls')
          .values(callRows(500, (j) => old + i + j))
          .execute();
      const startedAt = Math.floor(Date.now() / 1000);
      const metrics = async () => small.metrics();
      const behind = new Scrapes();
      behind.add(await metrics());
      for (let i = 0; i < 4; i++) {
        await small.services.retention.sweep();
        behind.add(await metrics());
      }
      assert.equal(behind.last('retention_backlog{kind="game_calls"}'), 1, 'the sweeps stopped at their budget');
      assertAlertFires({ alert: 'RetentionBehind', scrapes: behind, for: '2m', labels: { kind: 'game_calls' } });

      // Then no sweep runs: the last sweep's time stays while the clock runs on (scrape i is minute i for
      // promtool, whose clock starts at 0: the timestamps are shifted by the test's start).
      const stopped = new Scrapes();
      for (let i = 0; i < 5; i++) stopped.add(await metrics());
      assertAlertFires({ alert: 'RetentionStopped', scrapes: stopped, threshold: 120, for: '1m', shift: startedAt });
    } finally {
      await small.close();
    }
  });
});
