import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../testing/service.js';
import { runCli } from '../testing/child.js';
import { testBackend } from '../testing/database.js';

const SECRET_KEY = 'sk_test_settingsSECRETvalue123';
const WEBHOOK_SECRET = 'whsec_settingsWEBHOOKsecret456';

/** Per-app provider settings: the admin API, secrets sealed and never answered, validation, the CLI. */
describe('payment provider settings', () => {
  let svc: TestService;
  let app: any;
  before(async () => {
    svc = await startTestService();
    app = await svc.createApp({ name: 'provider settings game' });
  });
  after(async () => {
    await svc?.close();
  });

  const path_ = (p = '') => `/apps/${app.appId}/payment-providers${p}`;

  it('lists each provider with its fields and the webhook URL to paste, none set', async () => {
    const res = await svc.admin('GET', path_());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const stripe = res.body.providers.find((p: any) => p.provider === 'stripe');
    assert.deepEqual(
      [stripe.method, stripe.channel, stripe.defaultRegions, stripe.settings],
      ['card', 6, ['overseas'], null],
    );
    assert.equal(stripe.webhookUrl, `${svc.url}/notify/v1/providers/stripe/${app.appId}`);
    assert.deepEqual(
      stripe.fields.secrets.map((f: any) => [f.name, f.required]),
      [
        ['secretKey', true],
        ['webhookSecret', true],
      ],
    );
  });

  it('refuses bad settings with 400 naming the field, an unknown provider or app with 404, writing nothing', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ secrets: { secretKey: SECRET_KEY } }, 400, /^secrets\.webhookSecret: is required/],
      [{ secrets: { secretKey: 'pk_test_public', webhookSecret: WEBHOOK_SECRET } }, 400, /^secrets\.secretKey: /],
      [{ secrets: { secretKey: SECRET_KEY, webhookSecret: 'nothook' } }, 400, /^secrets\.webhookSecret: /],
      [
        { secrets: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, other: 'x' } },
        400,
        /^secrets\.other: is not a known field/,
      ],
      [
        { config: { accountName: 'x' }, secrets: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET } },
        400,
        /^config\.accountName: is not a known field/,
      ],
      [{ regions: ['mars'] }, 400, /^regions\.0: /],
      [{ regions: [] }, 400, /^regions: /],
    ];
    for (const [body, status, detail] of cases) {
      const res = await svc.admin('PUT', path_('/stripe'), body);
      assert.equal(res.status, status, JSON.stringify([body, res.body]));
      assert.match(res.body.detail, detail);
    }
    assert.equal((await svc.admin('PUT', path_('/paypalx'), {})).status, 404);
    assert.equal((await svc.admin('PUT', '/apps/999999/payment-providers/stripe', {})).status, 404);
    assert.equal((await svc.admin('GET', path_())).body.providers[0].settings, null);
  });

  it('seals the secrets at rest, never answers them, keeps them when omitted, and deletes', async () => {
    const put = await svc.admin('PUT', path_('/stripe'), {
      regions: ['overseas', 'mainland'],
      secrets: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(
      [put.body.enabled, put.body.regions, put.body.secretsSet],
      [true, ['overseas', 'mainland'], ['secretKey', 'webhookSecret']],
    );
    for (const text of [JSON.stringify(put.body), JSON.stringify((await svc.admin('GET', path_())).body)])
      assert.ok(!text.includes(SECRET_KEY) && !text.includes(WEBHOOK_SECRET), 'no secret answered');
    const row = await svc.services.database.db
      .selectFrom('payment_provider_settings')
      .selectAll()
      .where('app_id', '=', app.appId)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(SECRET_KEY), 'sealed at rest');

    const disabled = await svc.admin('PUT', path_('/stripe'), { enabled: false });
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    assert.deepEqual([disabled.body.enabled, disabled.body.secretsSet], [false, ['secretKey', 'webhookSecret']]);
    const opened = await svc.services.paymentProviders.settings.forApp(app.appId, 'stripe');
    assert.equal(opened?.secrets.secretKey, SECRET_KEY, 'kept when omitted');
    assert.deepEqual(await svc.services.paymentProviders.settings.methodsFor(app.appId, 'overseas'), []);

    const removed = await svc.admin('PUT', path_('/stripe'), { secrets: { webhookSecret: null } });
    assert.equal(removed.status, 400, 'a required secret cannot be removed');
    assert.equal((await svc.admin('DELETE', path_('/stripe'))).status, 204);
    assert.equal((await svc.admin('DELETE', path_('/stripe'))).status, 404);
  });

  it(
    'the CLI sets from secret files, shows no secret, and lists provider messages',
    { skip: testBackend() !== 'sqlite' && 'CLI runs on SQLite' },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'providers-cli-'));
      try {
        const env = {
          DATA_DIR: dir,
          MASTER_KEY: crypto.randomBytes(32).toString('base64'),
          ADMIN_TOKEN: crypto.randomBytes(24).toString('base64url'),
        };
        const created = await runCli(env, ['--json', 'app', 'create', '--name', 'cli provider game']);
        assert.equal(created.code, 0, created.stderr);
        const appId = String(JSON.parse(created.stdout).appId);
        fs.writeFileSync(path.join(dir, 'sk'), `${SECRET_KEY}\n`);
        fs.writeFileSync(path.join(dir, 'whsec'), WEBHOOK_SECRET);
        const set = await runCli(env, [
        'app', 'payment-providers', 'set', appId, 'stripe',
        '--secret-file', `secretKey=${path.join(dir, 'sk')}`, '--secret-file', `webhookSecret=${path.join(dir, 'whsec')}`,
      ]); // prettier-ignore
        assert.equal(set.code, 0, set.stderr);
        assert.match(set.stdout, /stripe enabled for overseas players/);
        const shown = await runCli(env, ['--json', 'app', 'payment-providers', 'show', appId]);
        assert.equal(shown.code, 0, shown.stderr);
        assert.ok(!shown.stdout.includes(SECRET_KEY) && !shown.stdout.includes(WEBHOOK_SECRET));
        assert.deepEqual(JSON.parse(shown.stdout).providers[0].settings.secretsSet, ['secretKey', 'webhookSecret']);
        const bad = await runCli(env, ['app', 'payment-providers', 'set', appId, 'stripe', '--regions', 'moon']);
        assert.notEqual(bad.code, 0);
        assert.match(bad.stderr, /regions/);
        const listed = await runCli(env, ['--json', 'app', 'provider-messages', appId, '--outcome', 'refused']);
        assert.equal(listed.code, 0, listed.stderr);
        assert.deepEqual(JSON.parse(listed.stdout).messages, []);
        const deleted = await runCli(env, ['app', 'payment-providers', 'delete', appId, 'stripe']);
        assert.equal(deleted.code, 0, deleted.stderr);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
