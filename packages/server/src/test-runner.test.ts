import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** scripts/test.mjs (issue 41): a filter that matches no test file fails, rather than running nothing and passing. */
describe('the test runner', () => {
  const runner = fileURLToPath(new URL('../../../scripts/test.mjs', import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, [runner, ...args], { encoding: 'utf8' });

  it('exits non-zero, naming the filter, when a filter matches no test file', () => {
    const r = run('--backend', 'sqlite', 'no-such-test-file-41');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /no test file matches "no-such-test-file-41"/);
    assert.doesNotMatch(r.stdout, /===/, 'nothing ran');
  });

  it('exits non-zero when the filters match files that the backend run does not include', () => {
    const r = run('--backend', 'sqlite', 'packages/sdk/dist/md5');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /no test file to run/);
  });
});
