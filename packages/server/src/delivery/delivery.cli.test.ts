import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { processEnv } from '../testing/env.js';
import { runCli } from '../testing/child.js';

describe('delivery CLI', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ env, cleanup } = await processEnv());
    env.MASTER_KEY ??= crypto.randomBytes(32).toString('base64');
  });
  after(async () => {
    await cleanup();
  });

  const cli = async (...args: string[]) => {
    const res = await runCli(env, ['--json', ...args]);
    assert.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout);
  };

  it('queues a test event, lists, shows and resends it; refuses a bad type', async () => {
    const app = await cli('app', 'create', '--name', 'cli game', '--callback', 'http://127.0.0.1:9/cb');
    const { eventId } = await cli('events', 'test', '--app', String(app.appId), '--type', 'refund');
    const list = await cli('events', 'list', '--app', String(app.appId), '--state', 'pending');
    assert.deepEqual(
      list.events.map((e: any) => e.eventId),
      [eventId],
    );
    const shown = await cli('events', 'show', String(eventId));
    assert.equal(JSON.parse(shown.body).trxType, 2);
    assert.deepEqual(shown.attemptLog, []);
    const resent = await cli('events', 'resend', String(eventId));
    assert.equal(resent.state, 'pending');
    const bad = await runCli(env, ['events', 'test', '--app', String(app.appId), '--type', 'bonus']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /type: must be payment, refund or cancellation/);
  });
});
