// Reporting scenarios (issue 4), each against its ceiling measured next to it:
// signed upload URL issuance (4.2, CPU per request, both backends) and report
// creation (4.1, rate, both backends; its ceiling does the duplicate guard and caps).
import { READS, load, withCeiling } from '../lib.mjs';
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

/** A 4.1 load: fresh signed reports, POSTed. */
function loadReports(url, clientId, secret) {
  const body = reportBodies(clientId, secret);
  return load(url, {
    method: 'POST',
    path: REPORT,
    headers: { 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: body() }),
  });
}

/** A 4.2 load: fresh signed queries. */
function loadUploads(url, clientId, secret) {
  return load(url, {
    path: UPLOAD,
    setupRequest: (req) => ({ ...req, path: signedQueryPath(UPLOAD, uploadParams(clientId), secret) }),
  });
}

export default [
  {
    name: '4.2 GET upload/oss_sign_url (md5 + replay check)',
    references: [
      {
        name: 'ceiling 4.2',
        run: ({ backend }) =>
          withCeiling('upload.mjs', backend, {}, (proc, { md5App }) =>
            loadUploads(proc.url, md5App.clientId, md5App.secret),
          ),
      },
    ],
    targets: [{ kind: 'cpu', max: READS }],
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench upload' });
      return loadUploads(svc.url, app.clientId, app.secret);
    },
  },
  {
    name: '4.1 POST player/report',
    references: [
      {
        name: 'ceiling 4.1',
        run: ({ backend }) =>
          withCeiling('report.mjs', backend, {}, (proc, { md5App }) =>
            loadReports(proc.url, md5App.clientId, md5App.secret),
          ),
      },
    ],
    targets: [{ kind: 'rate', min: 0.6 }],
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench report' });
      return loadReports(svc.url, app.clientId, app.secret);
    },
  },
];
