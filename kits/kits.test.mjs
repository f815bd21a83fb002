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
import { CONSUMERS, KITS } from './kits.testlib.mjs';

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

describe('kit packages (issue 32)', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kits-dist-'));
  const vectors = JSON.parse(fs.readFileSync(path.join(root, 'kits/vectors.json'), 'utf8'));
  const consumption = vectors.md5.find((c) => c.description.includes('/consumption')).sign;
  const decimals = vectors.md5Bodies.find((c) => c.description.startsWith('decimal prices')).sign;
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('kits/build-all.mjs builds every artifact into one folder and names each', { timeout: 300_000 }, async () => {
    for (const kit of KITS) requireToolchain(kit);
    const printed = await run(process.execPath, [path.join(root, 'kits/build-all.mjs'), out], { cwd: root });
    for (const f of [
      'python/game_platform_kit-0.1.0-py3-none-any.whl',
      'go/proxy/github.com/gameplatform/gamekit/@v/v0.1.0.zip',
      'cpp/lib/cmake/gamekit/gamekitConfig.cmake',
      'cpp/lib/libgamekit.a',
      'java/game-platform-kit-0.1.0.jar',
      'java/game-platform-kit-0.1.0-sources.jar',
      'java/game-platform-kit-0.1.0-javadoc.jar',
      'csharp/GamePlatform.Kit.dll',
    ]) {
      assert.ok(fs.existsSync(path.join(out, f)), `${f} was not built`);
      assert.ok(printed.includes(f), `${f} is not in the printed list:\n${printed}`);
    }
    // The wheel carries the readme (as its long description), the licence and the py.typed marker.
    const wheel = await run('/usr/bin/python3', [
      '-c',
      WHEEL_PY,
      path.join(out, 'python/game_platform_kit-0.1.0-py3-none-any.whl'),
    ]);
    assert.match(wheel, /game_platform_kit\/py\.typed/);
    assert.match(wheel, /dist-info\/LICENSE/);
    assert.match(wheel, /Description-Content-Type: text\/markdown/);
    // The pom has what Maven Central requires; tests run through Surefire (JUnit 5), not exec-maven-plugin.
    const pom = fs.readFileSync(path.join(root, 'kits/java/pom.xml'), 'utf8');
    for (const tag of [
      '<licenses>',
      '<developers>',
      '<scm>',
      '<url>',
      '<description>',
      'maven-source-plugin',
      'maven-javadoc-plugin',
      'maven-surefire-plugin',
      'junit-jupiter',
    ])
      assert.ok(pom.includes(tag), `pom.xml lacks ${tag}`);
    assert.ok(!pom.includes('exec-maven-plugin'));
    const csproj = fs.readFileSync(path.join(root, 'kits/csharp/GamePlatform.Kit.csproj'), 'utf8');
    for (const tag of ['<PackageId>', '<PackageLicenseExpression>', '<RepositoryUrl>', '<PackageReadmeFile>'])
      assert.ok(csproj.includes(tag), `the .csproj lacks ${tag}`);
  });

  for (const c of CONSUMERS) {
    it(`${c.name}: a consumer project builds and runs against the built package`, { timeout: 240_000 }, async () => {
      assert.ok(fs.existsSync(path.join(out, c.name)), 'build-all did not run or failed');
      const work = fs.mkdtempSync(path.join(os.tmpdir(), `kits-consumer-${c.name}-`));
      try {
        // A scratch copy: nothing the build writes (go.sum, build dirs) lands in the repository.
        const dir = path.join(work, 'project');
        fs.cpSync(path.join(root, 'kits/consumers', c.name), dir, { recursive: true });
        let printed = '';
        for (const [cmd, ...args] of c.steps(out, work)) printed = await run(cmd, args, { cwd: dir });
        assert.match(printed, new RegExp(`^consumption ${consumption}$`, 'm'), printed);
        assert.match(printed, new RegExp(`^decimals ${decimals}$`, 'm'), printed);
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
    });
  }
});

const WHEEL_PY = `
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print("\\n".join(z.namelist()))
print(z.read([n for n in z.namelist() if n.endswith("METADATA")][0]).decode())
`;

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
