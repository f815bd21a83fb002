#!/usr/bin/env node
// Runs the compiled test files (`*.test.js` under packages/*/dist) with Node's
// test runner: the SDK's and the example game server's once, the server's on each storage backend
// (TEST_BACKEND=sqlite, then postgres). `--backend sqlite|postgres` runs one.
// Exits non-zero if any run fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ options: { backend: { type: 'string' } }, allowPositionals: true });
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function testFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => path.join(dir, f))
    .filter((f) => positionals.length === 0 || positionals.some((p) => f.includes(p)))
    .sort();
}

function run(label, files, env) {
  if (files.length === 0) return true;
  console.log(`\n=== ${label}: ${files.length} test files`);
  const result = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=2', ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

const backends = values.backend ? [values.backend] : ['sqlite', 'postgres'];
let ok = true;
if (!values.backend) ok = run('sdk', testFiles(path.join(root, 'packages/sdk/dist')), {}) && ok;
if (!values.backend) ok = run('example game server', testFiles(path.join(root, 'examples/game-server/dist')), {}) && ok;
for (const backend of backends) {
  ok = run(`server on ${backend}`, testFiles(path.join(root, 'packages/server/dist')), { TEST_BACKEND: backend }) && ok;
}
process.exit(ok ? 0 : 1);
