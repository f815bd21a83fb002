// Foundation scenarios (issue 2): liveness (reported beside the hello world,
// no target) and an authenticated admin read, whose CPU per request may be at
// most 3x the hello world's (a bearer check and one indexed read).
import { helloWorld, load, withCeiling } from '../lib.mjs';

/** The least an admin read does (bench/ceilings/admin-read.mjs): reported, not a target. */
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
      { kind: 'cpu', against: 'hello world', max: 3 },
      { kind: 'cpu', against: 'ceiling admin read' },
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
