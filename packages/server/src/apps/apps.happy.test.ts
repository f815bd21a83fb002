import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';

describe('admin API: apps (happy paths)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  it('creates an app and answers its ids and secret once', async () => {
    const res = await svc.admin('POST', '/apps', {
      name: 'Dragon Saga',
      region: 'mainland',
      callbackUrls: {
        default: 'https://game.example/pay/callback',
        review: 'https://review.game.example/pay/callback',
      },
      roleQueryUrl: 'https://game.example/role',
      roleListUrl: 'https://game.example/roles',
      preOrderCheckUrl: 'https://game.example/pre-order',
      cancellationCallbackUrl: 'https://game.example/cancel',
      partnerUrl: 'https://partner.example/consume',
      allowedIps: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'],
      unionIdEnabled: true,
    });
    assert.equal(res.status, 201);
    const app = res.body;
    assert.equal(typeof app.appId, 'number');
    assert.match(app.clientId, /^[0-9a-f]{24}$/);
    assert.ok(app.secret.length >= 32, 'secret has at least 32 characters');
    assert.equal(app.region, 'mainland');
    assert.deepEqual(app.callbackUrls, {
      default: 'https://game.example/pay/callback',
      review: 'https://review.game.example/pay/callback',
    });
    assert.deepEqual(app.allowedIps, ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32']);
    assert.equal(app.unionIdEnabled, true);
    assert.equal(app.status, 'active');
    assert.equal(app.previousSecretExpiresAt, null);

    const shown = await svc.admin('GET', `/apps/${app.appId}`);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.secret, undefined, 'the secret is never shown again');
    assert.equal(shown.body.clientId, app.clientId);
  });

  it('defaults the region to REGION and the optional fields to empty', async () => {
    const app = await svc.createApp({ name: 'minimal' });
    assert.equal(app.region, 'overseas');
    assert.deepEqual(app.callbackUrls, {});
    assert.deepEqual(app.allowedIps, []);
    assert.equal(app.roleQueryUrl, null);
    assert.equal(app.unionIdEnabled, false);
  });

  it('lists apps', async () => {
    const a = await svc.createApp({ name: 'listed' });
    const res = await svc.admin('GET', '/apps');
    assert.equal(res.status, 200);
    assert.ok(res.body.apps.some((x: any) => x.appId === a.appId));
    assert.ok(res.body.apps.every((x: any) => x.secret === undefined));
  });

  it('patches an app, leaving other fields alone', async () => {
    const a = await svc.createApp({ name: 'before', roleQueryUrl: 'http://game.example/role' });
    const res = await svc.admin('PATCH', `/apps/${a.appId}`, {
      name: 'after',
      callbackUrls: { default: 'http://game.example/cb' },
      roleListUrl: null,
      status: 'disabled',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'after');
    assert.equal(res.body.status, 'disabled');
    assert.equal(res.body.roleQueryUrl, 'http://game.example/role');
    assert.deepEqual(res.body.callbackUrls, { default: 'http://game.example/cb' });
    assert.equal((await svc.admin('GET', `/apps/${a.appId}`)).body.name, 'after');
  });

  it('rotates the secret; the previous one stays valid for the grace period', async () => {
    const a = await svc.createApp({ name: 'rotating' });
    const res = await svc.admin('POST', `/apps/${a.appId}/rotate-secret`);
    assert.equal(res.status, 200);
    assert.notEqual(res.body.secret, a.secret);
    assert.ok(Date.parse(res.body.previousSecretExpiresAt) > Date.now() + 86_000_000);
    const record = await svc.services.apps.resolveByClientId(a.clientId);
    assert.deepEqual(record?.secrets, [res.body.secret, a.secret]);
  });

  it('publishes the platform public key with its key id', async () => {
    const res = await svc.admin('GET', '/platform-keys');
    assert.equal(res.status, 200);
    assert.equal(res.body.keys.length, 1);
    const [key] = res.body.keys;
    assert.match(key.kid, /^pk_\d{8}_[0-9a-f]{8}$/);
    assert.equal(key.status, 'signing');
    assert.match(key.publicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
  });
});
