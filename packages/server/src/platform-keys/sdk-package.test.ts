import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from '../testing/service.js';

/**
 * The SDK as a game server gets it (issue 41): `npm pack` of packages/sdk installed into an empty project in a
 * temporary folder outside the workspace (a copy in node_modules, no workspace link), its types checked through the
 * exports map for import and require, and a game server made of it alone verifying real deliveries of this service,
 * with keys it fetched itself from GET /v1/platform-keys, again after a key rotation (an unknown Key-Id refetches).
 */
const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_workspaces: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const GAME = `import http from 'node:http';
import { nodeCallbackHandler, platformKeySet, parseNotification, acceptNotification } from '@game-platform/sdk';

const publicKeys = platformKeySet({ baseUrl: process.env.PLATFORM_URL, minRefreshMs: 0 });
const say = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const server = http.createServer(
  nodeCallbackHandler(
    { publicKeys, onRejected: (err) => say({ rejected: err.message }) },
    (call) => {
      const n = parseNotification(call.json);
      say({ received: String(n.trxNo), trxType: n.trxType, keyId: call.keyId });
      return acceptNotification();
    },
  ),
);
server.listen(0, '127.0.0.1', () => say({ port: server.address().port }));
`;

const TYPES_ESM = `import { platformKeySet, type PlatformKeySet, type VerifiedCall } from '@game-platform/sdk';
const keys: PlatformKeySet = platformKeySet({ baseUrl: 'https://platform.example' });
const at: number = null as unknown as VerifiedCall['timestamp'];
export { keys, at };
`;
const TYPES_CJS = `import sdk = require('@game-platform/sdk');
const keys: sdk.PlatformKeySet = sdk.platformKeySet({ baseUrl: 'https://platform.example' });
export = keys;
`;

describe('the packed SDK in an empty project outside the workspace', () => {
  let dir: string;
  let svc: TestService;
  let game: ChildProcess | undefined;
  let out = '';
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-consumer-'));
    svc = await startTestService();
  });
  after(async () => {
    game?.kill('SIGKILL');
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('packs with both module formats and their types, and installs as a copy', () => {
    const [packed] = JSON.parse(
      run('npm', ['pack', path.join(repo, 'packages/sdk'), '--pack-destination', dir, '--json'], dir),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts', 'cjs/package.json'])
      assert.ok(files.includes(f), `${f} is in the tarball`);
    assert.ok(!files.some((f) => /\.test\.|\.testlib\./.test(f)), 'no test files');
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${packed!.filename}`], dir);
    const installed = path.join(dir, 'node_modules/@game-platform/sdk');
    assert.ok(!fs.lstatSync(installed).isSymbolicLink(), 'a copy, not a link to the workspace');

    const cjs = run(process.execPath, ['-e', "console.log(typeof require('@game-platform/sdk').platformKeySet)"], dir);
    assert.equal(cjs.trim(), 'function', 'require() gets the CommonJS build');
    fs.writeFileSync(path.join(dir, 'esm.mts'), TYPES_ESM);
    fs.writeFileSync(path.join(dir, 'cjs.cts'), TYPES_CJS);
    // The consumer's own TypeScript settings: Node's resolution through the exports map, no @types of ours.
    const compilerOptions = { noEmit: true, strict: true, module: 'nodenext', skipLibCheck: true, types: [] };
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['esm.mts', 'cjs.cts'] }),
    );
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
  });

  it('a game server made of it verifies real deliveries with keys it fetched, before and after a rotation', async () => {
    fs.writeFileSync(path.join(dir, 'game.mjs'), GAME);
    game = spawn(process.execPath, ['game.mjs'], { cwd: dir, env: { PATH: process.env.PATH, PLATFORM_URL: svc.url } });
    game.stdout!.on('data', (d) => (out += d));
    game.stderr!.on('data', (d) => (out += d));
    const lines = () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const waitFor = async (pred: (l: Record<string, unknown>) => boolean) => {
      for (let i = 0; i < 300; i++) {
        const hit = lines().find(pred);
        if (hit) return hit;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the game server did not print it:\n${out}`);
    };
    const { port } = (await waitFor((l) => 'port' in l)) as { port: number };
    const app = await svc.createApp({ callbackUrls: { default: `http://127.0.0.1:${port}/pay/callback` } });
    const before = (await svc.admin('GET', '/platform-keys')).body.keys[0].kid as string;

    const first = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    assert.equal(first.status, 201);
    const got = await waitFor((l) => 'received' in l);
    assert.equal(got.keyId, before);
    assert.equal(got.trxType, 0);

    const rotated = await svc.admin('POST', '/platform-keys/rotate');
    assert.equal(rotated.status, 201);
    await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    const again = await waitFor((l) => 'received' in l && l.keyId === rotated.body.kid);
    assert.notEqual(again.received, got.received);
    assert.ok(!lines().some((l) => 'rejected' in l), `no call was refused:\n${out}`);
  });
});
