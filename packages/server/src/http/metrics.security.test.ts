import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';

/** /metrics names game hosts and app ids: METRICS_TOKEN and METRICS_PORT keep it from the public (docs/operations.md). */
describe('/metrics protection', () => {
  const services: TestService[] = [];
  after(async () => {
    for (const s of services) await s.close();
  });
  const TOKEN = 'scrape-token-0123456789abcdef';

  it('by default (no METRICS_TOKEN, METRICS_PORT or METRICS_PUBLIC) /metrics is closed: 401 for everyone', async () => {
    const svc = await startTestService({ METRICS_TOKEN: '' });
    services.push(svc);
    assert.equal(svc.config.METRICS_TOKEN, undefined);
    for (const headers of [{}, { authorization: 'Bearer anything-at-all-0123456789' }]) {
      const res = await svc.fetch('/metrics', { headers });
      assert.equal(res.status, 401);
      const body = (await res.json()) as { code: number; detail: string };
      assert.equal(body.code, 40160);
      assert.match(body.detail, /METRICS_PUBLIC=true/);
      assert.doesNotMatch(JSON.stringify(body), /delivery_|http_request/);
    }
  });

  it('METRICS_PUBLIC=true opens /metrics on the main port; a METRICS_TOKEN still wins over it', async () => {
    const open = await startTestService({ METRICS_TOKEN: '', METRICS_PUBLIC: 'true' });
    const both = await startTestService({ METRICS_TOKEN: TOKEN, METRICS_PUBLIC: 'true' });
    services.push(open, both);
    const res = await open.fetch('/metrics');
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^# TYPE delivery_queue_events gauge$/m);
    const refused = await both.fetch('/metrics');
    assert.equal(refused.status, 401);
    await refused.arrayBuffer();
  });

  it('METRICS_PORT binds loopback unless METRICS_HOST says otherwise', async () => {
    const svc = await startTestService({ METRICS_PORT: '0', METRICS_TOKEN: '' });
    services.push(svc);
    assert.equal(new URL(svc.app.metricsUrl()!).hostname, '127.0.0.1');
    assert.equal(
      (await fetch(`${svc.app.metricsUrl()}/metrics`)).status,
      200,
      'no token set: the loopback port serves it',
    );
  });

  it('with METRICS_TOKEN: 401 without the bearer token or with a wrong one, 200 with it', async () => {
    const svc = await startTestService({ METRICS_TOKEN: TOKEN });
    services.push(svc);
    const none = await svc.fetch('/metrics');
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    const body = (await none.json()) as { code: number };
    assert.equal(body.code, 40160);
    assert.doesNotMatch(JSON.stringify(body), /delivery_|http_request/);
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const wrong = await svc.fetch('/metrics', { headers: { authorization } });
      assert.equal(wrong.status, 401, authorization);
      await wrong.arrayBuffer();
    }
    const ok = await svc.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /^# TYPE delivery_queue_events gauge$/m);
    assert.equal((await svc.fetch('/healthz')).status, 200, 'the other routes need no metrics token');
  });

  it('with METRICS_PORT: /metrics only there, alone; the main port answers it 404; the token applies there too', async () => {
    const svc = await startTestService({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', METRICS_TOKEN: TOKEN });
    services.push(svc);
    const main = await svc.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(main.status, 404, 'the main port no longer serves /metrics');
    await main.arrayBuffer();
    const url = svc.app.metricsUrl();
    assert.ok(url, 'the metrics listener is up');
    assert.notEqual(new URL(url).port, new URL(svc.url).port);
    const scrape = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(scrape.status, 200);
    const text = await scrape.text();
    assert.match(text, /^# TYPE http_request_duration_seconds histogram$/m);
    // The main port's traffic is what it reports.
    assert.match(text, /http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/);
    assert.equal((await fetch(`${url}/metrics`)).status, 401, 'the token is asked there too');
    for (const path of ['/healthz', '/admin/v1/apps', '/', '/metrics/x']) {
      const other = await fetch(`${url}${path}`);
      assert.equal(other.status, 404, `${path} is not served on the metrics port`);
      await other.arrayBuffer();
    }
    const post = await fetch(`${url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(post.status, 405);
  });

  it('refuses a METRICS_PORT already taken: the service does not start', async () => {
    const first = await startTestService({ METRICS_PORT: '0' });
    services.push(first);
    const taken = new URL(first.app.metricsUrl()!).port;
    await assert.rejects(startTestService({ METRICS_PORT: taken }), /EADDRINUSE/);
  });
});
