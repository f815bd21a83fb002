import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from '../testing/service.js';
import { makeApiKey } from '../testing/apple-fixture.js';
import { makeServiceAccount } from '../testing/google-fixture.js';
import { runCli, spawnService } from '../testing/child.js';
import { testBackend } from '../testing/database.js';
import { countSealed, resealAll } from '../master-key/reseal.js';
import { STORE_SETTINGS_SEALED_COLUMNS } from './store-settings.service.js';

const APPLE_ROOT = fs.readFileSync(
  fileURLToPath(new URL('../../certs/apple/AppleRootCA-G3.pem', import.meta.url)),
  'utf8',
);

describe('admin API: per-app store settings', () => {
  let svc: TestService;
  let appId: number;
  let apiKey: Awaited<ReturnType<typeof makeApiKey>>;
  const account = makeServiceAccount('play-api');
  const accountJson = JSON.stringify(account);
  const appleBody = () => ({
    bundleId: 'com.example.game',
    appAppleId: 1234567890,
    environment: 'Production',
    rootCertificatesPem: APPLE_ROOT,
    apiIssuerId: apiKey.issuerId,
    apiKeyId: apiKey.keyId,
    apiPrivateKey: apiKey.privateKeyPem,
  });
  const googleBody = () => ({
    packageName: 'com.example.game',
    serviceAccountJson: accountJson,
    pushAudience: 'https://pay.example.com/notify/v1/google/1',
    pushServiceAccountEmail: 'pubsub-push@test-project.iam.gserviceaccount.com',
  });
  const secretsOf = () => [apiKey.privateKeyPem, account.private_key, accountJson];
  const rawRows = async () =>
    svc.services.database.db
      .selectFrom('app_store_settings')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('store')
      .execute();

  before(async () => {
    svc = await startTestService();
    appId = (await svc.createApp({ name: 'store game' })).appId;
    apiKey = await makeApiKey();
  });
  after(async () => {
    await svc.close();
  });

  it('shows nothing set, with the notification URLs to paste into the stores', async () => {
    const res = await svc.admin('GET', `/apps/${appId}/store-settings`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      appId,
      apple: null,
      google: null,
      notificationUrls: {
        apple: `${svc.url}/notify/v1/apple/${appId}`,
        google: `${svc.url}/notify/v1/google/${appId}`,
      },
    });
  });

  it('sets the App Store settings: answered without the key, the key sealed at rest', async () => {
    const res = await svc.admin('PUT', `/apps/${appId}/store-settings/apple`, appleBody());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.bundleId, 'com.example.game');
    assert.equal(res.body.appAppleId, 1234567890);
    assert.equal(res.body.environment, 'Production');
    assert.equal(res.body.apiKeyId, apiKey.keyId);
    assert.equal(res.body.apiIssuerId, apiKey.issuerId);
    assert.equal(res.body.apiKeySet, true);
    assert.equal(res.body.enabled, true);
    assert.match(res.body.rootCertificatesPem, /^-----BEGIN CERTIFICATE-----/);
    for (const s of secretsOf()) assert.ok(!JSON.stringify(res.body).includes(s), 'no secret answered');

    const [row] = await rawRows();
    assert.ok(row!.api_private_key_enc && !row!.api_private_key_enc.includes('PRIVATE KEY'));
    assert.equal(
      svc.services.box.open(row!.api_private_key_enc, `app-store-apple-api-key:${appId}`),
      apiKey.privateKeyPem,
    );
    const opened = await svc.services.storeSettings.apple(appId);
    assert.equal(opened!.api!.privateKey, apiKey.privateKeyPem);
  });

  it('sets the Google Play settings: answers the service account email, never the key', async () => {
    const res = await svc.admin('PUT', `/apps/${appId}/store-settings/google`, googleBody());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.packageName, 'com.example.game');
    assert.equal(res.body.serviceAccountEmail, account.client_email);
    assert.equal(res.body.serviceAccountSet, true);
    assert.equal(res.body.pushServiceAccountEmail, 'pubsub-push@test-project.iam.gserviceaccount.com');

    const shown = await svc.admin('GET', `/apps/${appId}/store-settings`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.apple.apiKeySet, true);
    assert.equal(shown.body.google.serviceAccountEmail, account.client_email);
    assert.equal(shown.body.notificationUrls.google, `${svc.url}/notify/v1/google/${appId}`);
    for (const s of [...secretsOf(), 'PRIVATE KEY'])
      assert.ok(!JSON.stringify(shown.body).includes(s), 'no secret answered');

    const google = (await rawRows()).find((r) => r.store === 'google')!;
    assert.ok(google.service_account_enc && !google.service_account_enc.includes('service_account'));
    assert.equal(
      svc.services.box.open(google.service_account_enc, `app-store-google-service-account:${appId}`),
      accountJson,
    );
  });

  it('keeps a stored secret when the field is omitted, and removes it on null', async () => {
    const { apiPrivateKey: _k, ...withoutKey } = appleBody();
    const kept = await svc.admin('PUT', `/apps/${appId}/store-settings/apple`, {
      ...withoutKey,
      environment: 'Sandbox',
    });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.deepEqual([kept.body.environment, kept.body.apiKeySet], ['Sandbox', true]);
    assert.equal((await svc.services.storeSettings.apple(appId))!.api!.privateKey, apiKey.privateKeyPem);

    const { serviceAccountJson: _j, ...withoutAccount } = googleBody();
    const keptG = await svc.admin('PUT', `/apps/${appId}/store-settings/google`, withoutAccount);
    assert.deepEqual([keptG.status, keptG.body.serviceAccountEmail], [200, account.client_email]);
    const removed = await svc.admin('PUT', `/apps/${appId}/store-settings/google`, {
      ...withoutAccount,
      serviceAccountJson: null,
    });
    assert.deepEqual(
      [removed.status, removed.body.serviceAccountSet, removed.body.serviceAccountEmail],
      [200, false, null],
    );
    assert.equal((await svc.admin('PUT', `/apps/${appId}/store-settings/google`, googleBody())).status, 200);
    assert.equal((await svc.admin('PUT', `/apps/${appId}/store-settings/apple`, appleBody())).status, 200);
  });

  it('refuses invalid input with 400 INVALID_PARAMETER naming the field, and writes nothing', async () => {
    const other = (await svc.createApp({ name: 'untouched' })).appId;
    const ecOtherCurve = crypto.generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const cases: [string, 'apple' | 'google', Record<string, unknown>, string][] = [
      ['bundle id', 'apple', { ...appleBody(), bundleId: 'game' }, 'bundleId'],
      ['bundle id characters', 'apple', { ...appleBody(), bundleId: 'com.example/game' }, 'bundleId'],
      ['app apple id', 'apple', { ...appleBody(), appAppleId: 0 }, 'appAppleId'],
      ['app apple id in Production', 'apple', { ...appleBody(), appAppleId: null }, 'appAppleId'],
      ['environment', 'apple', { ...appleBody(), environment: 'Xcode' }, 'environment'],
      ['root certificates', 'apple', { ...appleBody(), rootCertificatesPem: 'not a pem' }, 'rootCertificatesPem'],
      [
        'a damaged certificate',
        'apple',
        { ...appleBody(), rootCertificatesPem: APPLE_ROOT.replace(/MII[A-Za-z0-9]{10}/, 'MIIxxxxxxxxxxx') },
        'rootCertificatesPem',
      ],
      [
        'too many certificates',
        'apple',
        { ...appleBody(), rootCertificatesPem: Array(6).fill(APPLE_ROOT).join('\n') },
        'rootCertificatesPem',
      ],
      ['p8 key', 'apple', { ...appleBody(), apiPrivateKey: 'nope' }, 'apiPrivateKey'],
      ['p8 key curve', 'apple', { ...appleBody(), apiPrivateKey: ecOtherCurve }, 'apiPrivateKey'],
      ['issuer id', 'apple', { ...appleBody(), apiIssuerId: 'issuer' }, 'apiIssuerId'],
      ['key without issuer', 'apple', { ...appleBody(), apiIssuerId: null }, 'apiIssuerId'],
      ['NUL in a string', 'apple', { ...appleBody(), bundleId: 'com.example.\u0000game' }, 'bundleId'],
      ['package name', 'google', { ...googleBody(), packageName: '1com.example' }, 'packageName'],
      ['service account JSON', 'google', { ...googleBody(), serviceAccountJson: '{' }, 'serviceAccountJson'],
      [
        'service account type',
        'google',
        { ...googleBody(), serviceAccountJson: JSON.stringify({ ...account, type: 'authorized_user' }) },
        'serviceAccountJson.type',
      ],
      [
        'service account email',
        'google',
        { ...googleBody(), serviceAccountJson: JSON.stringify({ ...account, client_email: 'x' }) },
        'serviceAccountJson.client_email',
      ],
      [
        'service account private key',
        'google',
        { ...googleBody(), serviceAccountJson: JSON.stringify({ ...account, private_key: 'nope' }) },
        'serviceAccountJson.private_key',
      ],
      [
        'service account token_uri',
        'google',
        { ...googleBody(), serviceAccountJson: JSON.stringify({ ...account, token_uri: undefined }) },
        'serviceAccountJson.token_uri',
      ],
      [
        'push service account',
        'google',
        { ...googleBody(), pushServiceAccountEmail: 'nobody' },
        'pushServiceAccountEmail',
      ],
    ];
    for (const [name, store, body, field] of cases) {
      const res = await svc.admin('PUT', `/apps/${other}/store-settings/${store}`, body);
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 40000, name);
      assert.ok(String(res.body.detail).startsWith(`${field}`), `${name}: ${res.body.detail} names ${field}`);
      for (const s of secretsOf()) assert.ok(!JSON.stringify(res.body).includes(s), `${name}: no secret quoted`);
    }
    const shown = await svc.admin('GET', `/apps/${other}/store-settings`);
    assert.deepEqual([shown.body.apple, shown.body.google], [null, null], 'nothing written');
  });

  it('answers 404 for an unknown app', async () => {
    for (const [method, p, body] of [
      ['GET', '/store-settings', undefined],
      ['PUT', '/store-settings/apple', appleBody()],
      ['PUT', '/store-settings/google', googleBody()],
      ['DELETE', '/store-settings/apple', undefined],
    ] as const) {
      const res = await svc.admin(method, `/apps/999999${p}`, body);
      assert.equal(res.status, 404, `${method} ${p}`);
    }
  });

  it('records the writes in the admin audit trail', async () => {
    const actions = await svc.services.adminAudit.list({ method: 'PUT', limit: 100 });
    assert.ok(actions.some((a) => a.path === `/admin/v1/apps/${appId}/store-settings/apple`));
    assert.ok(actions.some((a) => a.path === `/admin/v1/apps/${appId}/store-settings/google`));
  });

  it('master key reseal covers the sealed store settings columns', async () => {
    const counts = await countSealed(svc.services.sealedValues, svc.services.box, STORE_SETTINGS_SEALED_COLUMNS);
    assert.deepEqual(
      counts.map((c) => [c.column, Object.values(c.byKey).reduce((a, b) => a + b, 0), c.unreadable]),
      [
        ['app_store_settings.api_private_key_enc', 1, 0],
        ['app_store_settings.service_account_enc', 1, 0],
      ],
    );
    const results = await resealAll(svc.services.sealedValues, svc.services.box, STORE_SETTINGS_SEALED_COLUMNS);
    assert.deepEqual(
      results.map((r) => [r.column, r.scanned, r.resealed, r.unreadable]),
      [
        ['app_store_settings.api_private_key_enc', 1, 0, 0],
        ['app_store_settings.service_account_enc', 1, 0, 0],
      ],
    );
  });

  it('deletes one store', async () => {
    const del = await svc.admin('DELETE', `/apps/${appId}/store-settings/google`);
    assert.equal(del.status, 204);
    assert.equal((await svc.admin('DELETE', `/apps/${appId}/store-settings/google`)).status, 404);
    const shown = await svc.admin('GET', `/apps/${appId}/store-settings`);
    assert.equal(shown.body.google, null);
    assert.equal(shown.body.apple.bundleId, 'com.example.game');
  });
});

