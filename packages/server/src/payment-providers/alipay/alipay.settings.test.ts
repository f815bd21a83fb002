import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../../testing/service.js';
import { runCli } from '../../testing/child.js';
import { testBackend } from '../../testing/database.js';

/**
 * An app's Alipay settings through the admin API: the APPID, the Alipay public key and the app's RSA2 private key as
 * Alipay's tools write them (PEM or bare base64, PKCS#8 or PKCS#1), checked before anything is stored; the private key
 * sealed and never answered.
 */
describe('Alipay settings', () => {
  let svc: TestService;
  let app: any;
  const rsa = (bits = 2048) => crypto.generateKeyPairSync('rsa', { modulusLength: bits });
  const app2048 = rsa();
  const alipay2048 = rsa();
  const base64 = (k: crypto.KeyObject, type: 'spki' | 'pkcs8' | 'pkcs1') =>
    (k.export({ type, format: 'der' } as any) as Buffer).toString('base64');
  const good = {
    config: { appId: '2021004100000001', alipayPublicKey: base64(alipay2048.publicKey, 'spki') },
    secrets: { privateKey: base64(app2048.privateKey, 'pkcs8') },
  };
  before(async () => {
    svc = await startTestService();
    app = await svc.createApp({ name: 'alipay settings game', region: 'mainland' });
  });
  after(async () => {
    await svc?.close();
  });

  const settingsRows = async () =>
    (await svc.services.database.db.selectFrom('payment_provider_settings').selectAll().execute()).length;
  const put = (body: unknown) => svc.admin('PUT', `/apps/${app.appId}/payment-providers/alipay`, body);

  it('lists Alipay with channel 4, the mainland, its fields and the notify URL to paste', async () => {
    const res = await svc.admin('GET', `/apps/${app.appId}/payment-providers`);
    const alipay = res.body.providers.find((p: any) => p.provider === 'alipay');
    assert.deepEqual([alipay.method, alipay.channel, alipay.defaultRegions], ['alipay', 4, ['mainland']]);
    assert.equal(alipay.webhookUrl, `${svc.url}/notify/v1/providers/alipay/${app.appId}`);
    assert.deepEqual(
      alipay.fields.config.map((f: any) => [f.name, f.required]),
      [
        ['appId', true],
        ['alipayPublicKey', true],
        ['environment', false],
      ],
    );
    assert.deepEqual(
      alipay.fields.secrets.map((f: any) => [f.name, f.required]),
      [['privateKey', true]],
    );
  });

  it('takes the keys as PEM or base64, PKCS#8 or PKCS#1, and never answers the private key', async () => {
    for (const body of [
      good,
      {
        config: { ...good.config, alipayPublicKey: alipay2048.publicKey.export({ type: 'spki', format: 'pem' }) },
        secrets: { privateKey: app2048.privateKey.export({ type: 'pkcs1', format: 'pem' }) },
      },
      { config: good.config, secrets: { privateKey: base64(app2048.privateKey, 'pkcs1') } },
      // PEM pasted into the console's one-line fields: the line breaks are gone.
      {
        config: {
          ...good.config,
          alipayPublicKey: (alipay2048.publicKey.export({ type: 'spki', format: 'pem' }) as string).replace(/\n/g, ''),
        },
        secrets: {
          privateKey: (app2048.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string).replace(/\n/g, ' '),
        },
      },
    ]) {
      const res = await put(body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.secretsSet, ['privateKey']);
      assert.ok(!JSON.stringify(res.body).includes(base64(app2048.privateKey, 'pkcs1').slice(20, 60)));
    }
  });

  it('refuses what is not an APPID or an RSA key of 2048 bits, naming the field, writing nothing', async () => {
    await svc.admin('DELETE', `/apps/${app.appId}/payment-providers/alipay`);
    const weak = rsa(1024);
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, config: { ...good.config, appId: '2021-0041' } }, /^config\.appId: /],
      [{ ...good, config: { ...good.config, alipayPublicKey: 'x'.repeat(200) } }, /^config\.alipayPublicKey: /],
      [
        { ...good, config: { ...good.config, alipayPublicKey: base64(weak.publicKey, 'spki') } },
        /^config\.alipayPublicKey: /,
      ],
      [
        {
          ...good,
          config: { ...good.config, alipayPublicKey: app2048.privateKey.export({ type: 'pkcs8', format: 'pem' }) },
        },
        /^config\.alipayPublicKey: /,
      ],
      [
        { ...good, config: { ...good.config, alipayPublicKey: ec.publicKey.export({ type: 'spki', format: 'pem' }) } },
        /^config\.alipayPublicKey: /,
      ],
      [{ ...good, secrets: { privateKey: base64(weak.privateKey, 'pkcs8') } }, /^secrets\.privateKey: /],
      [{ ...good, secrets: { privateKey: base64(alipay2048.publicKey, 'spki') } }, /^secrets\.privateKey: /],
      [{ config: good.config }, /^secrets\.privateKey: is required/],
    ];
    for (const [body, detail] of cases) {
      const before = await settingsRows();
      const res = await put(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 40000);
      assert.match(res.body.detail, detail);
      assert.equal(await settingsRows(), before);
    }
  });

  it(
    "the CLI sets Alipay from the console's strings and a key file, and shows no private key",
    { skip: testBackend() !== 'sqlite' && 'CLI runs on SQLite' },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alipay-cli-'));
      try {
        const env = {
          DATA_DIR: dir,
          MASTER_KEY: crypto.randomBytes(32).toString('base64'),
          ADMIN_TOKEN: crypto.randomBytes(24).toString('base64url'),
        };
        const created = await runCli(env, ['--json', 'app', 'create', '--name', 'cli alipay game']);
        assert.equal(created.code, 0, created.stderr);
        const appId = String(JSON.parse(created.stdout).appId);
        const keyFile = path.join(dir, 'app_private_key.txt');
        fs.writeFileSync(keyFile, `${good.secrets.privateKey}\n`);
        const set = await runCli(env, [
        'app', 'payment-providers', 'set', appId, 'alipay', '--config', `appId=${good.config.appId}`,
        '--config', `alipayPublicKey=${good.config.alipayPublicKey}`, '--secret-file', `privateKey=${keyFile}`,
      ]); // prettier-ignore
        assert.equal(set.code, 0, set.stderr);
        assert.match(set.stdout, /alipay enabled for mainland players/);
        const shown = await runCli(env, ['--json', 'app', 'payment-providers', 'show', appId]);
        assert.equal(shown.code, 0, shown.stderr);
        assert.ok(!shown.stdout.includes(good.secrets.privateKey.slice(40, 80)));
        const alipay = JSON.parse(shown.stdout).providers.find((p: any) => p.provider === 'alipay');
        assert.deepEqual(alipay.settings.secretsSet, ['privateKey']);
        assert.equal(alipay.settings.config.appId, good.config.appId);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
