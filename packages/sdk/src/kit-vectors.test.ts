// The game-server kits' md5 body vectors (kits/vectors.json, issue 32) with the SDK: a body read as a game in
// TypeScript would read it (integers past 2^53 as bigint from their source text, decimal prices as numbers) signs
// as every kit and the service sign it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalParams, md5Sign, md5Verify, type SignableValue } from './md5.js';

interface BodyVector {
  description: string;
  secret: string;
  body: string;
  decimals: string[];
  canonical: string;
  sign: string;
}

const file = fileURLToPath(new URL('../../../kits/vectors.json', import.meta.url));
const vectors = (JSON.parse(readFileSync(file, 'utf8')) as { md5Bodies: BodyVector[] }).md5Bodies;

/** JSON.parse keeping an integer past 2^53 exact: the reviver's context gives its source text (Node 21+). */
function parseExact(text: string): Record<string, SignableValue> {
  return JSON.parse(text, (_k, v: unknown, ctx?: { source?: string }) =>
    typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v) && ctx?.source ? BigInt(ctx.source) : v,
  ) as Record<string, SignableValue>;
}

test('kit md5 body vectors (integers past int64, decimal prices) sign the same with the SDK', async (t) => {
  assert.ok(vectors.length >= 2);
  for (const v of vectors) {
    await t.test(v.description, () => {
      const params = parseExact(v.body);
      for (const k of v.decimals) {
        const text = params[k] as string;
        params[k] = /^-?\d+$/.test(text) ? BigInt(text) : Number(text); // a price as the JSON number it is sent as
      }
      assert.equal(canonicalParams(params), v.canonical);
      assert.equal(md5Sign(params, v.secret), v.sign);
      assert.ok(md5Verify(params, v.secret, v.sign));
    });
  }
});
