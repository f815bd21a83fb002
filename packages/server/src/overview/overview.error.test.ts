import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { operatorToken } from '../testing/operators.js';

/** GET /admin/v1/overview refuses a window it would not read fast, in the documented envelope, and is not public. */
describe('overview errors', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({}, { dispatcher: false });
  });
  after(async () => {
    await svc.close();
  });

  for (const [what, q] of [
    ['from after to', 'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z'],
    ['an empty window', 'from=1000&to=1000'],
    ['more than 31 days', 'from=2026-01-01T00:00:00Z&to=2026-02-02T00:00:01Z'],
    ['a bad time', 'from=yesterday'],
    ['a bad app id', 'appId=abc'],
    ['an unknown parameter', 'state=dead'],
  ])
    it(`answers 400 for ${what}`, async () => {
      const res = await svc.admin('GET', `/overview?${q}`);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 40000);
    });

  it('answers an empty overview for a window without traffic, and the default window', async () => {
    const res = await svc.admin('GET', '/overview?from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z');
    assert.equal(res.status, 200);
    assert.deepEqual(
      { ...res.body, openReports: [] },
      {
        from: '2020-01-01T00:00:00.000Z',
        to: '2020-01-02T00:00:00.000Z',
        appId: null,
        notifications: [],
        latency: [],
        failureReasons: [],
        commerce: [],
        gameCallFailures: [],
        openReports: [],
      },
    );
    const dflt = await svc.admin('GET', '/overview');
    assert.equal(dflt.status, 200);
    assert.equal(Date.parse(dflt.body.to) - Date.parse(dflt.body.from), 86_400_000);
  });

  it('needs a sign-in, and overview.read (a moderator is refused)', async () => {
    assert.equal((await svc.fetch('/admin/v1/overview')).status, 401);
    const moderator = await operatorToken(svc, 'ov-mod', 'moderator');
    const refused = await svc.fetch('/admin/v1/overview', { headers: { authorization: `Bearer ${moderator}` } });
    assert.equal(refused.status, 403);
    const support = await operatorToken(svc, 'ov-support', 'support');
    const ok = await svc.fetch('/admin/v1/overview', { headers: { authorization: `Bearer ${support}` } });
    assert.equal(ok.status, 200);
  });
});
