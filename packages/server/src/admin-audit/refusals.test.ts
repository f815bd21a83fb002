import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { adminAs, operatorToken } from '../testing/operators.js';
import { mayCall, routeAccess } from '../operators/permissions.js';
import { assertAlertFires, Scrapes } from '../testing/promtool.js';
import { createDeveloper, portalSessionOf } from '../testing/portal/portal.js';

/**
 * Refused admin and portal requests leave a trace (docs/operations.md, "Refusals"): each is recorded in the audit
 * trail with the caller as far as known, within a bound (AUDIT_REFUSALS_PER_MINUTE a minute per instance, a quarter
 * of it per IP), and every one is counted in audit_refusals_total, those over the bound in
 * audit_refusals_dropped_total.
 */
describe('refusals in the audit trail', () => {
  let svc: TestService;
  let offset = 0;
  const now = () => Date.now() + offset;
  before(async () => {
    // 12 a minute, 3 from one IP; the loopback peer is a trusted proxy so X-Forwarded-For names other callers.
    svc = await startTestService(
      { AUDIT_REFUSALS_PER_MINUTE: '12', TRUSTED_PROXIES: '127.0.0.1' },
      { now, dispatcher: false },
    );
  });
  after(async () => {
    await svc?.close();
  });

  const trail = async () => (await svc.admin('GET', '/admin-actions?limit=200')).body.actions as any[];
  const counter = async (series: string) => {
    const text = await svc.metrics();
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };

  it('a 403 walk by a support token over the admin routes: bounded entries naming the caller, every refusal counted', async () => {
    const token = await operatorToken(svc, 'sam', 'support');
    const doc = (await (await svc.fetch('/openapi.json')).json()) as any;
    const writes = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/admin/v1/'))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), url: p })))
      .filter((r) => !mayCall('support', routeAccess(r.method, r.url.replace(/\{(\w+)\}/g, ':$1'))));
    assert.ok(writes.length >= 30, `routes support may not call: ${writes.length}`);

    const scrapes = new Scrapes();
    scrapes.add(await svc.metrics());
    const before = await trail();
    for (const r of writes) {
      const path = r.url.replace('/admin/v1', '').replace(/\{(\w+)\}/g, '1');
      const res = await adminAs(
        svc,
        token,
        r.method,
        path,
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      assert.equal(res.status, 403, `${r.method} ${r.url}`);
    }
    scrapes.add(await svc.metrics());
    const forbidden = (await trail()).filter(
      (a) => a.event === 'forbidden' && !before.some((b) => b.actionId === a.actionId),
    );
    assert.equal(forbidden.length, 3, 'a quarter of the bound from one IP');
    for (const a of forbidden) {
      assert.equal(a.operator, 'sam', 'the caller is named');
      assert.equal(a.status, 403);
      assert.equal(a.ip, '127.0.0.1');
      assert.match(a.note, /^the role support lacks \S+/);
    }
    assert.equal(await counter('audit_refusals_total{area="admin",event="forbidden"}'), writes.length);
    assert.equal(await counter('audit_refusals_dropped_total{area="admin"}'), writes.length - 3);

    // Another caller is still heard while the first floods; the minute's total stays bounded across callers.
    const noToken = async (ip: string) =>
      (await svc.fetch('/admin/v1/apps', { method: 'POST', headers: { 'x-forwarded-for': ip } })).status;
    for (let i = 0; i < 20; i++) assert.equal(await noToken(`203.0.113.${i}`), 401);
    const refused = (await trail()).filter((a) => a.event === 'refused');
    assert.equal(refused.length, 12 - 3, 'the rest of the minute: 12 in all');
    assert.deepEqual(refused.map((a) => [a.operator, a.note, a.status]).slice(0, 1), [
      ['(unknown)', 'no credentials', 401],
    ]);
    assert.ok(refused.every((a) => /^203\.0\.113\.\d+$/.test(a.ip)));

    // A new minute: recorded again.
    offset += 61_000;
    assert.equal(await noToken('198.51.100.7'), 401);
    assert.equal((await trail()).filter((a) => a.event === 'refused' && a.ip === '198.51.100.7').length, 1);

    scrapes.add(await svc.metrics());
    assertAlertFires({ alert: 'AuditRefusalsDropped', scrapes });
  });

  it('records portal refusals: no session, and a developer reaching for another studio app (answered 404)', async () => {
    const mine = await svc.createApp({ name: 'mine' });
    const theirs = await svc.createApp({ name: 'theirs' });
    offset += 61_000;
    const dev = await createDeveloper(svc, 'devon', [Number(mine.appId)]);
    const session = await portalSessionOf(svc, dev, now());
    const other = await svc.fetch(`/portal/v1/apps/${theirs.appId}`, {
      headers: { cookie: `gp_studio_session=${session.cookie}` },
    });
    assert.equal(other.status, 404);
    const anonymous = await svc.fetch('/portal/v1/apps');
    assert.equal(anonymous.status, 401);
    const entries = (await trail()).filter((a) => a.event === 'portal-refused');
    assert.deepEqual(
      entries.slice(0, 2).map((a) => [a.operator, a.status, a.note]),
      [
        ['(unknown)', 401, 'no portal session cookie'],
        ['studio:devon', 404, `app ${theirs.appId} is not one of the developer's`],
      ],
    );
    assert.equal(await counter('audit_refusals_total{area="portal",event="portal-refused"}'), 2);
  });
});
