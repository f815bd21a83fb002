import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { buildCallbackHeaders } from '@game-platform/sdk';
import { ConfigError, loadConfig } from './config.js';
import { PLATFORM_PATHS } from './platform-calls.js';
import { OPS_TOKEN, paymentBody, startTestGame, testKey, type TestGame } from './game.testlib.js';

const CB = PLATFORM_PATHS.paymentCallback;

describe('every platform call is verified (5.3)', () => {
  let game: TestGame;
  before(async () => {
    game = await startTestGame();
  });
  after(() => game.close());

  const stored = async () => (await game.ops('GET', '/ops/status')).body.stored;
  const pay = (trxNo: number) => paymentBody({ trxNo, userId: 'u1', roleId: 'r1', products: [['gems_100', 1]] });

  const refusals: [string, Parameters<TestGame['call']>[2], string][] = [
    ['unsigned', { key: null }, 'missing_header'],
    ['signed by another key under our key id', { key: testKey('test-key-1') }, 'bad_signature'],
    ['an unknown key id', { keyId: 'someone-else' }, 'unknown_key'],
    ['a stale timestamp', { timestamp: Math.floor(Date.now() / 1000) - 3600 }, 'stale_timestamp'],
    [
      'a changed body',
      {
        tamper: (r) => {
          r.body = r.body.replace('"quantity":1', '"quantity":9');
        },
      },
      'bad_signature',
    ],
    [
      'a re-serialised body (spacing)',
      {
        tamper: (r) => {
          r.body = JSON.stringify(JSON.parse(r.body), null, 1);
        },
      },
      'bad_signature',
    ],
    [
      'a malformed signature',
      {
        tamper: (r) => {
          r.headers.Signature = 'not base64!';
        },
      },
      'malformed_header',
    ],
  ];
  for (const [what, opts, reason] of refusals) {
    test(`a payment with ${what} is refused 401 (${reason}) and grants nothing`, async () => {
      const before = await stored();
      const r = await game.call('POST', CB, { body: pay(600), ...opts });
      assert.equal(r.status, 401);
      assert.equal(r.body.detail, reason);
      assert.deepEqual(await stored(), before);
    });
  }

  test('a replayed call (same nonce) is refused', async () => {
    const body = JSON.stringify(pay(601));
    const nonce = 'replay-nonce-123456';
    assert.equal((await game.call('POST', CB, { body, nonce })).status, 200);
    const r = await game.call('POST', CB, { body, nonce });
    assert.equal(r.status, 401);
    assert.equal(r.body.detail, 'replayed_nonce');
  });

  test('a signature made for another path does not verify here', async () => {
    const headers = buildCallbackHeaders({
      method: 'GET',
      path: PLATFORM_PATHS.roleList,
      body: '',
      privateKey: game.key.privateKey,
      keyId: game.key.kid,
    });
    const r = await fetch(`${game.server.url}${PLATFORM_PATHS.roleQuery}?roleId=r1&serverId=s1`, { headers });
    assert.equal(r.status, 401);
    assert.equal(((await r.json()) as { detail: string }).detail, 'bad_signature');
  });

  test('role query, role list and pre-order check refuse unsigned calls too', async () => {
    assert.equal(
      (await game.call('GET', PLATFORM_PATHS.roleQuery, { key: null, query: { roleId: 'r1', serverId: 's1' } })).status,
      401,
    );
    assert.equal((await game.call('GET', PLATFORM_PATHS.roleList, { key: null, query: { userId: 'u1' } })).status, 401);
    assert.equal(
      (
        await game.call('POST', PLATFORM_PATHS.preOrderCheck, {
          key: null,
          body: { roleId: 'r1', serverId: 's1', productSkuCode: 'gems_100', quantity: 1 },
        })
      ).status,
      401,
    );
    assert.equal(
      (
        await game.call('POST', PLATFORM_PATHS.cancellationCallback, {
          key: null,
          body: { notifyId: 1, notifyTime: 1, appId: 1, userId: 'u1' },
        })
      ).status,
      401,
    );
  });

  test('the ops endpoints need the ops token', async () => {
    assert.equal((await game.ops('GET', '/ops/status', undefined, null)).status, 401);
    assert.equal((await game.ops('GET', '/ops/status', undefined, `${OPS_TOKEN}x`)).status, 401);
    assert.equal(
      (await game.ops('POST', '/ops/roles', { userId: 'u1', roleId: 'r1', serverId: 's1', name: 'x' }, 'wrong')).status,
      401,
    );
    assert.equal((await game.ops('GET', '/ops/players/u1', undefined, null)).status, 401);
  });

  test('ops input is checked, naming the field', async () => {
    const r = await game.ops('POST', '/ops/roles', { userId: 'u 1', roleId: 'r1', serverId: 's1', name: 'x' });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /userId/);
    assert.equal((await game.ops('POST', '/ops/roles', 'not json')).status, 400);
    const s = await game.ops('POST', '/ops/players/u1/spend', {
      roleId: 'r1',
      serverId: 's1',
      item: 'gems',
      quantity: -1,
    });
    assert.match(s.body.error, /quantity/);
  });
});

