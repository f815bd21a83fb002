import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { spawnService, type ChildService } from '../testing/child.js';
import { startGameServer, type GameServer } from '../testing/game-server.js';
import { startPgServer, type PgServer } from '../testing/pg-server.js';
import { testBackend } from '../testing/database.js';
import { signMd5 } from '../testing/service.js';

/**
 * Hard to break: the service outlives its PostgreSQL. A real service process on a PostgreSQL server of this test's
 * own, under steady mixed load (4.1 reports, 4.2 upload URLs, admin writes that enqueue notifications to a real game
 * server, admin reads), while the server's backends are terminated, the server is stopped for 10 s, and it is
 * restarted in fast mode. The process lives; no answer is a 500; every refusal is 503 50300 in its envelope with a
 * Retry-After; /readyz follows the database and /healthz stays up; everything answered 200 is in the database; every
 * notification is delivered; and the service serves normally within 10 s of the database's return.
 */
describe(
  'the service outlives a PostgreSQL restart',
  { skip: testBackend() !== 'postgres' && 'runs its own PostgreSQL server: once, in the postgres run' },
  () => {
    let pgs: PgServer;
    let child: ChildService;
    let game: GameServer;
    let dataDir: string;
    const adminToken = crypto.randomBytes(24).toString('base64url');
    let app: { appId: number; clientId: string; secret: string };
    /** What the load saw: answers by kind, and what the service said it accepted. */
    const seen = {
      answers: new Map<string, number>(),
      badAnswers: [] as string[],
      reports: new Set<string>(),
      events: new Set<number>(),
    };
    const recoveries: Array<{ phase: string; seconds: number }> = [];

    const adminCall = (method: string, p: string, body?: unknown) =>
      fetch(`${child.url}/admin/v1${p}`, {
        method,
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    before(async () => {
      pgs = await startPgServer();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-outage-'));
      child = await spawnService({
        DATABASE_URL: pgs.url,
        DATA_DIR: dataDir,
        ADMIN_TOKEN: adminToken,
        MASTER_KEY: crypto.randomBytes(32).toString('base64'),
        LOG_LEVEL: 'info',
        // Quick retries and a short lease, so the backlog settles within the test's time.
        DELIVERY_SCHEDULE: '0,1s,1s,2s,2s,5s,5s,10s,10s,10s',
        DELIVERY_LEASE_MS: '15000',
        DELIVERY_POLL_MS: '250',
        DELIVERY_TIMEOUT_MS: '3000',
        RATE_LIMIT_PER_MINUTE: '0',
      });
      const keys = (await (await adminCall('GET', '/platform-keys')).json()) as {
        keys: Array<{ kid: string; publicKeyPem: string }>;
      };
      // The game answers slowly, so notifications are in flight when the database goes away.
      game = await startGameServer(Object.fromEntries(keys.keys.map((k) => [k.kid, k.publicKeyPem])), () => ({
        status: 200,
        delayMs: 30,
      }));
      const created = await adminCall('POST', '/apps', {
        name: 'outage game',
        callbackUrls: { default: `${game.url}/pay/callback` },
      });
      assert.equal(created.status, 201);
      app = (await created.json()) as typeof app;
    });

    after(async () => {
      child?.process.kill('SIGKILL');
      await game?.close();
      pgs?.destroy();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    /** One answer: 2xx counts as accepted; any other status must be 503 UNAVAILABLE in the route's envelope. */
    async function record(kind: string, res: Response): Promise<unknown> {
      const text = await res.text();
      seen.answers.set(`${kind} ${res.status}`, (seen.answers.get(`${kind} ${res.status}`) ?? 0) + 1);
      if (res.status < 300) return text ? JSON.parse(text) : undefined;
      const body = JSON.parse(text);
      const enveloped = kind.startsWith('4.') // reporting routes: rpcStatus (docs/errors.md)
        ? body.code === 14 && body.details?.[0]?.metadata?.code === '50300' && typeof body.message === 'string'
        : body.code === 50300 && typeof body.msg === 'string' && typeof body.detail === 'string' && body.data === '';
      if (res.status !== 503 || !enveloped || !res.headers.get('retry-after'))
        seen.badAnswers.push(`${kind}: ${res.status} ${text.slice(0, 300)}`);
      return undefined;
    }

    /** A signed 4.1 report with a reporter of its own (the report caps never answer instead), marked by `extras`. */
    async function postReport(): Promise<{ marker: string; res: Response }> {
      const marker = crypto.randomUUID();
      const body = signMd5(
        {
          client_info: { client_id: app.clientId },
          reporter: { role_id: `reporter-${marker}`, server_code: 's1' },
          reportee: { role_id: 'cheater', server_code: 's1' },
          reasons: [{ id: '7', title: 'speed hack' }],
          extras: marker,
        },
        app.secret,
      );
      const res = await fetch(`${child.url}/svc/reporting/open/v1/player/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { marker, res };
    }

    async function report(): Promise<void> {
      const { marker, res } = await postReport();
      if ((await record('4.1 report', res)) !== undefined) seen.reports.add(marker);
    }

    async function uploadUrl(): Promise<void> {
      const query = signMd5(
        { 'client_info.client_id': app.clientId, file_name: 'clip.png', file_size: '100' },
        app.secret,
      );
      await record(
        '4.2 upload url',
        await fetch(
          `${child.url}/svc/reporting/open/v1/upload/oss_sign_url?${new URLSearchParams(query as Record<string, string>)}`,
        ),
      );
    }

    async function testEvent(): Promise<void> {
      const answer = (await record(
        'admin test event',
        await adminCall('POST', `/apps/${app.appId}/test-events`, { type: 'payment' }),
      )) as { eventId: number } | undefined;
      if (answer) seen.events.add(answer.eventId);
    }

    async function readApp(): Promise<void> {
      await record('admin read', await adminCall('GET', `/apps/${app.appId}`));
    }

    /** Steady mixed load from `workers` loops until stopped; a refused connection would mean the process died. */
    function load(workers = 6): { stop(): Promise<void> } {
      let running = true;
      const steps = [report, uploadUrl, testEvent, readApp];
      const loops = Array.from({ length: workers }, async (_, w) => {
        for (let i = w; running; i++) {
          await steps[i % steps.length]!();
        }
      });
      return {
        async stop() {
          running = false;
          await Promise.all(loops);
        },
      };
    }

    const status = async (p: string) => (await fetch(`${child.url}${p}`)).status;

    /** Seconds from now until a report is accepted and /readyz says ready again. */
    async function timeToServe(phase: string): Promise<void> {
      const started = Date.now();
      for (;;) {
        const { marker, res } = await postReport();
        if (res.status === 200) seen.reports.add(marker);
        if (res.status === 200 && (await status('/readyz')) === 200) break;
        assert.ok(Date.now() - started < 10_000, `${phase}: still not serving 10 s after the database came back`);
        await new Promise((r) => setTimeout(r, 100));
      }
      recoveries.push({ phase, seconds: (Date.now() - started) / 1000 });
    }

    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

    /** Steady load, `fault` done to the database, then serving again within 10 s; the process lives throughout. */
    async function underLoad(phase: string, fault: () => Promise<void>): Promise<void> {
      const traffic = load();
      await pause(1500);
      await fault();
      await timeToServe(phase);
      await pause(1000);
      await traffic.stop();
      assert.equal(child.process.exitCode, null, `the process lives:\n${child.output().slice(-3000)}`);
      assert.deepEqual(seen.badAnswers, []);
    }

    const refusals = () => [...seen.answers].filter(([k]) => k.endsWith(' 503')).reduce((n, [, v]) => n + v, 0);

    it('(a) every backend terminated under load: the process lives and serves on', async () => {
      await underLoad('(a) pg_terminate_backend', async () => {
        assert.ok((await pgs.terminateBackends()) > 0, 'the service had backends to terminate');
      });
    });

    it('(b) the server stopped for 10 s: 503s in the envelope, /readyz 503 and /healthz 200 meanwhile, then serving again', async () => {
      await underLoad('(b) stopped for 10 s', async () => {
        pgs.stop('fast');
        await pause(1000);
        assert.equal(await status('/readyz'), 503, '/readyz says the database is away');
        assert.equal(await status('/healthz'), 200, '/healthz stays up: the process is fine');
        const refusedBefore = refusals();
        await pause(9000);
        assert.ok(refusals() > refusedBefore, 'requests kept being answered (503) while the database was away');
        pgs.start();
      });
    });

    it('(c) the server restarted in fast mode: serving again within 10 s', async () => {
      await underLoad('(c) restart -m fast', async () => pgs.restart('fast'));
    });

    it('afterwards: every request answered 200 is in the database and every notification is delivered, verified', async () => {
      const accepted = [...seen.answers].filter(([k]) => /\s2\d\d$/.test(k)).reduce((n, [, v]) => n + v, 0);
      assert.ok(
        accepted > 100 && seen.reports.size > 20 && seen.events.size > 20,
        `enough load went through: ${JSON.stringify([...seen.answers])}`,
      );
      const client = new pg.Client({ connectionString: pgs.url });
      await client.connect();
      try {
        const stored = await client.query<{ extras: string }>('select extras from reports where app_id = $1', [
          app.appId,
        ]);
        const storedMarkers = new Set(stored.rows.map((r) => r.extras));
        const lost = [...seen.reports].filter((m) => !storedMarkers.has(m));
        assert.deepEqual(lost, [], 'every report answered 200 is stored');

        const events = [...seen.events];
        await game.waitFor(
          () => events.every((id) => game.requests.some((r) => r.verified && JSON.parse(r.body).notifyId === id)),
          60_000,
          'every accepted notification reaches the game, verified',
        );
        const outbox = await client.query<{ event_id: string; state: string }>(
          'select event_id, state from outbox where event_id = any($1::bigint[])',
          [events],
        );
        assert.equal(outbox.rows.length, events.length, 'every accepted notification is in the outbox');
        const deadline = Date.now() + 30_000;
        for (;;) {
          const { rows } = await client.query<{ n: string }>(
            `select count(*) as n from outbox where event_id = any($1::bigint[]) and state <> 'delivered'`,
            [events],
          );
          if (Number(rows[0]!.n) === 0) break;
          assert.ok(Date.now() < deadline, `${rows[0]!.n} notifications not marked delivered`);
          await pause(250);
        }
        const sends = game.requests.filter((r) => events.includes(JSON.parse(r.body).notifyId)).length;
        assert.ok(
          game.requests.every((r) => r.verified),
          'every call the game received verifies (5.3)',
        );
        console.log(`# outage: ${JSON.stringify(Object.fromEntries(seen.answers))}`);
        console.log(
          `# outage: ${seen.reports.size} reports and ${events.length} notifications accepted; ${sends} sends for them (at-least-once); recovery ${recoveries.map((r) => `${r.phase} ${r.seconds.toFixed(2)} s`).join(', ')}`,
        );
      } finally {
        await client.end();
      }
      assert.equal(child.process.exitCode, null);
      assert.doesNotMatch(child.output(), /shutting down after an error/);
    });
  },
);
