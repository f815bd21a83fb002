// The game-server kits (kits/*): kits/vectors.json is current, each kit builds with its Debian toolchain and
// its own tests pass (they run every vector), and end to end: the real service sends a signed test event
// (POST /admin/v1/apps/{appId}/test-events) to that language's example server, which verifies it and answers 200.
// A missing toolchain fails the kit's tests with the apt-get line that installs it: never a silent skip.
// Run by scripts/test.mjs (or alone: node scripts/test.mjs kits), after npm run build.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { KITS } from './kits.testlib.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { startTestService } = await import(
  pathToFileURL(path.join(root, 'packages/server/dist/testing/service.js')).href
);

/** Runs a command to completion (asynchronously, so kits build side by side); rejects with its output on failure. */
function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) => reject(new Error(`${cmd}: ${err.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out.slice(-6000)}`)),
    );
  });
}

/** Fails with the Debian install line when the kit's toolchain is missing. */
function requireToolchain(kit) {
  for (const [cmd, ...args] of kit.toolchain) {
    const r = spawnSync(cmd, args, { stdio: 'ignore' });
    if (r.status !== 0)
      assert.fail(
        `${kit.name} kit: toolchain missing (${cmd} ${args.join(' ')} failed). ` +
          `Install it: apt-get install -y --no-install-recommends ${kit.debian}`,
      );
  }
}

/** Starts the kit's example server on a free loopback port; resolves with its URL and the process. */
function startExample(kit, env) {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = kit.server(env.BUILD_DIR);
    const child = spawn(cmd, args, {
      cwd: kit.dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${kit.name} example server did not start:\n${out}`)), 20_000);
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child, output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kit.name} example server exited ${code}:\n${out}`));
    });
  });
}

async function waitDelivered(svc, eventId) {
  const until = Date.now() + 20_000;
  for (;;) {
    const { body } = await svc.admin('GET', `/events/${eventId}`);
    if (body.state === 'delivered') return body;
    if (body.state === 'dead' || Date.now() > until)
      assert.fail(`event ${eventId} not delivered: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('kits/vectors.json is what scripts/gen-kit-vectors.mjs generates from the current signing code', async () => {
  await run(process.execPath, [path.join(root, 'scripts/gen-kit-vectors.mjs'), '--check'], { cwd: root });
});

describe('game-server kits', { concurrency: 2 }, () => {
  let svc;
  let keysDir;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kits-'));
  before(async () => {
    svc = await startTestService({ DELIVERY_POLL_MS: '50' });
    keysDir = path.join(tmp, 'platform-keys');
    fs.mkdirSync(keysDir);
    const { body } = await svc.admin('GET', '/platform-keys');
    for (const k of body.keys)
      if (k.status !== 'retired') fs.writeFileSync(path.join(keysDir, `${k.kid}.pem`), k.publicKeyPem);
  });
  after(async () => {
    await svc?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const kit of KITS) {
    it(
      `${kit.name}: builds, runs every vector, and its example server verifies a real signed test event`,
      { timeout: 240_000 },
      async () => {
        requireToolchain(kit);
        const buildDir = path.join(tmp, kit.name);
        fs.mkdirSync(buildDir);
        const env = { ...process.env, BUILD_DIR: buildDir, KIT_VECTORS: path.join(root, 'kits/vectors.json') };
        for (const [cmd, ...args] of kit.steps(buildDir)) await run(cmd, args, { cwd: kit.dir, env });

        const example = await startExample(kit, { BUILD_DIR: buildDir, PLATFORM_KEYS_DIR: keysDir, PORT: '0' });
        try {
          // A forged call is refused before anything else happens.
          const forged = await fetch(`${example.url}/pay/callback`, {
            method: 'POST',
            headers: { Timestamp: String(Math.floor(Date.now() / 1000)), Nonce: 'forged-1', Signature: 'AAAA' },
            body: '{"trxNo":1}',
          });
          assert.equal(forged.status, 401, `${kit.name}: a forged call must be refused`);

          const app = await svc.createApp({
            name: `${kit.name} kit`,
            callbackUrls: { default: `${example.url}/pay/callback` },
          });
          const res = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
          assert.equal(res.status, 201);
          const event = await waitDelivered(svc, res.body.eventId);
          // Verified and answered 200 on the first attempt: a refusal would have meant a retry.
          assert.equal(event.attemptLog.at(-1).httpStatus, 200, example.output());
          assert.equal(event.attempts, 1, example.output());
        } finally {
          example.child.kill();
        }
      },
    );
  }
});
