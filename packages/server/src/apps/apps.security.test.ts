import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestService, type TestService } from '../testing/service.js';

describe('admin API: apps (security)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  it('refuses requests without the right bearer token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-wrong-token-wrong',
      `Basic ${svc.adminToken}`,
      `Bearer ${svc.adminToken}x`,
      'Bearer',
    ]) {
      const res = await svc.fetch('/admin/v1/apps', { headers: authorization ? { authorization } : {} });
      assert.equal(res.status, 401, String(authorization));
      const body = (await res.json()) as any;
      assert.equal(body.code, 40106);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
  });

  it('refuses an unauthenticated create without writing', async () => {
    const res = await svc.fetch('/admin/v1/apps', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'intruder' }),
    });
    assert.equal(res.status, 401);
    assert.equal((await svc.admin('GET', '/apps')).body.apps.length, 0);
  });

  it('stores secrets and private keys encrypted at rest', async () => {
    const app = await svc.createApp();
    const rows = await sql<{ secret_enc: string }>`select secret_enc from apps`.execute(svc.services.database.db);
    assert.ok(rows.rows.every((r) => !r.secret_enc.includes(app.secret)));
    assert.match(rows.rows[0]!.secret_enc, /^v2\.[A-Za-z0-9_-]{11}\./);
    const keys = await sql<{ private_pem_enc: string }>`select private_pem_enc from platform_keys`.execute(
      svc.services.database.db,
    );
    assert.ok(keys.rows.every((k) => !k.private_pem_enc.includes('PRIVATE KEY')));
  });

  it('sets a request id on every answer, taking a well-formed one from the caller', async () => {
    const given = await svc.fetch('/healthz', { headers: { 'x-request-id': 'req-123' } });
    assert.equal(given.headers.get('x-request-id'), 'req-123');
    const forged = await svc.fetch('/healthz', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    assert.match(forged.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
