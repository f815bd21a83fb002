import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../config/config.js';
import { buildApp } from '../routes.js';
import { createServices } from '../services.js';
import { signMd5 } from '../testing/service.js';
import { reportBody } from '../testing/reporting/reporting.js';

const run = promisify(execFile);
const cli = new URL('../cli.js', import.meta.url).pathname;

/**
 * The `report` commands work on the service's own database. They run as a
 * real process against an embedded (SQLite) DATA_DIR on either suite backend.
 */
describe('reporting CLI', () => {
  let dataDir: string;
  const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  const report = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, [cli, '--json', 'report', ...args], { env: env() })).stdout);

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-cli-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    });
    fs.writeFileSync(path.join(dataDir, 'master.key'), config.MASTER_KEY!);
    const services = await createServices(config);
    const app = await buildApp(services, { logger: false });
    const { app: game, secret } = await services.apps.create({ name: 'cli game' });
    const body = signMd5(reportBody({ appId: game.appId, clientId: game.clientId, secret }), secret);
    const res = await app.inject({ method: 'POST', url: '/svc/reporting/open/v1/player/report', payload: body });
    assert.equal(res.statusCode, 200, res.body);
    await app.close();
    await services.close();
  });
  after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists, decides on and audits reports', async () => {
    const list = await report('list', '--status', 'open');
    assert.equal(list.reports.length, 1);
    const id = String(list.reports[0].reportId);
    const decided = await report(
      'decide',
      id,
      '--status',
      'dismissed',
      '--note',
      'not enough proof',
      '--moderator',
      'cli-mod',
    );
    assert.equal(decided.status, 'dismissed');
    assert.equal(decided.history[0].moderator, 'cli-mod');
    const counts = await report('reportees');
    assert.equal(counts.reportees[0].reports, 1);
    const audit = await report('audit', '--report', id);
    assert.equal(audit.actions[0].note, 'not enough proof');
  });

  it('fails with a message naming the field on bad input', async () => {
    await assert.rejects(
      run(process.execPath, [cli, 'report', 'decide', '1', '--status', 'closed', '--note', 'x'], { env: env() }),
      (err: { stderr: string; code: number }) => {
        assert.equal(err.code, 1);
        assert.match(err.stderr, /status: must be one of open, actioned, dismissed/);
        return true;
      },
    );
  });
});
