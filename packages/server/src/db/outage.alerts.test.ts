import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './database.js';
import { startPgServer, type PgServer } from '../testing/pg-server.js';
import { testBackend } from '../testing/database.js';
import { assertAlertFires, Scrapes } from '../testing/promtool.js';
import { startTestService, type TestService } from '../testing/service.js';

/**
 * DatabaseUnavailable and ServerErrors (docs/alerts.yml) made to fire from a real outage: a service on a PostgreSQL
 * server of this test's own, the server stopped, the admin API answering 503 meanwhile, /metrics scraped once a
 * "minute" (each scrape is a minute to promtool); and neither fires while the database answers.
 */
describe(
  'the database alerts fire when the database is away',
  { skip: testBackend() !== 'postgres' && 'runs its own PostgreSQL server: once, in the postgres run' },
  () => {
    let pgs: PgServer;
    let svc: TestService;
    let dataDir: string;
    before(async () => {
      pgs = await startPgServer();
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-outage-alerts-'));
      svc = await startTestService(
        {},
        { storage: { database: openDatabase({ url: pgs.url }), dataDir }, dispatcher: false },
      );
    });
    after(async () => {
      await svc?.close().catch(() => {});
      pgs?.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    const minute = async (scrapes: Scrapes, expect: number) => {
      for (let i = 0; i < 10; i++) assert.equal((await svc.admin('GET', '/apps')).status, expect);
      scrapes.add(await svc.metrics());
    };

    it('DatabaseUnavailable and ServerErrors fire from the 503s of an outage, not before it', async () => {
      const scrapes = new Scrapes();
      scrapes.add(await svc.metrics());
      await minute(scrapes, 200);
      pgs.stop('fast');
      for (let i = 0; i < 4; i++) await minute(scrapes, 503);
      const text = await svc.metrics();
      const refusals = text
        .split('\n')
        .filter((l) => l.startsWith('http_request_duration_seconds_count') && l.includes('"503"'));
      assert.ok(
        refusals.length > 0,
        text
          .split('\n')
          .filter((l) => l.includes('503'))
          .join('\n'),
      );
      assertAlertFires({ alert: 'DatabaseUnavailable', scrapes, for: '1m' });
      // One 503 a second over five minutes is the example's threshold; this test's 40 in four "minutes" is below
      // it, so it is lowered to what the test sends.
      assertAlertFires({ alert: 'ServerErrors', scrapes, threshold: 0.05, for: '1m' });
      pgs.start();
    });
  },
);
