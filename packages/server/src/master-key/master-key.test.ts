import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { masterKeyId } from '../crypto/secret-box.js';
import { freshDatabase, reopenDatabase } from '../testing/database.js';
import { startTestService, type TestService } from '../testing/service.js';
import { guestLogin, profile, type Login } from '../testing/accounts/accounts.js';
import {
  createGame,
  getUploadUrl,
  postReport,
  reportBody,
  uploadEvidence,
  type GameApp,
} from '../testing/reporting/reporting.js';
import { countSealed, resealAll } from './reseal.js';
import { SEALED_COLUMNS } from './sealed-columns.js';
import { makeApiKey } from '../testing/apple-fixture.js';
import { makeServiceAccount } from '../testing/google-fixture.js';
import { createOperator } from '../testing/operators.js';
import { createDeveloper } from '../testing/portal/portal.js';

/**
 * Master key rotation on the suite's backend: the same database opened by a
 * service under key A, then under B with A as previous, then under B alone,
 * over real HTTP each time. What was sealed under A (the app's md5 secret,
 * a login's MAC key, the platform private key) and what was signed under A
 * (an evidence address, an upload URL) keeps working, and so do the store settings' .p8 key and service account
 * (app_store_settings) and an operator's TOTP secret through the rotation.
 */
const STRIPE_KEY = 'sk_test_masterkeyrotation';