describe("platform keys by Key-Id, from the platform's key listing, with rotation", () => {
  const oldKey = testKey('pk_old');
  const newKey = testKey('pk_new');
  let listing: { kid: string; publicKeyPem: string; status: string }[] = [
    { kid: oldKey.kid, publicKeyPem: oldKey.publicPem, status: 'published' },
  ];
  let fetches = 0;
  let authSeen = '';
  let platform: http.Server;
  let game: TestGame;

  before(async () => {
    platform = http.createServer((req, res) => {
      fetches++;
      authSeen = req.headers.authorization ?? '';
      if (req.url !== '/admin/v1/platform-keys' && req.url !== '/v1/platform-keys') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: listing }));
    });
    await new Promise<void>((r) => platform.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
    game = await startTestGame(
      { PLATFORM_PUBLIC_KEYS: '', PLATFORM_ADMIN_URL: url, PLATFORM_ADMIN_TOKEN: 'admin-token' },
      { key: oldKey },
    );
  });
  after(async () => {
    await game.close();
    await new Promise((r) => platform.close(r));
  });

  test('the keys are fetched at start with the admin token', () => {
    assert.deepEqual(Object.keys(game.server.keys.keys), ['pk_old']);
    assert.equal(authSeen, 'Bearer admin-token');
  });

  test("with PLATFORM_URL the keys come from the platform's public listing, with no token (issue 41)", async () => {
    const url = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
    const plain = await startTestGame({ PLATFORM_PUBLIC_KEYS: '', PLATFORM_URL: url }, { key: oldKey });
    try {
      assert.deepEqual(Object.keys(plain.server.keys.keys), ['pk_old']);
      assert.equal(authSeen, '', 'no credential is sent');
    } finally {
      await plain.close();
    }
  });

  test('a call with a new key id makes the game re-read the listing once, then verifies', async () => {
    const body = paymentBody({ trxNo: 800, userId: 'u1', roleId: 'r1', products: [['gems_100', 1]] });
    // Not published yet: refused, after one refresh.
    const before = fetches;
    assert.equal((await game.call('POST', CB, { body, key: newKey })).status, 401);
    assert.equal(fetches, before + 1);
    // A second unknown-key call within the throttle does not fetch again.
    assert.equal((await game.call('POST', CB, { body, key: testKey('pk_random') })).status, 401);
    assert.equal(fetches, before + 1);
    // The operator publishes the new key; an ops refresh (or the throttle passing) picks it up.
    listing = [...listing, { kid: newKey.kid, publicKeyPem: newKey.publicPem, status: 'published' }];
    assert.deepEqual((await game.ops('POST', '/ops/platform-keys/refresh')).body, { keyIds: ['pk_old', 'pk_new'] });
    assert.equal((await game.call('POST', CB, { body, key: newKey })).status, 200);
    // Both keys verify during the rotation.
    assert.equal((await game.call('POST', CB, { body, key: oldKey })).status, 200);
    // The old key retired: it is no longer trusted.
    listing = [{ ...listing[0]!, status: 'retired' }, listing[1]!];
    await game.ops('POST', '/ops/platform-keys/refresh');
    const r = await game.call('POST', CB, { body, key: oldKey });
    assert.equal(r.status, 401);
    assert.equal(r.body.detail, 'unknown_key');
  });

  test('a failed refresh keeps the current keys', async () => {
    const saved = listing;
    listing = [{ kid: 'broken', publicKeyPem: 'not a pem', status: 'published' }];
    const r = await game.ops('POST', '/ops/platform-keys/refresh');
    assert.equal(r.status, 502);
    assert.deepEqual(Object.keys(game.server.keys.keys), ['pk_new']);
    listing = saved;
  });
});

describe('configuration', () => {
  const base = { PLATFORM_PUBLIC_KEYS: JSON.stringify({ k: 'pem' }) };
  const bad: [Record<string, string>, string][] = [
    [{}, 'PLATFORM_PUBLIC_KEYS'],
    [{ ...base, PORT: '70000' }, 'PORT'],
    [{ ...base, PLATFORM_PUBLIC_KEYS: '{not json' }, 'PLATFORM_PUBLIC_KEYS'],
    [{ PLATFORM_ADMIN_URL: 'http://x' }, 'PLATFORM_ADMIN_TOKEN'],
    [{ PLATFORM_ADMIN_URL: 'ftp://x', PLATFORM_ADMIN_TOKEN: 't' }, 'PLATFORM_ADMIN_URL'],
    [{ ...base, ROLES_SEED: '[{"userId":"u1"}]' }, 'ROLES_SEED'],
    [{ ...base, PRODUCTS: '{"p":{"items":{"gems":0}}}' }, 'PRODUCTS'],
    [{ ...base, OPS_TOKEN: 'short' }, 'OPS_TOKEN'],
  ];
  for (const [env, variable] of bad) {
    test(`a bad ${variable} stops the start, naming it`, () => {
      assert.throws(
        () => loadConfig(env),
        (e: unknown) => e instanceof ConfigError && e.variable === variable,
      );
    });
  }

  test('a key that is not a PEM stops the start', async () => {
    await assert.rejects(
      startTestGame({ PLATFORM_PUBLIC_KEYS: JSON.stringify({ k: 'nope' }) }),
      /not a valid public key/,
    );
  });

  test('without OPS_TOKEN the ops endpoints do not exist', async () => {
    const game = await startTestGame({ OPS_TOKEN: '' });
    try {
      assert.equal((await game.ops('GET', '/ops/status')).status, 404);
      assert.equal((await fetch(`${game.server.url}/healthz`)).status, 200);
    } finally {
      await game.close();
    }
  });

  test('defaults', () => {
    const c = loadConfig(base);
    assert.equal(c.port, 8081);
    assert.equal(c.windowSeconds, 300);
    assert.equal(c.opsToken, null);
    assert.equal(c.catalog.get('starter_pack')?.limitPerRole, 1);
  });
});
