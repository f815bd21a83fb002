import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../testing/service.js';
import { testBackend } from '../testing/database.js';
import { createGame, postReport, reportBody, type GameApp } from '../testing/reporting/reporting.js';

/**
 * Hard to break, embedded storage: SQLite's failure modes that happen in production. A full disk is SQLite's
 * SQLITE_FULL, made here with `max_page_count` (the database may not grow by one page); a file that became read-only
 * is SQLITE_READONLY, made with `query_only`. Both are the errors SQLite raises for the real thing. Each answers 503
 * UNAVAILABLE in the route's envelope with a Retry-After, writes nothing, leaves the file intact, and the service
 * serves again once the fault is gone, with no restart.
 */
describe(
  'SQLite: disk full and read-only answer 503 and recover',
  { skip: testBackend() !== 'sqlite' && 'SQLite faults: once, in the sqlite run' },
  () => {
    let svc: TestService;
    let game: GameApp;
    before(async () => {
      svc = await startTestService();
      game = await createGame(svc);
    });
    after(async () => {
      await svc.close();
    });

    const db = () => svc.services.database.db;
    const count = async (table: 'reports' | 'apps') =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db())).rows[0]!.n);

    /** A 4.1 report and an admin write, each with a large enough body that it needs new pages. */
    async function writes(): Promise<{
      report: { status: number; body: any; retryAfter: string | null };
      app: { status: number; body: any; retryAfter: string | null };
    }> {
      const big = crypto.randomBytes(1500).toString('hex');
      const reportRes = await postReport(
        svc,
        game,
        reportBody(game, { reporter: { role_id: `r-${crypto.randomUUID()}` }, user_description: big.slice(0, 1900) }),
      );
      const appRes = await svc.fetch('/admin/v1/apps', {
        method: 'POST',
        headers: { authorization: `Bearer ${svc.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `game ${big.slice(0, 90)}`,
          callbackUrls: { default: 'https://game.example/cb' },
        }),
      });
      return {
        report: { status: reportRes.status, body: reportRes.body, retryAfter: null },
        app: { status: appRes.status, body: await appRes.json(), retryAfter: appRes.headers.get('retry-after') },
      };
    }

    /**
     * Writes go on until both kinds have been refused: with a full disk a write that still fits in a page the file
     * has may succeed, as it would on a real full disk. Every answer is a success or 503 UNAVAILABLE in the route's
     * envelope with a Retry-After, and the tables grow by exactly the writes answered as successes.
     */
    async function assertRefusedAndNothingWritten(fault: string): Promise<void> {
      const before = { reports: await count('reports'), apps: await count('apps') };
      const accepted = { reports: 0, apps: 0 };
      const refused = { reports: 0, apps: 0 };
      for (let i = 0; i < 40 && (refused.reports < 3 || refused.apps < 3); i++) {
        const { report, app } = await writes();
        if (report.status === 200) accepted.reports++;
        else {
          assert.equal(report.status, 503, `${fault}: 4.1 ${JSON.stringify(report.body)}`);
          assert.equal(report.body.code, 14, 'rpcStatus UNAVAILABLE');
          assert.equal(report.body.details[0].metadata.code, '50300');
          refused.reports++;
        }
        if (app.status === 201) accepted.apps++;
        else {
          assert.equal(app.status, 503, `${fault}: admin ${JSON.stringify(app.body)}`);
          assert.deepEqual(app.body, {
            code: 50300,
            msg: 'Service unavailable, retry later.',
            detail: 'the database is unavailable; retry with backoff',
            data: '',
          });
          assert.equal(app.retryAfter, '2');
          refused.apps++;
        }
      }
      assert.ok(
        refused.reports >= 3 && refused.apps >= 3,
        `${fault}: writes were refused (${JSON.stringify(refused)})`,
      );
      assert.deepEqual(
        { reports: await count('reports'), apps: await count('apps') },
        { reports: before.reports + accepted.reports, apps: before.apps + accepted.apps },
        `${fault}: nothing written for a refusal`,
      );
      assert.equal((await svc.fetch('/healthz')).status, 200);
    }

    async function assertServing(): Promise<void> {
      const { report, app } = await writes();
      assert.equal(report.status, 200, JSON.stringify(report.body));
      assert.equal(app.status, 201, JSON.stringify(app.body));
      const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db());
      assert.deepEqual(check.rows, [{ integrity_check: 'ok' }], 'the file is intact');
    }

    it('a full disk (SQLITE_FULL): 503 in both envelopes, nothing written, serving again once there is room', async () => {
      await assertServing();
      // Fill what the file has, then forbid growth: the next page the database needs is "disk full".
      const pages = Number((await sql<{ page_count: number }>`pragma page_count`.execute(db())).rows[0]!.page_count);
      await sql.raw(`pragma max_page_count = ${pages}`).execute(db());
      try {
        await assertRefusedAndNothingWritten('disk full');
      } finally {
        await sql.raw('pragma max_page_count = 1073741823').execute(db());
      }
      await assertServing();
    });

    it('a read-only database (SQLITE_READONLY): 503, nothing written, serving again once writable', async () => {
      await sql`pragma query_only = 1`.execute(db());
      try {
        await assertRefusedAndNothingWritten('read-only');
      } finally {
        await sql`pragma query_only = 0`.execute(db());
      }
      await assertServing();
    });
  },
);
