// Foundation scenarios (issue 2): liveness (reported beside the hello world,
// no target) and an authenticated admin read, whose CPU per request may be at
// most 3x the hello world's (a bearer check and one indexed read).
import { helloWorld, load } from '../lib.mjs';

export default [
  {
    name: 'GET /healthz',
    references: [helloWorld],
    targets: [{ kind: 'rate' }, { kind: 'cpu' }],
    async run(svc) {
      return load(svc.url, { path: '/healthz' });
    },
  },
  {
    name: 'GET /admin/v1/apps/{appId} (bearer)',
    references: [helloWorld],
    targets: [{ kind: 'cpu', max: 3 }],
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench admin read' });
      return load(svc.url, {
        path: `/admin/v1/apps/${app.appId}`,
        headers: { authorization: `Bearer ${svc.adminToken}` },
      });
    },
  },
];
