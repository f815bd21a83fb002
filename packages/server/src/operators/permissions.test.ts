import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { adminAs, operatorToken } from '../testing/operators.js';
import { ROLES, ROLE_PERMISSIONS, ROUTE_PERMISSIONS, mayCall, routeAccess, type Role } from './permissions.js';

/**
 * The permission table against the service: every admin route in the OpenAPI document is in ROUTE_PERMISSIONS
 * (operators/permissions.ts) and shows it as x-permission, and each role's token gets exactly the answers the table
 * says: 403 OPERATOR_FORBIDDEN in the admin envelope when refused, anything else when allowed.
 */
describe('permission table', () => {
  let svc: TestService;
  const tokens = {} as Record<Role, string>;
  let routes: { method: string; url: string; xPermission: unknown; security: unknown }[];
  before(async () => {
    // The sandbox channels add their admin routes.
    svc = await startTestService({ SANDBOX_PAYMENTS: 'true', SANDBOX_LOGIN: 'true' }, { dispatcher: false });
    for (const role of ROLES) tokens[role] = await operatorToken(svc, `walk-${role}`, role);
    const doc = (await (await svc.fetch('/openapi.json')).json()) as any;
    routes = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([p]) => p.startsWith('/admin/v1/'))
      .flatMap(([p, ops]) =>
        Object.entries(ops).map(([method, op]) => ({
          method: method.toUpperCase(),
          url: p.replace(/\{(\w+)\}/g, ':$1'),
          xPermission: op['x-permission'],
          security: op.security,
        })),
      );
  });
  after(async () => {
    await svc.close();
  });

  it('names every admin route, and only routes that exist', () => {
    assert.ok(routes.length > 50, `admin routes found: ${routes.length}`);
    const undeclared = routes
      .filter((r) => routeAccess(r.method, r.url) === undefined)
      .map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(
      undeclared,
      [],
      `admin routes missing from ROUTE_PERMISSIONS (operators/permissions.ts); until declared they are admin-only: ${undeclared.join(', ')}`,
    );
    const known = new Set(routes.map((r) => `${r.method} ${r.url}`));
    const stale = Object.keys(ROUTE_PERMISSIONS).filter((k) => !known.has(k));
    assert.deepEqual(stale, [], 'ROUTE_PERMISSIONS names routes that do not exist');
    for (const r of routes)
      assert.equal(r.xPermission, routeAccess(r.method, r.url), `x-permission of ${r.method} ${r.url}`);
  });

  it('leaves an undeclared route to admins only, and never gives support a write', () => {
    assert.deepEqual(
      ROLES.filter((role) => mayCall(role, undefined)),
      ['admin'],
    );
    assert.deepEqual(
      ROLE_PERMISSIONS.support.filter((p) => !p.endsWith('.read')),
      [],
    );
  });

  it('answers every role on every admin route as the table says', async () => {
    const params: Record<string, string> = { store: 'apple', kid: 'no-such-kid', name: 'nobody', trxNo: '999999' };
    const mismatches: string[] = [];
    for (const r of routes) {
      const access = routeAccess(r.method, r.url)!;
      const path = r.url.replace('/admin/v1', '').replace(/:(\w+)/g, (_, p: string) => params[p] ?? '999999');
      for (const role of ROLES) {
        const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
        const res = await adminAs(svc, tokens[role], r.method, path, body);
        const refused = res.status === 403 && res.body?.code === 40303;
        const expected = !mayCall(role, access);
        if (res.status >= 500) mismatches.push(`${role} ${r.method} ${r.url}: ${res.status}`);
        else if (refused !== expected)
          mismatches.push(
            `${role} ${r.method} ${r.url} (${access}): ${expected ? 'should be refused' : 'refused'} (${res.status})`,
          );
        if (refused) assert.deepEqual(res.body.data, { permission: access, role });
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('answers support no secret on any read', async () => {
    const app = await svc.createApp({ name: 'secretive' });
    for (const r of routes.filter((x) => x.method === 'GET')) {
      const path = r.url
        .replace('/admin/v1', '')
        .replace(':appId', String(app.appId))
        .replace(/:(\w+)/g, '999999');
      const res = await adminAs(svc, tokens.support, 'GET', path);
      assert.ok(!JSON.stringify(res.body ?? '').includes(app.secret), `${r.url} answered the app secret`);
    }
  });
});
