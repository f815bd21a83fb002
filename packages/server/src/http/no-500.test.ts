import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestService, type TestService } from '../testing/service.js';

/**
 * Hard to break: every route in the OpenAPI document, fed malformed and
 * random input (bodies, queries, path parameters, headers), never answers a
 * 5xx, and always answers in an error envelope.
 */
describe('no route answers 5xx to bad input', () => {
  let svc: TestService;
  let routes: Array<{ method: string; path: string }>;
  let app: any;
  before(async () => {
    svc = await startTestService({ SANDBOX_LOGIN: 'true', SANDBOX_PAYMENTS: 'true' });
    app = await svc.createApp({ callbackUrls: { default: 'http://127.0.0.1:9/cb' } });
    const doc = (await (await svc.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
    );
    assert.ok(routes.length > 40, `only ${routes.length} routes documented`);
  });
  after(async () => {
    await svc.close();
  });

  const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, encodeURIComponent(value));
  const headersFor = (path: string): Record<string, string> =>
    path.startsWith('/admin/') ? { authorization: `Bearer ${svc.adminToken}` } : {};

  async function call(
    method: string,
    path: string,
    init: { body?: string; query?: string; headers?: Record<string, string> } = {},
  ) {
    const res = await svc.fetch(`${path}${init.query ? `?${init.query}` : ''}`, {
      method,
      headers: {
        ...headersFor(path),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.headers ?? {}),
      } as Record<string, string>,
      ...(init.body !== undefined && method !== 'GET' ? { body: init.body } : {}),
    });
    const text = await res.text();
    const what = `${method} ${path}${init.query ? `?${init.query}` : ''} body=${init.body?.slice(0, 200)} -> ${res.status} ${text.slice(0, 300)}`;
    assert.ok(res.status < 500, what);
    if (res.status >= 400) assertEnvelope(path, text, what);
    return { status: res.status, text };
  }

  /** The platform envelope (`code`, `msg`, `detail`, `data`), or google.rpc.Status under /svc/reporting/ (docs/errors.md). */
  function assertEnvelope(path: string, text: string, what: string): void {
    const body = JSON.parse(text);
    if (path.startsWith('/svc/reporting/')) {
      assert.ok(Number.isInteger(body.code) && typeof body.message === 'string' && Array.isArray(body.details), what);
    } else {
      assert.ok(
        Number.isInteger(body.code) &&
          typeof body.msg === 'string' &&
          typeof body.detail === 'string' &&
          'data' in body,
        what,
      );
    }
  }

  it('survives malformed bodies, odd path parameters and garbage queries on every route', async () => {
    const bodies = [
      '{',
      '[]',
      'null',
      '"x"',
      '123',
      '{"a":',
      '{"__proto__":{}}',
      JSON.stringify({ a: 'x'.repeat(10_000) }),
      '{"appId":99999999999999999999}',
    ];
    const params = ['0', '-1', '99999999999999999999', 'x', '%00', '..%2F..', ' ', 'é'];
    const queries = [
      'clientId=',
      'clientId=x&clientId=y',
      `clientId=${app.clientId}&limit=-5`,
      'a[b]=1',
      '%ZZ',
      'cursor=%FF',
      'since=abc&limit=999999',
    ];
    for (const r of routes) {
      for (const p of params) await call(r.method, fill(r.path, p));
      if (r.method !== 'GET') for (const b of bodies) await call(r.method, fill(r.path, '1'), { body: b });
      for (const q of queries) await call(r.method, fill(r.path, '1'), { query: q });
      await call(r.method, fill(r.path, '1'), {
        headers: { authorization: 'MAC id="x",ts="1",nonce="abcde",mac="!!"' },
      });
    }
  });

  it("answers the router's own refusals (bad percent-encoding, an over-long path parameter) in the envelope", async () => {
    for (const path of [
      '/admin/v1/apps/%E0%A4%A',
      `/admin/v1/apps/${'1'.repeat(201)}`,
      '/svc/reporting/open/v1/player/%E0%A4%A',
    ]) {
      const { status, text } = await call('GET', path);
      assert.equal(status, 400, `${path}: ${text}`);
      const body = JSON.parse(text);
      const detail = body.detail ?? body.message;
      assert.match(detail, /percent-encoding|longer than 200 characters/);
      assert.ok(!detail.includes(path), 'the detail does not echo the path');
    }
  });

  it('survives random JSON bodies on every body-taking route', async () => {
    const posts = routes.filter((r) => r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), fc.jsonValue({ maxDepth: 3 }), async (r, value) => {
        await call(r.method, fill(r.path, '1'), { body: JSON.stringify(value) });
      }),
      { numRuns: 300 },
    );
  });
});
