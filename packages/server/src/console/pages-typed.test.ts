// The console, portal and web page are plain JavaScript checked by tsc (`// @ts-check`, packages/server/
// pages.tsconfig.json) against the API types generated from the TypeBox schemas (page-types/api.d.ts, written by
// scripts/page-types.mjs). These tests run that check, prove it catches a misspelt field, and keep the generated
// types current.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const server = fileURLToPath(new URL('../../', import.meta.url)); // dist/console/ -> packages/server/
const root = path.join(server, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const pagesConfig = path.join(server, 'pages.tsconfig.json');

/** Runs `node args` (from the repository's root); answers its exit code and output instead of throwing. */
async function run(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

// Nothing here touches storage: checked once, on the SQLite run of the suite (scripts/test.mjs runs it per backend).
const skip = process.env.TEST_BACKEND === 'postgres' && 'the same check as on sqlite (no storage involved)';

suite('the pages, typed', { concurrency: true, skip }, () => {
  test('tsc checks every page against the types generated from the schemas', async () => {
    const { code, output } = await run([tsc, '-p', pagesConfig, '--pretty', 'false']);
    assert.equal(code, 0, output);
  });

  test('a wrong field name in a page fails the check, naming the field', async () => {
    // The order list as it is, but for two misspelt fields of an order: a column's key and a field a cell reads.
    const page = fs.readFileSync(path.join(server, 'console/pages/orders.js'), 'utf8');
    const wrong = page
      .replace(
        "{ label: 'Created', key: 'createdAt', as: 'time' }",
        "{ label: 'Created', key: 'createdOn', as: 'time' }",
      )
      .replace('money(o.totalAmount, o.currency)', 'money(o.totalAmount, o.curency)');
    assert.notEqual(wrong, page);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-typed-'));
    try {
      fs.writeFileSync(path.join(dir, 'orders.js'), wrong);
      fs.writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: pagesConfig,
          include: [],
          files: ['orders.js', path.join(server, 'page-types/vendor.d.ts')],
        }),
      );
      const { code, output } = await run([tsc, '-p', dir, '--pretty', 'false']);
      assert.notEqual(code, 0, output);
      assert.match(output, /orders\.js\(\d+,\d+\): error TS\d+: Type '"createdOn"' is not assignable/);
      assert.match(output, /orders\.js\(\d+,\d+\): error TS\d+: Property 'curency' does not exist/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('page-types/api.d.ts is what the schemas give (else: node scripts/page-types.mjs)', async () => {
    const { code, output } = await run([path.join(root, 'scripts/page-types.mjs'), '--check']);
    assert.equal(code, 0, output);
  });
});
