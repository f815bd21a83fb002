import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { nodeVersionProblem, requiredNodeRange, satisfies } from './node-version.js';

const run = promisify(execFile);
const cli = new URL('../cli.js', import.meta.url).pathname;
/** The machine's own, older Node.js (Debian's), as a process manager would start the built file with. */
const OLD_NODE = '/usr/bin/node';

describe('Node.js version check of the entry point (issue 34)', () => {
  it('reads the range from package.json engines and compares versions the way engines means', () => {
    assert.equal(requiredNodeRange(), '>=24.11.0 <25');
    assert.equal(satisfies('24.11.0', '>=24.11.0 <25'), true);
    assert.equal(satisfies('24.21.0', '>=24.11.0 <25'), true);
    assert.equal(satisfies('24.10.9', '>=24.11.0 <25'), false);
    assert.equal(satisfies('25.0.0', '>=24.11.0 <25'), false);
    assert.equal(satisfies('20.20.2', '>=24.11.0 <25'), false);
    assert.equal(nodeVersionProblem(process.versions.node), undefined);
    const line = nodeVersionProblem('20.20.2');
    assert.ok(line && !line.includes('\n'));
    assert.match(line, />=24\.11\.0 <25/);
    assert.match(line, /v20\.20\.2/);
  });

  it('the built cli.js started with an older node exits 1 with one line naming the required version', async (t) => {
    if (!fs.existsSync(OLD_NODE)) return t.skip(`${OLD_NODE} is not installed`);
    const { stdout: version } = await run(OLD_NODE, ['--version']);
    if (satisfies(version.trim(), requiredNodeRange())) return t.skip(`${OLD_NODE} is ${version.trim()}, supported`);
    await assert.rejects(run(OLD_NODE, [cli, 'serve'], { env: { ...process.env, LOG_LEVEL: 'silent' } }), (err) => {
      const e = err as { code: number; stdout: string; stderr: string; signal: string | null };
      assert.equal(e.signal, null, 'no crash');
      assert.equal(e.code, 1);
      assert.equal(e.stdout, '');
      const lines = e.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, e.stderr);
      assert.match(lines[0]!, /needs Node\.js >=24\.11\.0 <25 \(package\.json engines\)/);
      assert.match(lines[0]!, /npm start|nodejs\.org/);
      return true;
    });
  });
});
