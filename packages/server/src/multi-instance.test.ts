import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildMacAuthorization } from '@game-platform/sdk';
import { spawnService, type ChildService } from './testing/child.js';
import { startGameServer, type GameServer } from './testing/game-server.js';
import { TEST_DATABASE_URL, testBackend } from './testing/database.js';
import { adminClient, scrapeMetrics, signMd5 } from './testing/service.js';

/**
 * Several instances on one PostgreSQL, as docs/operations.md promises: real service processes sharing one schema.
 * Migrations run once when they start together; a backlog is drained by all of them with no event held by two at
 * once; an instance SIGKILLed mid-drain loses nothing; a signed request replayed to another instance is refused
 * for each scheme; changes made through one instance are honoured by the others within the documented times; and
 * the rate limit is per instance, as documented.
 */
describe(
  'several instances on one PostgreSQL',
  { skip: testBackend() !== 'postgres' && 'several instances need PostgreSQL' },
  () => {
    const schema = `t_multi_${crypto.randomBytes(4).toString('hex')}`;
    const adminToken = crypto.randomBytes(24).toString('base64url');
    const masterKey = crypto.randomBytes(32).toString('base64');
    const dataDirs: string[] = [];
    const running: ChildService[] = [];
    let admin: pg.Client;
    let game: GameServer;
    /** When the game answered each delivery, by notifyId: [arrived, answered] in ms. */
    const attempts = new Map<number, Array<[number, number]>>();
    let app: { appId: number; clientId: string; secret: string };
    let instances: ChildService[];

    const env = (extra: Record<string, string> = {}) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-multi-'));
      dataDirs.push(dataDir);
      return {
        DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        DATA_DIR: dataDir,
        ADMIN_TOKEN: adminToken,
        MASTER_KEY: masterKey,
        DELIVERY_LEASE_MS: '5000',
        DELIVERY_POLL_MS: '200',
        DELIVERY_SCHEDULE: '0,1s,1s,2s,5s,10s',
        RATE_LIMIT_PER_MINUTE: '0',
        ...extra,
      };
    };
    async function spawn(extra: Record<string, string> = {}): Promise<ChildService> {
      const child = await spawnService(env(extra));
      running.push(child);
      return child;
    }
    const adminCall = (child: ChildService, method: string, p: string, body?: unknown) =>
      adminClient(child.url, adminToken)(method, p, body);
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const count = async (q: string, values: unknown[] = []) => Number((await admin.query(q, values)).rows[0].n);

    before(async () => {
      admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.query(`set search_path = ${schema}`);
    });

    after(async () => {
      for (const child of running) child.process.kill('SIGKILL');
      await game?.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('three instances started at once on an empty database run the migrations once', async () => {
      instances = await Promise.all([spawn(), spawn(), spawn()]);
      const files = fs
        .readdirSync(new URL('./db/migrations/', import.meta.url))
        .filter((f) => /^\d{4}_.*\.js$/.test(f));
      const { rows } = await admin.query<{ name: string }>('select name from kysely_migration order by name');
      assert.deepEqual(
        rows.map((r) => r.name),
        files.map((f) => f.replace(/\.js$/, '')).sort(),
        'each migration recorded once',
      );
      for (const child of instances) assert.equal((await fetch(`${child.url}/readyz`)).status, 200);

      const keys = (await adminCall(instances[0]!, 'GET', '/platform-keys')).body.keys as Array<{
        kid: string;
        publicKeyPem: string;
      }>;
      game = await startGameServer(Object.fromEntries(keys.map((k) => [k.kid, k.publicKeyPem])), (req) => {
        recordAttempt(req.body);
        return { status: 200, delayMs: ANSWER_MS };
      });
      const created = await adminCall(instances[1]!, 'POST', '/apps', {
        name: 'multi game',
        callbackUrls: { default: `${game.url}/pay/callback` },
      });
      assert.equal(created.status, 201);
      app = created.body;
    });

    /** The game answers every delivery after this long. */
    const ANSWER_MS = 20;

    /** Notes an attempt of the event in `body` as held by the game from now until its answer, `answerMs` later. */
    function recordAttempt(body: string, answerMs = ANSWER_MS): void {
      const notifyId = JSON.parse(body).notifyId as number;
      const arrived = Date.now();
      attempts.set(notifyId, [...(attempts.get(notifyId) ?? []), [arrived, arrived + answerMs]]);
    }

    /** Enqueues `n` test events through the admin API of the given instances in turn; answers their ids. */
    async function enqueue(n: number, through: ChildService[]): Promise<number[]> {
      const ids: number[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < n) {
            const i = next++;
            const res = await adminCall(through[i % through.length]!, 'POST', `/apps/${app.appId}/test-events`, {
              type: 'payment',
            });
            assert.equal(res.status, 201);
            ids.push(res.body.eventId);
          }
        }),
      );
      return ids;
    }

    async function drained(ids: number[], timeoutMs: number): Promise<number> {
      const started = Date.now();
      for (;;) {
        const pending = await count(
          `select count(*) as n from outbox where event_id = any($1::bigint[]) and state <> 'delivered'`,
          [ids],
        );
        if (pending === 0) return Date.now() - started;
        assert.ok(Date.now() - started < timeoutMs, `${pending} of ${ids.length} events still not delivered`);
        await pause(100);
      }
    }

    /** Attempts of one event never overlap: no two instances held it at once. */
    function assertNoOverlap(ids: number[]): void {
      for (const id of ids) {
        const held = (attempts.get(id) ?? []).sort((a, b) => a[0] - b[0]);
        assert.ok(held.length >= 1, `event ${id} reached the game`);
        for (let i = 1; i < held.length; i++) {
          assert.ok(held[i]![0] >= held[i - 1]![1], `event ${id}: two attempts overlap in time`);
        }
      }
    }

    async function deliveredBy(child: ChildService): Promise<number> {
      const metrics = await scrapeMetrics(child.url);
      const m = /^delivery_attempts_total\{outcome="delivered"\} (\d+)/m.exec(metrics);
      return m ? Number(m[1]) : 0;
    }

    it('a backlog of thousands is drained by all three, each event held by one instance at a time, every delivery verifying', async () => {
      const before = await Promise.all(instances.map(deliveredBy));
      const ids = await enqueue(3000, instances);
      const ms = await drained(ids, 120_000);
      assertNoOverlap(ids);
      assert.ok(
        game.requests.every((r) => r.verified),
        'every delivery verifies (5.3)',
      );
      const after = await Promise.all(instances.map(deliveredBy));
      const shares = after.map((n, i) => n - before[i]!);
      assert.ok(
        shares.every((n) => n > 0),
        `every instance delivered some: ${shares.join(', ')}`,
      );
      const sent = ids.reduce((n, id) => n + (attempts.get(id)?.length ?? 0), 0);
      console.log(
        `# three instances: 3000 events enqueued and drained, ${ms} ms after the last enqueue; sends per instance ${shares.join('/')}; ${sent} sends`,
      );
    });

    it('one instance SIGKILLed mid-drain: nothing lost, its leased events picked up by the others after the lease', async () => {
      const victim = instances[2]!;
      // A slower game: at 8 sends per instance to one host (DELIVERY_HOST_CONCURRENCY) the backlog takes seconds, and
      // each instance holds claims on events it has not sent yet.
      game.handler = (req) => {
        recordAttempt(req.body, 150);
        return { status: 200, delayMs: 150 };
      };
      const ids = await enqueue(1500, instances.slice(0, 2));
      await pause(1000);
      // Killed with its claims held: those events are due again once their lease (DELIVERY_LEASE_MS, 5 s) runs out.
      const held = await count(
        `select count(*) as n from outbox where event_id = any($1::bigint[]) and state <> 'delivered' and claim_token is not null`,
        [ids],
      );
      victim.process.kill('SIGKILL');
      await victim.exited;
      await drained(ids, 60_000);
      assertNoOverlap(ids);
      assert.ok(held > 0, 'events were claimed and not yet delivered when the instance was killed');
      console.log(
        `# SIGKILL mid-drain: 1500 events all delivered; ${held} were claimed (by the three) and undelivered at the kill`,
      );
      instances = instances.slice(0, 2);
    });

    it('a signed request replayed to another instance is refused, for md5 (query and body) and MAC', async () => {
      const [a, b] = instances as [ChildService, ChildService];
      // 4.2: md5 over the query.
      const query = new URLSearchParams(
        signMd5({ 'client_info.client_id': app.clientId, file_name: 'a.png', file_size: '10' }, app.secret) as Record<
          string,
          string
        >,
      );
      const url = `/svc/reporting/open/v1/upload/oss_sign_url?${query}`;
      assert.equal((await fetch(a.url + url)).status, 200);
      const replayedQuery = await fetch(b.url + url);
      assert.equal(replayedQuery.status, 401);
      assert.equal(((await replayedQuery.json()) as any).details[0].reason, 'NONCE_REUSED');

      // 4.6: md5 over the body.
      const notice = JSON.stringify(
        signMd5({ userId: '1001', roleId: 'r1', serverId: 's1', productCode: 'gem', appId: app.appId }, app.secret, {
          timestamp: Math.floor(Date.now() / 1000),
        }),
      );
      const postNotice = (child: ChildService) =>
        fetch(`${child.url}/order/v1/game/pay/notify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: notice,
        });
      assert.equal((await postNotice(a)).status, 200);
      const replayedBody = await postNotice(b);
      assert.equal(replayedBody.status, 401);
      assert.equal(((await replayedBody.json()) as any).code, 40104);

      // 4.3: MAC (5.2).
      const login = await fetch(`${a.url}/api/account/v1/client/login/guest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: app.clientId, deviceId: crypto.randomUUID() }),
      });
      const token = ((await login.json()) as any).data;
      const uri = `/api/account/v1/user/profile?clientId=${app.clientId}`;
      const authorization = buildMacAuthorization({
        kid: token.kid,
        macKey: token.macKey,
        method: 'GET',
        uri,
        host: '127.0.0.1',
        port: 443,
      });
      assert.equal((await fetch(a.url + uri, { headers: { authorization } })).status, 200);
      const replayedMac = await fetch(b.url + uri, { headers: { authorization } });
      assert.equal(replayedMac.status, 403);
      assert.equal(((await replayedMac.json()) as any).code, 40300);
    });

    it('an app change and a secret rotation made through one instance are honoured by the other within 2 s', async () => {
      const [a, b] = instances as [ChildService, ChildService];
      // Both instances have the app cached now.
      assert.equal((await adminCall(b, 'GET', `/apps/${app.appId}`)).status, 200);
      const second = await startGameServer({}, () => ({ status: 200 }));
      try {
        const changed = Date.now();
        assert.equal(
          (await adminCall(a, 'PATCH', `/apps/${app.appId}`, { callbackUrls: { default: `${second.url}/cb` } })).status,
          200,
        );
        const rotated = await adminCall(a, 'POST', `/apps/${app.appId}/rotate-secret`);
        assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
        const newSecret = rotated.body.secret as string;
        // The new secret signs on B within the app cache's 2 s; the old one still does (grace period).
        let acceptedAfter = -1;
        for (;;) {
          const q = new URLSearchParams(
            signMd5(
              { 'client_info.client_id': app.clientId, file_name: 'a.png', file_size: '10' },
              newSecret,
            ) as Record<string, string>,
          );
          if ((await fetch(`${b.url}/svc/reporting/open/v1/upload/oss_sign_url?${q}`)).status === 200) {
            acceptedAfter = Date.now() - changed;
            break;
          }
          assert.ok(Date.now() - changed < 2500, 'the rotated secret is honoured by the other instance within 2 s');
          await pause(100);
        }
        const old = new URLSearchParams(
          signMd5({ 'client_info.client_id': app.clientId, file_name: 'a.png', file_size: '10' }, app.secret) as Record<
            string,
            string
          >,
        );
        assert.equal(
          (await fetch(`${b.url}/svc/reporting/open/v1/upload/oss_sign_url?${old}`)).status,
          200,
          'the previous secret stays valid',
        );
        // A notification enqueued through B after the cache time goes to the new callback URL.
        await pause(Math.max(0, 2100 - (Date.now() - changed)));
        const sent = await adminCall(b, 'POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
        await second.waitFor(
          () => second.requests.some((r) => JSON.parse(r.body).notifyId === sent.body.eventId),
          10_000,
          'the event goes to the new URL',
        );
        console.log(
          `# cross-instance: the rotated secret was honoured by the other instance after ${acceptedAfter} ms`,
        );
        app = { ...app, secret: newSecret };
      } finally {
        await second.close();
      }
    });

    it("a platform key rotation made through one instance signs the other instance's calls within 60 s", async () => {
      const [a, b] = instances as [ChildService, ChildService];
      const third = await startGameServer({}, () => ({ status: 200 }));
      try {
        assert.equal(
          (await adminCall(a, 'PATCH', `/apps/${app.appId}`, { callbackUrls: { default: `${third.url}/cb` } })).status,
          200,
        );
        const rotated = await adminCall(a, 'POST', '/platform-keys/rotate');
        assert.equal(rotated.status, 201);
        const started = Date.now();
        for (;;) {
          const sent = await adminCall(b, 'POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
          await third.waitFor(
            () => third.requests.some((r) => JSON.parse(r.body).notifyId === sent.body.eventId),
            10_000,
          );
          const request = third.requests.find((r) => JSON.parse(r.body).notifyId === sent.body.eventId)!;
          if (request.headers['key-id'] === rotated.body.kid) break;
          assert.ok(Date.now() - started < 65_000, 'the other instance signs with the new key within 60 s');
          await pause(1000);
        }
        console.log(
          `# cross-instance: the other instance signed with the rotated key after ${Date.now() - started} ms`,
        );
      } finally {
        await third.close();
      }
    });

    it('the rate limit is per instance (RATE_LIMIT_PER_MINUTE, docs/operations.md)', async () => {
      const [c, d] = await Promise.all([spawn({ RATE_LIMIT_PER_MINUTE: '5' }), spawn({ RATE_LIMIT_PER_MINUTE: '5' })]);
      const upload = (child: ChildService) => {
        const q = new URLSearchParams(
          signMd5({ 'client_info.client_id': app.clientId, file_name: 'a.png', file_size: '10' }, app.secret) as Record<
            string,
            string
          >,
        );
        return fetch(`${child.url}/svc/reporting/open/v1/upload/oss_sign_url?${q}`);
      };
      for (let i = 0; i < 5; i++) assert.equal((await upload(c)).status, 200);
      assert.equal((await upload(c)).status, 429, 'the sixth request of the minute on one instance is refused');
      for (let i = 0; i < 5; i++) assert.equal((await upload(d)).status, 200, 'the other instance counts its own');
      assert.equal((await upload(d)).status, 429);
    });
  },
);
