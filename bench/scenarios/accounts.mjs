// Accounts scenario (issue 3): the profile route (4.3) - MAC verification,
// nonce check, token and user lookup - against its ceiling (bench/ceilings/profile.mjs,
// the least work any correct 4.3 does) measured next to it, on both backends.
import crypto from 'node:crypto';
import { buildMacAuthorization } from '../../packages/sdk/dist/index.js';
import { READS, load, withCeiling } from '../lib.mjs';

/** Logs `count` guest players in; answers their MAC credentials. */
export async function guestPlayers(svc, clientId, count) {
  const players = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${svc.url}/api/account/v1/client/login/guest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId, deviceId: `bench-device-${i}-${crypto.randomBytes(4).toString('hex')}` }),
    });
    if (!res.ok) throw new Error(`guest login: ${res.status} ${await res.text()}`);
    players.push((await res.json()).data);
  }
  return players;
}

/** A setupRequest that signs each request with the next player's MAC token (5.2). */
export function macRequests(path, players) {
  let i = 0;
  return (req) => {
    const p = players[i++ % players.length];
    const authorization = buildMacAuthorization({
      kid: p.kid,
      macKey: p.macKey,
      method: 'GET',
      uri: path,
      host: '127.0.0.1',
      port: 443,
    });
    return { ...req, path, headers: { ...req.headers, authorization } };
  };
}

const CEILING_PROFILE = '/api/account/v1/user/profile?clientId=ceiling';

export default [
  {
    name: '4.3 GET user/profile (MAC)',
    references: [
      {
        name: 'ceiling 4.3',
        run: ({ backend }) =>
          withCeiling('profile.mjs', backend, {}, (proc, { players }) =>
            load(proc.url, { path: CEILING_PROFILE, setupRequest: macRequests(CEILING_PROFILE, players) }),
          ),
      },
    ],
    targets: [
      { kind: 'cpu', max: READS },
      { kind: 'p99', max: 25 },
      { kind: 'rss', max: 300 },
    ],
    async run(svc) {
      const app = await svc.admin('POST', '/apps', { name: 'bench profile' });
      const players = await guestPlayers(svc, app.clientId, 50);
      const path = `/api/account/v1/user/profile?clientId=${app.clientId}`;
      return load(svc.url, { path, setupRequest: macRequests(path, players) });
    },
  },
];
