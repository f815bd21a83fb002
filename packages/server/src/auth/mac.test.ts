import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMacAuthorization } from '@game-platform/sdk';
import type { FastifyInstance } from 'fastify';
import { startTestService, type TestService } from '../testing/service.js';
import type { Services } from '../services.js';
import { callerOf } from './caller.js';
import { macScheme } from './mac.js';

// The token store is the accounts domain's; here a fixed token exercises the scheme itself.
const TOKEN = { kid: 'kid-0123456789abcdef', macKey: 'mac-key-0123456789abcdef' };

// Any clientId: the scheme itself is under test.
const appOf = (clientId: string) => ({ appId: 1, clientId, secrets: [] as string[], allowList: { has: () => false } });
const tokenOf = (id: string) => (id === TOKEN.kid ? { kid: id, macKey: TOKEN.macKey, scope: `mac:${id}` } : null);

/** `atOnce`: the app and the token come from appNow/tokenNow, as from warm caches (no promise on the way). */
const macRoutes = (atOnce: boolean) => (app: FastifyInstance, services: Services) => {
  const mac = macScheme({
    resolveApp: async (clientId) => appOf(clientId),
    lookupToken: async (id) => tokenOf(id),
    ...(atOnce ? { appNow: appOf, tokenNow: (id: string) => tokenOf(id) ?? undefined } : {}),
    replay: services.replay,
    publicHost: services.config.PUBLIC_HOST,
    publicPort: services.config.PUBLIC_PORT,
  });
  const hook = mac.hook({ clientId: () => 'abc', replay: 'await' });
  app.get('/test/mac', { preHandler: hook }, async (request) => {
    const { token } = callerOf<never, { kid: string }>(request);
    return { kid: token!.kid };
  });
};

async function suite(
  name: string,
  env: Record<string, string>,
  host: (svc: TestService) => string,
  port: number,
  atOnce = false,
) {
  describe(name, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(env, { routes: macRoutes(atOnce) });
    });
    after(async () => {
      await svc.close();
    });

    const uri = '/test/mac?clientId=abc&x=%20y';
    const call = (authorization: string | undefined, headers: Record<string, string> = {}) =>
      svc.fetch(uri, { headers: { ...(authorization ? { authorization } : {}), ...headers } });
    const sign = (o: Partial<Parameters<typeof buildMacAuthorization>[0]> = {}) =>
      buildMacAuthorization({ kid: TOKEN.kid, macKey: TOKEN.macKey, method: 'GET', uri, host: host(svc), port, ...o });

    it('accepts a correct MAC with the uri exactly as sent', async () => {
      const res = await call(sign());
      assert.equal(res.status, 200, await res.clone().text());
    });

    it('refuses every kind of failure with 40300, each with its own detail', async () => {
      const ts = Math.floor(Date.now() / 1000);
      const cases: Array<[string | undefined, RegExp]> = [
        [undefined, /Authorization header/],
        ['Bearer abc', /Authorization header/],
        ['MAC id="a",ts="1"', /Authorization header/],
        [`MAC id="${TOKEN.kid}",id="${TOKEN.kid}",ts="${ts}",nonce="abcdef",mac="x"`, /Authorization header/],
        [sign({ kid: 'unknown-kid' }), /unknown, expired or revoked/],
        [sign({ macKey: 'wrong-key' }), /mac does not match/],
        [sign({ uri: '/test/mac?clientId=abc' }), /mac does not match/],
        [sign({ method: 'POST' }), /mac does not match/],
        [sign({ host: 'evil.example' }), /mac does not match/],
        [sign({ port: port + 1 }), /mac does not match/],
        [sign({ ts: ts - 1000 }), /window/],
        [sign({ ts: ts + 1000 }), /window/],
      ];
      for (const [authorization, detail] of cases) {
        const res = await call(authorization);
        assert.equal(res.status, 403, String(authorization));
        const body = (await res.json()) as any;
        assert.equal(body.code, 40300);
        assert.equal(body.data, '');
        assert.match(body.detail, detail, String(authorization));
      }
    });

    it('refuses a reused nonce', async () => {
      const auth = sign({ nonce: 'nonce-once' });
      assert.equal((await call(auth)).status, 200);
      const replay = await call(auth);
      assert.equal(replay.status, 403);
      assert.match(((await replay.json()) as any).detail, /already used/);
    });

    it('tolerates parameter order and spacing', async () => {
      const auth = sign({ nonce: 'nonce-order' });
      const params = auth.slice(4).split(',').reverse().join(' ,  ');
      assert.equal((await call(`mac ${params}`)).status, 200);
    });

    it('does not believe X-Forwarded-Host from an untrusted peer', async () => {
      const res = await call(sign({ host: 'forged.example' }), { 'x-forwarded-host': 'forged.example' });
      assert.equal(res.status, 403);
    });
  });
}

await suite('MAC token scheme (5.2): host from the Host header', {}, () => '127.0.0.1', 443);
await suite(
  'MAC token scheme (5.2): PUBLIC_HOST and PUBLIC_PORT',
  { PUBLIC_HOST: 'api.game-platform.example', PUBLIC_PORT: '8443' },
  () => 'api.game-platform.example',
  8443,
);
await suite(
  'MAC token scheme (5.2): app and token from warm caches (appNow, tokenNow)',
  {},
  () => '127.0.0.1',
  443,
  true,
);
