// Foundation scenarios (issue 2): liveness and an authenticated admin read.
import { load } from '../lib.mjs';

export default [
  {
    name: 'GET /healthz',
    async run(svc) {
      return load(svc.url, { path: '/healthz' });
    },
  },
  {
    name: 'GET /admin/v1/apps/{appId} (bearer)',
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench admin read' });
      return load(svc.url, {
        path: `/admin/v1/apps/${app.appId}`,
        headers: { authorization: `Bearer ${svc.adminToken}` },
      });
    },
  },
];
