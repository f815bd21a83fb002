/** The CommonJS build (tsconfig.cjs.json -> cjs/) is what `require('@game-platform/sdk')` loads, and it works. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import * as esm from './index.js';
import { loadVectors, type RsaVector } from './vectors.testlib.js';

const require = createRequire(import.meta.url);

test('require("@game-platform/sdk") loads the CommonJS build with the same exports as the ESM one', () => {
  const resolved = require.resolve('@game-platform/sdk');
  assert.ok(resolved.endsWith(`${sep}cjs${sep}index.js`), resolved);
  const cjs = require('@game-platform/sdk') as typeof esm & { __esModule?: boolean };
  assert.equal(cjs.__esModule, true, 'a real CommonJS module, not ESM loaded through require(esm)');
  assert.deepEqual(
    Object.keys(cjs)
      .filter((k) => k !== '__esModule')
      .sort(),
    Object.keys(esm).sort(),
  );
});

test('the CommonJS build verifies a callback and signs like the ESM one', () => {
  const cjs = require('@game-platform/sdk') as typeof esm;
  const v = loadVectors<RsaVector>('rsa')[0]!;
  const got = cjs.verifyCallback({
    method: v.method,
    url: v.path,
    headers: v.headers,
    body: v.body,
    publicKeys: { [v.keyId]: v.publicKeyPem },
    now: () => Number(v.timestamp) * 1000,
  });
  assert.equal(got.keyId, v.keyId);
  assert.equal(cjs.md5Sign({ a: 1 }, 's'), esm.md5Sign({ a: 1 }, 's'));
  assert.equal(cjs.parseNotification('{"trxType":9}').kind, 'unknown');
  assert.equal(cjs.PreOrderCode.PURCHASE_LIMIT_REACHED, 105);
});

test('the package exports map has import, require and types conditions', () => {
  const pkg = require('@game-platform/sdk/package.json') as {
    exports: Record<string, Record<string, Record<string, string>>>;
  };
  const root = pkg.exports['.']!;
  assert.deepEqual(root.import, { types: './dist/index.d.ts', default: './dist/index.js' });
  assert.deepEqual(root.require, { types: './cjs/index.d.ts', default: './cjs/index.js' });
});
