import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { freshDatabase, TEST_DATABASE_URL } from '../testing/database.js';
import { spawnService } from '../testing/child.js';
import { startGameServer, type GameServer } from '../testing/game-server.js';
import type { Database } from '../db/database.js';

/** `cli.js serve` as a real child process, listening. */
async function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const s = await spawnService(env);
  return { child: s.process, url: s.url };
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

describe('delivery survives a crash (SIGKILL) with a backlog in flight', () => {
  let database: Database;
  let env: Record<string, string>;
  let game: GameServer;
  const children: ChildProcess[] = [];
  const publicKeys: Record<string, string> = {};
  const adminToken = crypto.randomBytes(24).toString('base64url');

  before(async () => {
    const fresh = await freshDatabase();
    database = fresh.database;
    env = {
      DATA_DIR: fresh.dataDir,
      MASTER_KEY: crypto.randomBytes(32).toString('base64'),
      ADMIN_TOKEN: adminToken,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DELIVERY_SCHEDULE: '0,200ms,200ms,200ms',
      DELIVERY_JITTER: '0',
      DELIVERY_POLL_MS: '100',
      DELIVERY_LEASE_MS: '1000',
      DELIVERY_HOST_CONCURRENCY: '4',
      ...(fresh.schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${fresh.schema}`)}` }
        : {}),
    };
    game = await startGameServer(publicKeys, () => ({ status: 200, body: 'ok', delayMs: 40 }));
  });
  after(async () => {
    for (const c of children) await kill(c, 'SIGKILL');
    await game.close();
    await database.close();
  });

  it('delivers every event at least once after a restart; none is lost', async () => {
    const first = await serve(env);
    children.push(first.child);
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${first.url}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return res.json() as Promise<any>;
    };
    for (const k of (await admin('GET', '/platform-keys')).keys) publicKeys[k.kid] = k.publicKeyPem;
    const app = await admin('POST', '/apps', { name: 'crash test', callbackUrls: { default: `${game.url}/cb` } });

    const ids: number[] = [];
    for (let i = 0; i < 120; i++)
      ids.push((await admin('POST', `/apps/${app.appId}/test-events`, { type: i % 2 ? 'payment' : 'refund' })).eventId);
    await game.waitFor(() => game.requests.length >= 20, 10_000, 'the first deliveries');
    await kill(first.child, 'SIGKILL');

    const delivered = await database.db
      .selectFrom('outbox')
      .select('event_id')
      .where('state', '=', 'delivered')
      .execute();
    assert.ok(
      delivered.length < ids.length,
      `a backlog was left at the crash (${delivered.length} of ${ids.length} delivered)`,
    );

    const second = await serve(env);
    children.push(second.child);
    await game.waitFor(
      () => ids.every((id) => game.requests.some((r) => r.body.includes(`"notifyId":${id},`))),
      20_000,
      'every event at the game',
    );
    const until = Date.now() + 10_000;
    for (;;) {
      const left = await database.db
        .selectFrom('outbox')
        .select('event_id')
        .where('state', '<>', 'delivered')
        .execute();
      if (left.length === 0) break;
      if (Date.now() > until) assert.fail(`${left.length} events not delivered`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(
      game.requests.every((r) => r.verified),
      'every call verified',
    );
    await kill(second.child, 'SIGTERM');
    assert.equal(second.child.exitCode, 0, 'graceful stop after SIGTERM');
  });
});
