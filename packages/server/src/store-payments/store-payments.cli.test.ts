import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, spawnService } from '../testing/child.js';
import { testBackend } from '../testing/database.js';

describe('store messages: the CLI', { skip: testBackend() !== 'sqlite' && 'CLI runs on SQLite' }, () => {
  it('lists what a running service recorded, filtered, and refuses a bad filter', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-messages-'));
    try {
      const env = {
        DATA_DIR: dir,
        MASTER_KEY: crypto.randomBytes(32).toString('base64'),
        ADMIN_TOKEN: crypto.randomBytes(24).toString('base64url'),
      };
      const created = await runCli(env, ['--json', 'app', 'create', '--name', 'cli store game']);
      assert.equal(created.code, 0, created.stderr);
      const appId = String(JSON.parse(created.stdout).appId);
      const set = await runCli(env, [
        'app', 'store-settings', 'set-apple', appId, '--bundle-id', 'com.example.cli', '--environment', 'Sandbox',
      ]); // prettier-ignore
      assert.equal(set.code, 0, set.stderr);
      const child = await spawnService(env);
      try {
        const res = await fetch(`${child.url}/notify/v1/apple/${appId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ signedPayload: 'not.a.jws' }),
        });
        assert.equal(res.status, 400);
      } finally {
        child.process.kill('SIGTERM');
        await child.exited;
      }
      const listed = await runCli(env, ['--json', 'app', 'store-messages', appId, '--outcome', 'refused']);
      assert.equal(listed.code, 0, listed.stderr);
      const { messages } = JSON.parse(listed.stdout);
      assert.deepEqual(
        messages.map((m: any) => [m.store, m.source, m.outcome, m.errorCode]),
        [['apple', 'push', 'refused', 'malformed']],
      );
      const text = await runCli(env, ['app', 'store-messages', appId, '--store', 'google']);
      assert.equal(text.stdout.trim(), 'no store messages');
      // Apple's consumption requests (issue 27): none yet.
      const consumption = await runCli(env, ['--json', 'app', 'store-consumption-requests', appId]);
      assert.equal(consumption.code, 0, consumption.stderr);
      assert.deepEqual(JSON.parse(consumption.stdout), { requests: [] });
      const none = await runCli(env, ['app', 'store-consumption-requests', appId]);
      assert.equal(none.stdout.trim(), 'no consumption requests');
      const badLimit = await runCli(env, ['app', 'store-consumption-requests', appId, '--limit', '0']);
      assert.match(badLimit.stderr, /limit: must be 1 to 200/);
      const bad = await runCli(env, ['app', 'store-messages', appId, '--outcome', 'lost']);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /outcome: must be applied, duplicate, ignored, refused/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
