import { adminClient, type TestService } from './service.js';

/** The test-service helpers (admin, createApp, fetch) against a service in another process (testing/child.ts). */
export function childShim(url: string, adminToken: string): TestService {
  const call = (path: string, init?: RequestInit) => fetch(url + path, init);
  const admin = adminClient(url, adminToken);
  const shim: Pick<TestService, 'url' | 'fetch' | 'admin' | 'createApp'> = {
    url,
    fetch: call,
    admin,
    async createApp(b = {}) {
      const res = await admin('POST', '/apps', { name: 'test game', ...b });
      if (res.status !== 201) throw new Error(`createApp: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
  };
  return shim as TestService;
}
