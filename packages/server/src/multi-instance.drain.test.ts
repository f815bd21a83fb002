import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { spawnService, type ChildService } from './testing/child.js';
import { startGameServer, type GameServer } from './testing/game-server.js';
import { TEST_DATABASE_URL, testBackend } from './testing/database.js';
import { adminClient } from './testing/service.js';

/**
 * How a backlog drains with one instance and with three on one PostgreSQL (a figure for docs/operations.md, not a
 * timed assertion): the game holds every notification until the backlog is built, then answers at once; the time
 * from then until every event is delivered gives the rate. Each run asserts only that every event was delivered,
 * and that no event was delivered twice (SKIP LOCKED claims, a lease longer than the run).
 */
describe(
  'a backlog drained by one instance and by three',
  { skip: testBackend() !== 'postgres' && 'PostgreSQL only' },
  () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    after(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    async function drain(instances: number, events: number): Promise<{ ms: number; sends: number }> {
      const schema = `t_drain_${crypto.randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      cleanups.push(async () => {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      });
      const adminToken = crypto.randomBytes(24).toString('base64url');
      const env = () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-drain-'));
        cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
        return {
          DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
          DATA_DIR: dataDir,
          ADMIN_TOKEN: adminToken,
          MASTER_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
          RATE_LIMIT_PER_MINUTE: '0',
          // One game host: let each instance send as much to it as to all hosts together.
          DELIVERY_HOST_CONCURRENCY: '64',
          DELIVERY_LEASE_MS: '120000',
          // The game holds the first sends until the backlog is built: they must not time out meanwhile.
          DELIVERY_TIMEOUT_MS: '60000',
        };
      };
      const first = await spawnService(env());
      const children: ChildService[] = [
        first,
        ...(await Promise.all(Array.from({ length: instances - 1 }, () => spawnService(env())))),
      ];
      cleanups.push(() => children.forEach((c) => c.process.kill('SIGKILL')));
      const call = adminClient(first.url, adminToken);
      const keys = (await call('GET', '/platform-keys')).body.keys as Array<{ kid: string; publicKeyPem: string }>;
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const game: GameServer = await startGameServer(
        Object.fromEntries(keys.map((k) => [k.kid, k.publicKeyPem])),
        async () => {
          await released;
          return { status: 200 };
        },
      );
      cleanups.push(() => game.close());
      const app = (await call('POST', '/apps', { name: 'drain', callbackUrls: { default: `${game.url}/cb` } })).body;
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next++ < events)
            assert.equal((await call('POST', `/apps/${app.appId}/test-events`, { type: 'payment' })).status, 201);
        }),
      );
      const started = Date.now();
      release();
      for (;;) {
        const { rows } = await admin.query(`select count(*) as n from ${schema}.outbox where state <> 'delivered'`);
        if (Number(rows[0].n) === 0) break;
        assert.ok(Date.now() - started < 120_000, `${rows[0].n} events not delivered`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const ms = Date.now() - started;
      const ids = game.requests.map((r) => JSON.parse(r.body).notifyId as number);
      assert.equal(new Set(ids).size, events, 'every event reached the game');
      assert.ok(game.requests.every((r) => r.verified));
      return { ms, sends: ids.length };
    }

    it('drains 4,000 events with one instance, then with three', async () => {
      const events = 4000;
      const one = await drain(1, events);
      const three = await drain(3, events);
      const rate = (r: { ms: number }) => Math.round(events / (r.ms / 1000));
      console.log(
        `# drain: ${events} events, one instance ${one.ms} ms (${rate(one)}/s, ${one.sends} sends), ` +
          `three instances ${three.ms} ms (${rate(three)}/s, ${three.sends} sends) on ${os.cpus().length} cores`,
      );
      assert.equal(one.sends, events, 'no event sent twice');
      assert.equal(three.sends, events, 'no event sent twice by three instances');
    });
  },
);
