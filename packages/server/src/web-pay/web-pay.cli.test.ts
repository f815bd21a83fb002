import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../config/config.js';
import { createServices } from '../services.js';

const run = promisify(execFile);
const cli = new URL('../cli.js', import.meta.url).pathname;

/** The web payment page's CLI on an embedded DATA_DIR (a real process), on either suite backend. */
describe('web payment page CLI', () => {
  let dataDir: string;
  let appId: number;
  const env = () => ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  // Under --json a refusal is a JSON error on stdout (docs/operations.md): rejected with its text, to match on.
  const app = async (...args: string[]) => {
    try {
      return JSON.parse((await run(process.execPath, [cli, '--json', 'app', ...args], { env: env() })).stdout);
    } catch (err) {
      const { stdout, code } = err as { stdout?: string; code?: number };
      throw new Error(`exit ${code}: ${stdout}`);
    }
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-webpay-cli-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    });
    fs.writeFileSync(path.join(dataDir, 'master.key'), config.MASTER_KEY!);
    const services = await createServices(config);
    appId = (await services.apps.create({ name: 'cli game' })).app.appId;
    await services.close();
  });
  after(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets servers and custom pre-order texts, refusing a built-in code', async () => {
    const id = String(appId);
    assert.deepEqual((await app('web-pay', 'set-servers', id, 's1=Asia 1', 's2=Europe')).servers, [
      { serverId: 's1', name: 'Asia 1' },
      { serverId: 's2', name: 'Europe' },
    ]);
    assert.equal((await app('web-pay', 'servers', id)).servers.length, 2);
    assert.equal((await app('precheck-messages', 'set', id, '9001', 'zh-CN', '先完成教程')).text, '先完成教程');
    assert.deepEqual(
      (await app('precheck-messages', 'list', id)).items.map((m: any) => [m.code, m.lang]),
      [[9001, 'zh-CN']],
    );
    await assert.rejects(app('precheck-messages', 'set', id, '105', 'en', 'x'), /built-in/);
    assert.deepEqual(await app('precheck-messages', 'delete', id, '9001'), { deleted: true });
    assert.deepEqual((await app('precheck-messages', 'list', id)).items, []);
  });

  it('sets the frame ancestors and return URLs, refusing a non-https origin, and clears them', async () => {
    const id = String(appId);
    const set = await app('web-pay', 'set-frame-ancestors', id, 'https://play.example.com', 'http://127.0.0.1:8080');
    assert.deepEqual(set.frameAncestors, ['https://play.example.com', 'http://127.0.0.1:8080']);
    assert.equal(set.servers.length, 2, 'the servers are kept');
    await assert.rejects(app('web-pay', 'set-frame-ancestors', id, 'http://play.example.com'), /https/);
    const urls = await app('web-pay', 'set-return-urls', id, 'https://play.example.com/paid');
    assert.deepEqual(urls.returnUrls, ['https://play.example.com/paid']);
    const shown = await app('web-pay', 'show', id);
    assert.deepEqual([shown.frameAncestors.length, shown.returnUrls.length], [2, 1]);
    assert.deepEqual((await app('web-pay', 'set-frame-ancestors', id)).frameAncestors, []);
  });
});