describe(
  'store settings: CLI and the service log',
  { skip: testBackend() !== 'sqlite' && 'CLI runs on SQLite' },
  () => {
    it('sets and shows through the CLI; a running service logs no secret', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-settings-'));
      const env = {
        DATA_DIR: dir,
        MASTER_KEY: crypto.randomBytes(32).toString('base64'),
        ADMIN_TOKEN: crypto.randomBytes(24).toString('base64url'),
        PUBLIC_HOST: 'pay.example.com',
      };
      const created = await runCli(env, ['--json', 'app', 'create', '--name', 'cli store game']);
      assert.equal(created.code, 0, created.stderr);
      const appId = String(JSON.parse(created.stdout).appId);
      const apiKey = await makeApiKey();
      const account = makeServiceAccount('cli-play');
      fs.writeFileSync(path.join(dir, 'key.p8'), apiKey.privateKeyPem);
      fs.writeFileSync(path.join(dir, 'sa.json'), JSON.stringify(account));

      const apple = await runCli(env, [
      'app', 'store-settings', 'set-apple', appId,
      '--bundle-id', 'com.example.cli', '--environment', 'Sandbox',
      '--api-issuer-id', apiKey.issuerId, '--api-key-id', apiKey.keyId,
      '--api-private-key-file', path.join(dir, 'key.p8'),
    ]); // prettier-ignore
      assert.equal(apple.code, 0, apple.stderr);
      assert.match(apple.stdout, /bundleId com\.example\.cli/);
      const google = await runCli(env, [
      'app', 'store-settings', 'set-google', appId,
      '--package-name', 'com.example.cli', '--service-account-file', path.join(dir, 'sa.json'),
    ]); // prettier-ignore
      assert.equal(google.code, 0, google.stderr);
      const bad = await runCli(env, ['app', 'store-settings', 'set-google', appId, '--package-name', 'nodots']);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /packageName/);

      const shown = await runCli(env, ['--json', 'app', 'store-settings', 'show', appId]);
      assert.equal(shown.code, 0, shown.stderr);
      const body = JSON.parse(shown.stdout);
      assert.equal(body.apple.apiKeySet, true);
      assert.equal(body.google.serviceAccountEmail, account.client_email);
      assert.equal(body.notificationUrls.apple, `https://pay.example.com/notify/v1/apple/${appId}`);
      const text = await runCli(env, ['app', 'store-settings', 'show', appId]);
      assert.match(text.stdout, /cli-play@test-project\.iam\.gserviceaccount\.com/);
      for (const out of [apple.stdout, google.stdout, shown.stdout, text.stdout])
        assert.ok(!out.includes('PRIVATE KEY'), 'no secret printed');

      const child = await spawnService({ ...env, LOG_LEVEL: 'debug' });
      try {
        const res = await fetch(`${child.url}/admin/v1/apps/${appId}/store-settings/google`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${env.ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ packageName: 'com.example.cli', serviceAccountJson: JSON.stringify(account) }),
        });
        assert.equal(res.status, 200);
        const got = await fetch(`${child.url}/admin/v1/apps/${appId}/store-settings`, {
          headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` },
        });
        assert.equal(got.status, 200);
        assert.ok(!(await got.text()).includes('PRIVATE KEY'));
        assert.match(child.output(), /store-settings/, 'the requests are logged');
        assert.ok(!child.output().includes('PRIVATE KEY'), 'no secret in the log');
        assert.ok(!child.output().includes(apiKey.privateKeyPem.split('\n')[1]!));
        assert.ok(!child.output().includes(account.private_key.split('\n')[1]!));
      } finally {
        child.process.kill('SIGTERM');
        await child.exited;
      }
    });
  },
);
