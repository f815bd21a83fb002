import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { prefersHtml } from './home.js';

/** `GET /` (issue 34): a browser goes to the console, a JSON client learns the name, version and links. */
describe('GET /', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(async () => {
    await svc.close();
  });

  const get = (accept?: string) =>
    svc.fetch('/', { redirect: 'manual', ...(accept !== undefined ? { headers: { accept } } : {}) });

  it("sends a browser's page request to the console, and the console answers there", async () => {
    const chrome = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    const res = await get(chrome);
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/console/');
    assert.match(res.headers.get('vary') ?? '', /accept/i);
    await res.arrayBuffer();
    const followed = await svc.fetch('/', { headers: { accept: chrome } });
    assert.equal(followed.status, 200);
    assert.equal(new URL(followed.url).pathname, '/console/');
    assert.match(followed.headers.get('content-type') ?? '', /text\/html/);
    await followed.arrayBuffer();
  });

  it('answers the name, version and links as JSON to a client asking for JSON, or for anything', async () => {
    for (const accept of ['application/json', undefined, '*/*', 'application/json, text/html;q=0.5']) {
      const res = await get(accept);
      assert.equal(res.status, 200, String(accept));
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      const body = (await res.json()) as any;
      assert.equal(body.name, 'game-platform');
      assert.match(body.version, /^\d+\.\d+\.\d+/);
      assert.deepEqual(Object.keys(body.links).sort(), ['console', 'docs', 'health', 'openapi', 'portal', 'ready']);
      for (const [name, path] of Object.entries(body.links) as [string, string][]) {
        const target = await svc.fetch(path);
        assert.equal(target.status, 200, `${name} ${path} answers`);
        await target.arrayBuffer();
      }
    }
  });

  it('hostile Accept values get the JSON answer, never a 500', async () => {
    for (const accept of ['text/html;q=0', 'text/html;q=abc, application/json', '\u00ff'.repeat(4000), 'text/*;q=2']) {
      const res = await svc.fetch('/', {
        redirect: 'manual',
        headers: { accept: Buffer.from(accept, 'latin1').toString('latin1') },
      });
      assert.ok(res.status === 200 || res.status === 302, `${res.status} for ${accept.slice(0, 20)}`);
      await res.arrayBuffer();
    }
    assert.equal((await get('text/html;q=0')).status, 200, 'q=0 refuses html');
    const post = await svc.fetch('/', { method: 'POST' });
    assert.equal(post.status, 405);
    await post.arrayBuffer();
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await svc.fetch('/openapi.json')).json()) as any;
    assert.ok(doc.paths['/']?.get, 'GET / documented');
    assert.ok(doc.paths['/'].get.responses['200']);
    assert.ok(doc.paths['/'].get.responses['302']);
  });

  it('decides by the Accept q-values', () => {
    assert.equal(prefersHtml(undefined), false);
    assert.equal(prefersHtml('text/html'), true);
    assert.equal(prefersHtml('application/json'), false);
    assert.equal(prefersHtml('text/html;q=0.4, application/json'), false);
    assert.equal(prefersHtml('application/json;q=0.4, text/html'), true);
    assert.equal(prefersHtml('text/*'), false, 'a range is not a request for a page');
  });
});
