import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { startTestService, type TestService } from '../testing/service.js';

const echo = (app: FastifyInstance) => {
  app.get('/test/ip', async (request) => ({ ip: request.ip, hostname: request.hostname }));
};

describe('caller address without trusted proxies', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({}, { routes: echo });
  });
  after(async () => {
    await svc.close();
  });

  it('ignores a forged X-Forwarded-For and X-Forwarded-Host from the peer', async () => {
    const res = await svc.fetch('/test/ip', {
      headers: { 'x-forwarded-for': '203.0.113.50', 'x-forwarded-host': 'forged.example', 'x-real-ip': '203.0.113.51' },
    });
    const body = (await res.json()) as any;
    assert.equal(body.ip, '127.0.0.1');
    assert.equal(body.hostname, '127.0.0.1');
  });
});

describe('caller address behind a trusted proxy', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ TRUSTED_PROXIES: '127.0.0.1/32, ::1' }, { routes: echo });
  });
  after(async () => {
    await svc.close();
  });

  it('takes the address the trusted proxy forwards, not one the client put before it', async () => {
    const res = await svc.fetch('/test/ip', {
      headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.50', 'x-forwarded-host': 'api.example' },
    });
    const body = (await res.json()) as any;
    assert.equal(body.ip, '203.0.113.50');
    assert.equal(body.hostname, 'api.example');
  });
});