describe('master key rotation', () => {
  const keyA = crypto.randomBytes(32).toString('base64');
  const keyB = crypto.randomBytes(32).toString('base64');
  const idA = masterKeyId(Buffer.from(keyA, 'base64'));
  const idB = masterKeyId(Buffer.from(keyB, 'base64'));
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let game: GameApp;
  let login: Login;
  let evidenceUri: string;
  let pendingUpload: string;
  let totpSecret: string;
  let devTotpSecret: string;
  let apiKey: Awaited<ReturnType<typeof makeApiKey>>;
  const account = makeServiceAccount();

  const start = (env: Record<string, string>) =>
    startTestService(env, { storage: { database: reopenDatabase(fresh), dataDir: fresh.dataDir }, dispatcher: false });
  const counts = async (svc: TestService) =>
    Object.fromEntries(
      (await countSealed(svc.services.sealedValues, svc.services.box, SEALED_COLUMNS)).map((c) => [
        c.column,
        { ...c.byKey, ...(c.unreadable ? { unreadable: c.unreadable } : {}) },
      ]),
    );
  const works = async (svc: TestService) => {
    assert.equal((await profile(svc, game.clientId, login)).status, 200, 'the MAC key opens');
    assert.equal(
      (await getUploadUrl(svc, game, { file_name: 'a.png', file_size: '10' })).status,
      200,
      'the md5 secret opens',
    );
    assert.match(
      (await svc.services.keys.signCall({ method: 'POST', path: '/cb', body: '{}' })).Signature ?? '',
      /^[A-Za-z0-9+/=]{300,}$/,
      'the platform key opens',
    );
    assert.equal((await svc.services.storeSettings.apple(game.appId))?.api?.privateKey, apiKey.privateKeyPem);
    assert.equal((await svc.services.storeSettings.google(game.appId))?.serviceAccountJson, JSON.stringify(account));
    assert.equal(
      (await svc.services.paymentProviders.settings.forApp(game.appId, 'stripe'))?.secrets.secretKey,
      STRIPE_KEY,
      'the Stripe key opens',
    );
    const op = (await svc.services.operators.people.repo.byName('platform', 'ops'))!;
    assert.equal(svc.services.box.open(op.totp_secret_enc, 'operator-totp:ops'), totpSecret, 'the TOTP secret opens');
    const dev = (await svc.services.studioDevelopers.people.repo.byName('studio', 'studio-dev'))!;
    assert.equal(
      svc.services.box.open(dev.totp_secret_enc, 'studio-totp:studio-dev'),
      devTotpSecret,
      'studio TOTP opens',
    );
  };

  before(async () => {
    fresh = await freshDatabase();
  });
  after(async () => {
    await fresh.database.close();
  });

  it('under key A: an app, a login, an uploaded file and an upload URL not used yet', async () => {
    const svc = await start({ MASTER_KEY: keyA });
    try {
      game = await createGame(svc);
      apiKey = await makeApiKey();
      const apple = await svc.admin('PUT', `/apps/${game.appId}/store-settings/apple`, {
        bundleId: 'com.example.game',
        environment: 'Sandbox',
        apiIssuerId: apiKey.issuerId,
        apiKeyId: apiKey.keyId,
        apiPrivateKey: apiKey.privateKeyPem,
      });
      assert.equal(apple.status, 200, JSON.stringify(apple.body));
      const google = await svc.admin('PUT', `/apps/${game.appId}/store-settings/google`, {
        packageName: 'com.example.game',
        serviceAccountJson: JSON.stringify(account),
      });
      assert.equal(google.status, 200, JSON.stringify(google.body));
      const stripe = await svc.admin('PUT', `/apps/${game.appId}/payment-providers/stripe`, {
        secrets: { secretKey: STRIPE_KEY, webhookSecret: 'whsec_master' },
      });
      assert.equal(stripe.status, 200, JSON.stringify(stripe.body));
      totpSecret = (await createOperator(svc, 'ops', 'operator')).totpSecret;
      devTotpSecret = (await createDeveloper(svc, 'studio-dev', [game.appId])).totpSecret;
      login = await guestLogin(svc, game.clientId);
      evidenceUri = (await uploadEvidence(svc, game, crypto.randomBytes(64))).uri;
      const issued = await getUploadUrl(svc, game, { file_name: 'late.png', file_size: '32' });
      pendingUpload = new URL(issued.body.signed_url).pathname + new URL(issued.body.signed_url).search;
      await works(svc);
      assert.deepEqual(await counts(svc), {
        'apps.secret_enc': { [idA]: 1 },
        'apps.previous_secret_enc': {},
        'tokens.mac_key_enc': { [idA]: 1 },
        'platform_keys.private_pem_enc': { [idA]: 1 },
        'app_store_settings.api_private_key_enc': { [idA]: 1 },
        'app_store_settings.service_account_enc': { [idA]: 1 },
        'people.totp_secret_enc': { [idA]: 2 },
        'person_invitations.pending_totp_enc': {},
        'payment_provider_settings.secrets_enc': { [idA]: 1 },
      });
    } finally {
      await svc.close();
    }
  });

  it('under B with A previous: everything of A still works, new values are sealed under B, and reseal moves the rest', async () => {
    const svc = await start({ MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA });
    try {
      assert.deepEqual(svc.services.box.keyIds, [idB, idA]);
      await works(svc);
      const late = await fetch(svc.url + pendingUpload, {
        method: 'PUT',
        body: crypto.randomBytes(32),
        headers: { 'content-type': 'application/octet-stream' },
      });
      assert.equal(late.status, 200, 'an upload URL signed under A is still good');
      const reported = await postReport(
        svc,
        game,
        reportBody(game, { evidence: [{ name: 'clip.png', size_byte: 64, uri: evidenceUri }] }),
      );
      assert.equal(reported.status, 200, JSON.stringify(reported.body));
      const second = await guestLogin(svc, game.clientId);
      assert.equal((await profile(svc, game.clientId, second)).status, 200);
      assert.deepEqual((await counts(svc))['tokens.mac_key_enc'], { [idA]: 1, [idB]: 1 });

      const results = await resealAll(svc.services.sealedValues, svc.services.box, SEALED_COLUMNS);
      assert.deepEqual(
        results.map((r) => [r.column, r.scanned, r.resealed, r.unreadable]),
        [
          ['apps.secret_enc', 1, 1, 0],
          ['apps.previous_secret_enc', 0, 0, 0],
          ['tokens.mac_key_enc', 2, 1, 0],
          ['platform_keys.private_pem_enc', 1, 1, 0],
          ['app_store_settings.api_private_key_enc', 1, 1, 0],
          ['app_store_settings.service_account_enc', 1, 1, 0],
          ['people.totp_secret_enc', 2, 2, 0],
          ['person_invitations.pending_totp_enc', 0, 0, 0],
          ['payment_provider_settings.secrets_enc', 1, 1, 0],
        ],
      );
      assert.deepEqual(await counts(svc), {
        'apps.secret_enc': { [idB]: 1 },
        'apps.previous_secret_enc': {},
        'tokens.mac_key_enc': { [idB]: 2 },
        'platform_keys.private_pem_enc': { [idB]: 1 },
        'app_store_settings.api_private_key_enc': { [idB]: 1 },
        'app_store_settings.service_account_enc': { [idB]: 1 },
        'people.totp_secret_enc': { [idB]: 2 },
        'person_invitations.pending_totp_enc': {},
        'payment_provider_settings.secrets_enc': { [idB]: 1 },
      });
      assert.ok(
        (await resealAll(svc.services.sealedValues, svc.services.box, SEALED_COLUMNS)).every((r) => r.resealed === 0),
        'idempotent',
      );
      await works(svc);
    } finally {
      await svc.close();
    }
  });

  it('under B alone after the reseal: everything works', async () => {
    const svc = await start({ MASTER_KEY: keyB });
    try {
      await works(svc);
    } finally {
      await svc.close();
    }
  });

  it('a service given only a key that seals nothing refuses to start, naming the missing key', async () => {
    const database = reopenDatabase(fresh);
    await assert.rejects(
      startTestService({ MASTER_KEY: keyA }, { storage: { database, dataDir: fresh.dataDir }, dispatcher: false }),
      (err: Error) => err.message.includes(idB) && /MASTER_KEY_PREVIOUS/.test(err.message),
    );
    await database.close();
  });

  it('a rotated app secret is sealed under the current key and its grace secret still opens', async () => {
    const svc = await start({ MASTER_KEY: keyA, MASTER_KEY_PREVIOUS: keyB });
    try {
      const rotated = await svc.admin('POST', `/apps/${game.appId}/rotate-secret`);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.equal(
        (await getUploadUrl(svc, game, { file_name: 'a.png', file_size: '10' })).status,
        200,
        'the previous secret, within its grace period',
      );
      assert.equal(
        (await getUploadUrl(svc, { ...game, secret: rotated.body.secret }, { file_name: 'a.png', file_size: '10' }))
          .status,
        200,
      );
      const c = await counts(svc);
      assert.deepEqual([c['apps.secret_enc'], c['apps.previous_secret_enc']], [{ [idA]: 1 }, { [idB]: 1 }]);
    } finally {
      await svc.close();
    }
  });
});
