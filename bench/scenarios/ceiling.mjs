// Ceilings (reported, no target): what a signed GET (4.3 with 5.2, 4.2 with
// 5.1) reaches on this machine when it does only what any correct one must (bench/ceiling.mjs),
// in the same run and against the same hello world as the real scenarios.
// The gap between a ceiling and 1.0 is the machine's (signature, nonce write,
// a bigger answer); the gap between a ceiling and the real route is our service's.
import path from 'node:path';
import { load, pgbenchInsertRate, startProcess, CONNECTIONS, PG_URL, ROOT } from '../lib.mjs';
import { macRequests } from './accounts.mjs';
import { REPORT, UPLOAD, reportBodies, uploadParams } from './reporting.mjs';
import { signedQueryPath } from '../signing.mjs';

const PROFILE = '/api/account/v1/user/profile?clientId=ceiling';

/** Runs bench/ceiling.mjs with its nonces in `nonces` (sqlite, postgres, memory) and loads one of its routes (4.3, 4.2, 4.1). */
function ceiling(nonces, route) {
  return async () => {
    const proc = await startProcess([path.join(ROOT, 'bench/ceiling.mjs')], { NONCES: nonces, PG_URL }, '/tokens');
    try {
      const { players, md5App } = await (await fetch(`${proc.url}/tokens`)).json();
      if (route === '4.3') return await load(proc.url, { path: PROFILE, setupRequest: macRequests(PROFILE, players) });
      if (route === '4.2')
        return await load(proc.url, {
          path: UPLOAD,
          setupRequest: (req) => ({
            ...req,
            path: signedQueryPath(UPLOAD, uploadParams(md5App.clientId), md5App.secret),
          }),
        });
      // 4.1, against pgbench as its target is.
      const body = reportBodies(md5App.clientId, md5App.secret);
      const result = await load(proc.url, {
        method: 'POST',
        path: REPORT,
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: body() }),
      });
      return { ...result, reference: { name: 'pgbench insert', rps: pgbenchInsertRate(CONNECTIONS) } };
    } finally {
      await proc.stop();
    }
  };
}

export default [
  {
    name: 'ceiling: 4.3 least work, nonce in the database',
    standalone: true,
    target: 'reference: the most any 4.3 can reach here',
    run: (_svc, { backend }) => ceiling(backend, '4.3')(),
  },
  {
    name: 'ceiling: 4.2 least work, nonce in the database',
    standalone: true,
    target: 'reference: the most any 4.2 can reach here',
    run: (_svc, { backend }) => ceiling(backend, '4.2')(),
  },
  {
    name: 'ceiling: 4.1 least work, nonce and report in one statement',
    backends: ['postgres'],
    standalone: true,
    target: 'reference: above the most any 4.1 can reach here',
    run: ceiling('postgres', '4.1'),
  },
  {
    name: 'ceiling: 4.3 least work, nonce in memory only (not allowed: not durable, not shared)',
    backends: ['sqlite'],
    standalone: true,
    target: 'reference: upper bound',
    run: ceiling('memory', '4.3'),
  },
];
