// Foundation scenarios (issue 2): liveness (reported beside the hello world,
// no target) and an authenticated admin read, whose CPU per request may be at
// most 1.5x its ceiling's (a bearer check and one indexed read; issue 33), the
// hello world reported beside it.
import { helloWorld, load, withCeiling } from '../lib.mjs';

/** The least an admin read does (bench/ceilings/admin-read.mjs). */
const adminReadCeiling = {
  name: 'ceiling admin read',
  run: ({ backend }) =>
    withCeiling('admin-read.mjs', backend, {}, async (proc) => {
      const { token, appId } = await (await fetch(`${proc.url}/admin-token`)).json();
      return load(proc.url, { path: `/admin/v1/apps/${appId}`, headers: { authorization: `Bearer ${token}` } });
    }),
};

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
    references: [helloWorld, adminReadCeiling],
    targets: [
      { kind: 'cpu', against: 'ceiling admin read', max: 1.5 },
      { kind: 'cpu', against: 'hello world' },
    ],
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench admin read' });
      return load(svc.url, {
        path: `/admin/v1/apps/${app.appId}`,
        headers: { authorization: `Bearer ${svc.adminToken}` },
      });
    },
  },
];
