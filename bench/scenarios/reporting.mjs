// Reporting scenarios (issue 4): signed upload URL issuance (4.2) against the
// hello-world baseline, and report creation (4.1) against pgbench's single-row
// INSERT rate at the same concurrency, on PostgreSQL.
import { load, pgbenchInsertRate, CONNECTIONS } from '../lib.mjs';
import { signedBody, signedQueryPath } from '../signing.mjs';

export const UPLOAD = '/svc/reporting/open/v1/upload/oss_sign_url';
/** The query of a 4.2 request (before nonce, timestamp and sign). */
export const uploadParams = (clientId) => ({
  'client_info.client_id': clientId,
  'client_info.ip': '203.0.113.1',
  svcid: 'u1',
  file_name: 'clip.mp4',
  file_size: '1048576',
});
export const REPORT = '/svc/reporting/open/v1/player/report';

/** A function answering a fresh signed 4.1 body on each call: distinct reporters, 97 reportees, 5 reasons. */
export function reportBodies(clientId, secret) {
  let n = 0;
  return () => {
    n++;
    return signedBody(
      {
        client_info: { client_id: clientId, ip: '203.0.113.1', device_id: 'dev-1' },
        reporter: { svcid: `reporter-${n}`, role_id: `r${n}`, server_code: 's1', role_name: 'Alice', extra: '' },
        reportee: { svcid: `reportee-${n % 97}`, role_id: 'x', server_code: 's1', role_name: 'Mallory', extra: '' },
        reasons: [{ id: 1 + (n % 5), title: 'cheating', extras: '' }],
        user_description: 'speed hacking in arena',
      },
      secret,
    );
  };
}

export default [
  {
    name: '4.2 GET upload/oss_sign_url (md5 + replay check)',
    minRatio: 0.4,
    target: '>= 0.4x hello world',
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench upload' });
      return load(svc.url, {
        path: UPLOAD,
        setupRequest: (req) => ({ ...req, path: signedQueryPath(UPLOAD, uploadParams(app.clientId), app.secret) }),
      });
    },
  },
  {
    name: '4.1 POST player/report',
    backends: ['postgres'],
    minRatio: 0.5,
    target: '>= 0.5x pgbench single-row INSERT',
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench report' });
      const body = reportBodies(app.clientId, app.secret);
      const result = await load(svc.url, {
        method: 'POST',
        path: REPORT,
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: body() }),
      });
      const tps = pgbenchInsertRate(CONNECTIONS);
      return { ...result, reference: { name: 'pgbench insert', rps: tps } };
    },
  },
];
