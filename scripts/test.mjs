#!/usr/bin/env node
// Runs the compiled test files (`*.test.js` under packages/*/dist) with Node's
// test runner: the SDK's, the example game server's and the game-server kits' (kits/kits.test.mjs) once,
// the server's on each storage backend (TEST_BACKEND=sqlite, then postgres). `--backend sqlite|postgres` runs one.
// Exits non-zero if any run fails.
import './check-node.mjs'; // stops at once on any Node.js but the pinned one
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { backend: { type: 'string' } }, allowPositionals: true });
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function testFiles(dir, pick = selected) {
  if (!fs.existsSync(dir)) return [];
  return (
    fs
      .readdirSync(dir, { recursive: true })
      .filter((f) => f.endsWith('.test.js'))
      // Only tests whose source still exists: tsc leaves the output of a deleted or renamed test file in dist.
      .filter((f) => fs.existsSync(path.join(dir, '..', 'src', f.replace(/\.js$/, '.ts'))))
      .map((f) => path.join(dir, f))
      .filter(pick)
      .sort()
  );
}

/** Matched against the path inside the repository, so the checkout's own folder name never matches. */
function selected(file) {
  return positionals.length === 0 || positionals.some((p) => path.relative(root, file).includes(p));
}

let ran = 0;
function run(label, files, env) {
  if (files.length === 0) return true;
  ran += files.length;
  console.log(`\n=== ${label}: ${files.length} test files`);
  const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

// The console and portal tests drive Debian's Chromium (packages/server/src/testing/console/console.ts). Install it when
// missing and we can (root with apt-get); otherwise stop with how to install it: never skip those tests.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const serverFiles = testFiles(path.join(root, 'packages/server/dist'));
if (serverFiles.some((f) => /[\\/](console|portal)[\\/]/.test(f)) && !fs.existsSync(CHROMIUM)) {
  const hasAptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (process.getuid?.() === 0 && hasAptGet && !process.env.CHROMIUM_PATH) {
    console.log(
      `${CHROMIUM} is missing (the console tests need it): apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium`,
    );
    spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium'], {
      stdio: 'inherit',
    });
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.error(
      `\nThe console tests need Chromium at ${CHROMIUM} and it is missing.\n` +
        'Install it (Debian/Ubuntu, as root): apt-get update && apt-get install -y --no-install-recommends chromium\n' +
        'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
    process.exit(1);
  }
}

// A filter that matches no test file is a typo or a stale name: say so and fail, rather than run nothing and pass.
const everyFile = [
  ...['packages/sdk/dist', 'examples/game-server/dist', 'packages/server/dist'].flatMap((d) =>
    testFiles(path.join(root, d), () => true),
  ),
  path.join(root, 'kits/kits.test.mjs'),
];
const unmatched = positionals.filter((p) => !everyFile.some((f) => path.relative(root, f).includes(p)));
if (unmatched.length > 0) {
  console.error(
    `no test file matches ${unmatched.map((p) => JSON.stringify(p)).join(', ')} (a filter is a substring of a test ` +
      "file's path, e.g. payment-providers/stripe; run `npm run build` first if the test is new)",
  );
  process.exit(1);
}

const backends = values.backend ? [values.backend] : ['sqlite', 'postgres'];
let ok = true;
if (!values.backend) ok = run('sdk', testFiles(path.join(root, 'packages/sdk/dist')), {}) && ok;
if (!values.backend) ok = run('example game server', testFiles(path.join(root, 'examples/game-server/dist')), {}) && ok;
// The kits in Python, Go, Java, C++ and C# with their own toolchains, once: their end-to-end checks use the service
// on SQLite, or on the backend given when the kits are picked by name (`--backend postgres kits`).
if (!values.backend || positionals.length > 0) {
  const kits = [path.join(root, 'kits/kits.test.mjs')].filter(selected);
  ok = run('game-server kits', kits, { TEST_BACKEND: values.backend ?? 'sqlite' }) && ok;
}
for (const backend of backends) {
  ok = run(`server on ${backend}`, serverFiles, { TEST_BACKEND: backend }) && ok;
}
if (ran === 0) {
  console.error(`no test file to run for ${positionals.join(' ')} with --backend ${values.backend}`);
  process.exit(1);
}
process.exit(ok ? 0 : 1);
