import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../testing/service.js';
import { SANDBOX } from '../../testing/orders/orders.js';

/** GET /admin/v1/apps/{appId}/refund-abuse refuses bad filters (400 naming them, before the app), an unknown app (404). */
describe('refund abuse: refusals', () => {
  let svc: TestService;
  let app: any;
  before(async () => {
    svc = await startTestService(SANDBOX, { dispatcher: false });
    app = await svc.createApp({ name: 'refusals' });
  });
  after(async () => {
    await svc?.close();
  });

  const cursorOf = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

  it('refuses every bad filter with 400 naming it', async () => {
    const cases: Array<[string, RegExp]> = [
      ['from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', /^from: must be before to/],
      ['from=1000&to=1000', /^from: must be before to/],
      ['from=0&to=31708800001', /^from: the window is at most 366 days/],
      ['from=yesterday', /^from: /],
      ['to=2026-13-45T99:00:00Z', /^to: must be an ISO 8601/],
      ['to=99999999999999999', /^to: /],
      ['currency=usd', /^currency: /],
      ['currency=XXX', /^currency: must be an ISO 4217 currency/],
      ['currency=US', /^currency: /],
      ['limit=0', /^limit: must be 1-200/],
      ['limit=201', /^limit: must be 1-200/],
      ['limit=ten', /^limit: /],
      ['limit=-1', /^limit: /],
      ['cursor=not-a-cursor', /^cursor: is not a nextCursor of this list/],
      [`cursor=${cursorOf({ n: 1 })}`, /^cursor: is not a nextCursor/],
      [`cursor=${cursorOf({ n: 1.5, a: 1, u: '1' })}`, /^cursor: is not a nextCursor/],
      [`cursor=${cursorOf({ n: 1, a: 'x', u: '1' })}`, /^cursor: is not a nextCursor/],
      [`cursor=${cursorOf({ n: 1, a: 1, u: 'a\u0000b' })}`, /^cursor: is not a nextCursor/],
      [`cursor=${cursorOf({ n: 1, a: 1, u: '\ud800' })}`, /^cursor: is not a nextCursor/],
      [`cursor=${cursorOf({ n: 1, a: 1, u: 'x'.repeat(65) })}`, /^cursor: is not a nextCursor/],
      ['cursor=a%2Bb', /^cursor: /],
      ['userId=1', /userId/],
      ['from=1&from=2', /^from: /],
    ];
    for (const [query, detail] of cases) {
      const res = await svc.admin('GET', `/apps/${app.appId}/refund-abuse?${query}`);
      assert.deepEqual([res.status, res.body.code], [400, 40000], `${query}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, detail, query);
      // The same filter against an app that does not exist: still 400, validation does not depend on the app.
      assert.equal((await svc.admin('GET', `/apps/999999/refund-abuse?${query}`)).status, 400, query);
    }
  });

  it('answers an unknown app with 404 and a malformed app id with 400', async () => {
    const unknown = await svc.admin('GET', '/apps/999999/refund-abuse');
    assert.deepEqual([unknown.status, unknown.body.code], [404, 40400]);
    assert.match(unknown.body.detail, /999999/);
    for (const id of ['abc', '-1', '1.5', '9999999999999999']) {
      const res = await svc.admin('GET', `/apps/${id}/refund-abuse`);
      assert.deepEqual([res.status, res.body.code], [400, 40000], id);
    }
  });

  it('answers an empty page for an app without refunds and for a cursor past the end', async () => {
    const empty = await svc.admin('GET', `/apps/${app.appId}/refund-abuse`);
    assert.deepEqual([empty.status, empty.body.refunders, empty.body.nextCursor], [200, [], null]);
    const past = await svc.admin('GET', `/apps/${app.appId}/refund-abuse?cursor=${cursorOf({ n: 0, a: 0, u: '' })}`);
    assert.deepEqual([past.status, past.body.refunders, past.body.nextCursor], [200, [], null]);
  });
});
