import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';

/** The example alert rules of docs/operations.md#alerts, read from the doc itself. */
function alertRules(): string {
  const doc = fs.readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
  const block = /### Alerts[\s\S]*?```yaml\n([\s\S]*?)```/.exec(doc);
  assert.ok(block, 'docs/operations.md has an Alerts section with a yaml block');
  return block[1]!;
}

/** The metric names the rules' expressions use (histogram series map to their histogram). */
function metricsNamed(rules: string): string[] {
  const exprs = [...rules.matchAll(/expr: (?:>\n((?:\s{10,}.*\n)+)|(.*)\n)/g)].map((m) => m[1] ?? m[2]!);
  assert.ok(exprs.length >= 5, 'the rules have expressions');
  const names = new Set<string>();
  for (const expr of exprs) {
    // Label matchers and grouping clauses name labels, not metrics.
    const bare = expr.replace(/\{[^}]*\}/g, '').replace(/\b(by|without)\s*\([^)]*\)/g, '');
    for (const [name] of bare.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g)) {
      names.add(name.replace(/_(bucket|count|sum)$/, ''));
    }
  }
  return [...names].sort();
}

describe('the example alert rules name only metrics the service exports', () => {
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

  it('exports every metric an alert rule names, with the delivery ones filled by real traffic', async () => {
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/cb` } });
    const sent = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    assert.equal(sent.status, 201);
    await game.waitFor(() => game.requests.length > 0, 10_000, 'a delivery attempt');
    // The game answered 503: once the outcome is written, the host's failed attempt is counted.
    let text = '';
    for (let i = 0; i < 50; i++) {
      text = await (await svc.fetch('/metrics')).text();
      if (/delivery_host_attempts_total\{host="127\.0\.0\.1:\d+",result="failed"\} 1/.test(text)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const names = metricsNamed(alertRules());
    assert.ok(names.includes('delivery_oldest_due_age_seconds') && names.includes('game_calls_total'), names.join());
    for (const name of names) assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exported`);
    assert.match(text, /delivery_host_attempts_total\{host="127\.0\.0\.1:\d+",result="failed"\} 1/);
    assert.match(text, /^delivery_queue_events\{state="pending"\} 1$/m, 'the event waits for its retry');
    assert.match(text, /^delivery_oldest_due_age_seconds \d/m);
  });
});
