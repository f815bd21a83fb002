import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ConfigError, loadConfig } from './config.js';
import { configTableMarkdown } from './config-table.js';

describe('configuration', () => {
  it('has working defaults for the embedded mode', () => {
    const c = loadConfig({});
    assert.equal(c.PORT, 8080);
    assert.equal(c.DATABASE_URL, undefined);
    assert.equal(c.REGION, 'overseas');
    assert.equal(c.PUBLIC_PORT, 443);
    assert.equal(c.SIGN_WINDOW_SECONDS, 300);
    assert.deepEqual(c.trustedProxies, []);
    assert.equal(c.production, false);
    assert.ok(c.dataDir.endsWith('/data'));
  });

  it('converts and reads values', () => {
    const c = loadConfig({
      PORT: '9000',
      REGION: 'mainland',
      TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1',
      NODE_ENV: 'production',
    });
    assert.equal(c.PORT, 9000);
    assert.equal(c.REGION, 'mainland');
    assert.deepEqual(c.trustedProxies, ['10.0.0.0/8', '192.168.1.1']);
    assert.equal(c.production, true);
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ REGION: 'moon' }, /REGION/],
    [{ SIGN_WINDOW_SECONDS: '0' }, /SIGN_WINDOW_SECONDS/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ MASTER_KEY: 'short' }, /MASTER_KEY/],
    [{ ADMIN_TOKEN: 'short' }, /ADMIN_TOKEN/],
    [{ TRUSTED_PROXIES: '10.0.0.0/8,not-an-ip' }, /TRUSTED_PROXIES/],
    [{ DATABASE_URL: 'postgres://x/y', ADMIN_TOKEN: 'a'.repeat(30) }, /MASTER_KEY: required/],
    [{ DATABASE_READ_URL: 'mysql://replica/y' }, /DATABASE_READ_URL/],
    [{ DATABASE_READ_URL: 'postgres://replica/y' }, /DATABASE_READ_URL: a read replica needs DATABASE_URL/],
    [
      { HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '15000' },
      /HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS/,
    ],
  ];
  for (const [env, message] of bad) {
    it(`refuses ${JSON.stringify(env)} naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
      );
    });
  }

  it('is documented in the docs/configuration.md table, which is generated from the schema', () => {
    const doc = fs.readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    const table = doc.split('<!-- config-table:start -->')[1]?.split('<!-- config-table:end -->')[0]?.trim();
    assert.equal(
      table,
      configTableMarkdown(),
      'docs/configuration.md table is stale: run `node scripts/config-table.mjs`',
    );
  });
});
