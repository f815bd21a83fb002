import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';

/**
 * Schemas compile on first use (schema-compilers.ts), so a schema Ajv or fast-json-stringify refuses would only fail
 * the first request that needs it. This compiles every route's schemas at once, and checks that validation errors and
 * shared serializers still answer as before through the lazy wrappers.
 */
describe('schema compilers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ SANDBOX_LOGIN: 'true', SANDBOX_PAYMENTS: 'true' });
  });
  after(async () => {
    await svc.close();
  });

  it('compiles every route schema', () => {
    const count = svc.app.compileSchemas();
    // Request schemas of every route and one serializer per distinct response schema: hundreds, not thousands.
    assert.ok(count > 200, `only ${count} schemas`);
    assert.ok(count < 1500, `${count} schemas: response serializers are no longer shared`);
    assert.equal(svc.app.compileSchemas(), count, 'compiling again adds nothing');
  });

  it('answers a validation failure with what the validator found', async () => {
    const res = await svc.fetch('/api/account/v1/user/profile');
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: number; detail: string };
    assert.match(body.detail, /clientId/);
  });

  it('serializes a response through a shared serializer', async () => {
    const first = await svc.fetch('/admin/v1/apps/999999', { headers: { authorization: `Bearer ${svc.adminToken}` } });
    const second = await svc.fetch('/admin/v1/apps/999998', { headers: { authorization: `Bearer ${svc.adminToken}` } });
    assert.equal(first.status, 404);
    assert.equal(second.status, 404);
    const [a, b] = [(await first.json()) as Record<string, unknown>, (await second.json()) as Record<string, unknown>];
    assert.deepEqual(Object.keys(a).sort(), ['code', 'data', 'detail', 'msg']);
    assert.deepEqual(Object.keys(b).sort(), ['code', 'data', 'detail', 'msg']);
  });
});
