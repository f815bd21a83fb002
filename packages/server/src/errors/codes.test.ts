import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ErrorCodes } from './codes.js';

const docs = fs.readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');

describe('error registry', () => {
  it('documents every code in docs/errors.md with its reason, HTTP status and rpc code', () => {
    for (const [reason, e] of Object.entries(ErrorCodes)) {
      const row = docs.split('\n').find((l) => l.startsWith(`| ${e.code} |`));
      assert.ok(row, `docs/errors.md has no row for ${e.code} (${reason})`);
      const cells = row.split('|').map((c) => c.trim());
      assert.equal(cells[2], reason, `reason of ${e.code}`);
      assert.equal(cells[3], String(e.http), `HTTP status of ${e.code}`);
      assert.equal(cells[4], String(e.grpc), `rpc code of ${e.code}`);
    }
  });

  it('keeps codes unique and the HTTP status the first three digits of the code', () => {
    const codes = Object.values(ErrorCodes).map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    for (const e of Object.values(ErrorCodes)) assert.equal(e.http, Math.floor(e.code / 100), `code ${e.code}`);
  });
});
