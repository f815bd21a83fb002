import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnService, type ChildService } from './testing/child.js';
import { processEnv } from './testing/env.js';
import { settingLines, whereToGo } from './boot.js';
import { logFormat } from './http/logging.js';

/**
 * What `npm start` prints (issue 34): readable lines at a terminal, JSON lines otherwise, and first the lines that
 * say where to go: the console's address and how to sign in the first time.
 */
/** util-linux's script(1): runs a command on a pseudo-terminal, as a person's terminal would. */
const SCRIPT = '/usr/bin/script';

describe('the startup lines', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let child: ChildService;
  before(async () => {
    ({ env, cleanup } = await processEnv());
    child = await spawnService(env);
  });
  after(async () => {
    child.process.kill('SIGKILL');
    await child.exited;
    await cleanup();
  });

  it('stdout that is not a terminal gets one JSON object a line, the console and the first sign-in first', async () => {
    await fetch(`${child.url}/healthz`).then((r) => r.arrayBuffer());
    // The next lines are written right after "service listening": wait until the sign-in one is out.
    for (let i = 0; i < 100 && !/first sign-in/.test(child.output()); i++) await new Promise((r) => setTimeout(r, 50));
    const lines = child.output().trimEnd().split('\n');
    const logs = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    const at = logs.findIndex((l) => l.msg.startsWith('service listening on '));
    assert.ok(at >= 0);
    assert.equal(logs[at + 1]!.msg, `console: open ${child.url}/console/ in a browser`);
    const signIn = logs[at + 2]!.msg;
    assert.match(signIn, /^first sign-in: choose "Break-glass admin token"/);
    assert.match(signIn, env.ADMIN_TOKEN ? /the ADMIN_TOKEN this service was given/ : /admin-token/);
    assert.ok(!env.ADMIN_TOKEN || !child.output().includes(env.ADMIN_TOKEN), 'the token itself is never logged');
  });

  it('at a terminal (util-linux script gives the service a pseudo-terminal) the lines are pino-pretty, not JSON', async (t) => {
    if (!fs.existsSync(SCRIPT)) return t.skip(`${SCRIPT} is not installed`);
    const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
    const command = [process.execPath, cli, 'serve'].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const tty = spawn(SCRIPT, ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    tty.stdout.on('data', (d) => (out += d));
    try {
      for (let i = 0; i < 1200 && !/first sign-in/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(out, /INFO.*: console: open http:\/\/127\.0\.0\.1:\d+\/console\/ in a browser/);
      assert.match(out, /INFO.*: first sign-in: choose "Break-glass admin token"/);
      assert.ok(!out.split(/\r?\n/).some((line) => line.startsWith('{"level"')), 'no JSON line at a terminal');
    } finally {
      tty.kill('SIGKILL');
    }
  });

  it('a terminal gets pino-pretty, anything else JSON', () => {
    assert.equal(logFormat({ isTTY: true }), 'pretty');
    assert.equal(logFormat({ isTTY: false }), 'json');
    assert.equal(logFormat({}), 'json');
  });

  it('says who may read /metrics, and warns of each sandbox that is on (issue 41)', async () => {
    for (let i = 0; i < 100 && !/metrics: /.test(child.output()); i++) await new Promise((r) => setTimeout(r, 50));
    const logs = child
      .output()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    // spawnService gives the test METRICS_TOKEN.
    assert.ok(logs.some((l) => l.msg === 'metrics: /metrics on the main port, with the METRICS_TOKEN bearer token'));
    assert.ok(!logs.some((l) => /SANDBOX/.test(l.msg)), 'no sandbox is on by default');
    const closed = {
      METRICS_TOKEN: undefined,
      METRICS_PORT: undefined,
      METRICS_HOST: '127.0.0.1',
      METRICS_PUBLIC: false,
    };
    const off = { SANDBOX_PAYMENTS: false, SANDBOX_LOGIN: false };
    assert.deepEqual(settingLines({ ...closed, ...off }), [
      'metrics: /metrics is closed (set METRICS_TOKEN, METRICS_PORT or METRICS_PUBLIC=true to scrape it)',
    ]);
    assert.match(settingLines({ ...closed, ...off, METRICS_PUBLIC: true })[0]!, /OPEN to anyone/);
    assert.equal(
      settingLines({ ...closed, ...off, METRICS_PORT: 9464 })[0],
      'metrics: /metrics on 127.0.0.1:9464 only, without a token',
    );
    const sandboxes = settingLines({ ...closed, SANDBOX_PAYMENTS: true, SANDBOX_LOGIN: true });
    assert.match(sandboxes[1]!, /^SANDBOX PAYMENTS ARE ON/);
    assert.match(sandboxes[2]!, /^SANDBOX LOGIN IS ON/);
  });

  it('names localhost for a service on every interface, and operator sign-in when the token is retired', () => {
    assert.deepEqual(whereToGo('http://0.0.0.0:8080', { ADMIN_TOKEN_ENABLED: true }, '/srv/data/admin-token'), [
      'console: open http://localhost:8080/console/ in a browser',
      'first sign-in: choose "Break-glass admin token" on the sign-in page and paste the token in /srv/data/admin-token; the console then offers to create the first admin',
    ]);
    assert.match(whereToGo('http://127.0.0.1:1', { ADMIN_TOKEN_ENABLED: false }, undefined)[1]!, /operator name/);
  });
});
