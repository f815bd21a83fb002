import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../testing/child.js';
import { testBackend } from '../../testing/database.js';
import { WechatpayFake } from '../../testing/wechatpay-fake.js';

/** WeChat Pay set up with the CLI as docs/web-payment.md says: config fields, the key files as secret files. */
describe('WeChat Pay settings from the CLI', () => {
  it(
    'sets the merchant fields and the PEM files, shows no secret, refuses a key that is not one',
    { skip: testBackend() !== 'sqlite' && 'CLI runs on SQLite' },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wechatpay-cli-'));
      try {
        const env = {
          DATA_DIR: dir,
          MASTER_KEY: crypto.randomBytes(32).toString('base64'),
          ADMIN_TOKEN: crypto.randomBytes(24).toString('base64url'),
        };
        const created = await runCli(env, [
          '--json',
          'app',
          'create',
          '--name',
          'cli wechat game',
          '--region',
          'mainland',
        ]);
        assert.equal(created.code, 0, created.stderr);
        const appId = String(JSON.parse(created.stdout).appId);
        const wechat = new WechatpayFake();
        const { config, secrets } = wechat.settingsOf(wechat.merchant());
        const file = (name: string, text: string) => {
          fs.writeFileSync(path.join(dir, name), text);
          return path.join(dir, name);
        };
        const args = [
          'app', 'payment-providers', 'set', appId, 'wechatpay',
          '--config', `mchId=${config.mchId}`, '--config', `wechatAppId=${config.wechatAppId}`,
          '--config', `merchantSerialNo=${config.merchantSerialNo}`, '--config', `platformKeyId=${config.platformKeyId}`,
          '--secret-file', `apiV3Key=${file('apiv3.txt', `${secrets.apiV3Key}\n`)}`,
          '--secret-file', `platformKey=${file('pub_key.pem', secrets.platformKey)}`,
        ]; // prettier-ignore
        const bad = await runCli(env, [
          ...args,
          '--secret-file',
          `merchantPrivateKey=${file('apiclient_key.pem', secrets.platformKey)}`,
        ]);
        assert.notEqual(bad.code, 0);
        assert.match(bad.stderr, /secrets\.merchantPrivateKey/);
        const set = await runCli(env, [
          ...args,
          '--secret-file',
          `merchantPrivateKey=${file('apiclient_key.pem', secrets.merchantPrivateKey)}`,
        ]);
        assert.equal(set.code, 0, set.stderr);
        assert.match(set.stdout, /wechatpay enabled for mainland players/);
        assert.match(set.stdout, /secrets stored: apiV3Key, merchantPrivateKey, platformKey \(never shown\)/);
        const shown = await runCli(env, ['--json', 'app', 'payment-providers', 'show', appId]);
        assert.equal(shown.code, 0, shown.stderr);
        assert.ok(!shown.stdout.includes(secrets.apiV3Key) && !shown.stdout.includes('PRIVATE KEY'));
        const view = JSON.parse(shown.stdout).providers.find((p: any) => p.provider === 'wechatpay');
        assert.deepEqual(view.settings.config, config);
        assert.equal(view.channel, 3);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
