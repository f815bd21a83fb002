import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { CallbackVerificationError, verifyCallback } from '@game-platform/sdk';
import { startTestService, signMd5, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer, type GameRequest } from '../testing/game-server.js';
import { IpAllowList } from '../config/ip-ranges.js';
import { AddressGuard } from './address-guard.js';
import { appFor, FAST, waitForEvent } from '../testing/delivery/delivery.js';

const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof CallbackVerificationError) return err.reason;
    throw err;
  }
  return 'accepted';
};

describe('delivery (security)', () => {
  let svc: TestService;
  let game: GameServer;
  let keys: Record<string, string>;
  before(async () => {
    svc = await startTestService(FAST);
    keys = await platformPublicKeys(svc.services);
    game = await startGameServer(keys);
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  it('the SDK verifier accepts the real call and rejects a changed body, path, timestamp or key', async () => {
    const app = await appFor(svc, game.url);
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const call = game.requests.find((r) => r.body.includes(`"notifyId":${eventId},`)) as GameRequest;
    const base = {
      method: call.method,
      url: call.url,
      headers: call.headers as Record<string, string>,
      body: call.body,
      publicKeys: keys,
    };
    assert.equal(
      reasonOf(() => verifyCallback(base)),
      'accepted',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, body: call.body.replace('"trxType":0', '"trxType":2') })),
      'bad_signature',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, body: JSON.stringify(JSON.parse(call.body), null, 1) })),
      'bad_signature',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, url: '/pay/other' })),
      'bad_signature',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, method: 'PUT' })),
      'bad_signature',
    );
    const ts = Number(call.headers.timestamp);
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, headers: { ...base.headers, timestamp: String(ts + 1) } })),
      'bad_signature',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, now: () => (ts + 3600) * 1000 })),
      'stale_timestamp',
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const kid = String(call.headers['key-id']);
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, publicKeys: { [kid]: other } })),
      'bad_signature',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, publicKeys: other })),
      'bad_signature',
    );
    assert.equal(
      reasonOf(() => verifyCallback({ ...base, publicKeys: { pk_other: other } })),
      'unknown_key',
    );
  });

  it('signs with a rotated key from the next send on (Key-Id names it)', async () => {
    const rotated = await svc.admin('POST', '/platform-keys/rotate');
    keys[rotated.body.kid] = rotated.body.publicKeyPem;
    const app = await appFor(svc, game.url);
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'refund' });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
    const call = game.requests.find((r) => r.body.includes(`"notifyId":${eventId},`))!;
    assert.equal(call.verified, true, call.verifyError);
    assert.equal(call.headers['key-id'], rotated.body.kid);
  });

  it('keeps the admin API behind the bearer token and writes nothing without it', async () => {
    const app = await appFor(svc, game.url);
    const before = (await svc.admin('GET', `/events?appId=${app.appId}`)).body.events.length;
    for (const [method, path] of [
      ['GET', '/events'],
      ['GET', '/events/1'],
      ['POST', '/events/1/resend'],
      ['POST', `/apps/${app.appId}/test-events`],
      ['POST', `/apps/${app.appId}/events/recover`],
    ] as const) {
      const res = await svc.fetch(`/admin/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{"type":"payment","since":"0"}' } : {}),
      });
      assert.equal(res.status, 401, path);
    }
    assert.equal((await svc.admin('GET', `/events?appId=${app.appId}`)).body.events.length, before);
  });

  it('the pull endpoint shows an app only its own notifications and refuses a bad or replayed signature', async () => {
    const a = await appFor(svc, game.url);
    const b = await appFor(svc, game.url);
    const idA = (await svc.admin('POST', `/apps/${a.appId}/test-events`, { type: 'payment' })).body.eventId;
    await svc.admin('POST', `/apps/${b.appId}/test-events`, { type: 'payment' });
    const q = signMd5({ clientId: a.clientId }, a.secret);
    const own = (await (
      await svc.fetch(`/api/notify/v1/events?${new URLSearchParams(q as Record<string, string>)}`)
    ).json()) as any;
    assert.deepEqual(
      own.data.list.map((n: any) => n.notifyId),
      [idA],
    );
    const replay = await svc.fetch(`/api/notify/v1/events?${new URLSearchParams(q as Record<string, string>)}`);
    assert.equal(replay.status, 401);
    assert.equal(((await replay.json()) as any).code, 40104);
    const forged = signMd5({ clientId: a.clientId }, b.secret);
    const res = await svc.fetch(`/api/notify/v1/events?${new URLSearchParams(forged as Record<string, string>)}`);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as any).code, 40101);
  });

  it('refuses loopback, private, link-local and metadata addresses in production mode', () => {
    const guard = new AddressGuard(new IpAllowList([]));
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::',
    ]) {
      assert.ok(guard.refusal(ip), `${ip} is refused`);
    }
    for (const ip of ['8.8.8.8', '203.0.114.1', '2606:4700:4700::1111'])
      assert.equal(guard.refusal(ip), null, `${ip} is allowed`);
    const allowing = new AddressGuard(new IpAllowList(['10.0.0.0/8']));
    assert.equal(allowing.refusal('10.9.9.9'), null);
    assert.ok(allowing.refusal('192.168.0.1'));
  });
});

describe('delivery (security): production mode address guard over real HTTP', () => {
  let game: GameServer;
  const services: TestService[] = [];
  before(async () => {
    game = await startGameServer({});
  });
  after(async () => {
    for (const s of services) await s.close();
    await game.close();
  });

  it('refuses a game URL on loopback (by IP or by name) at send time and logs the refusal', async () => {
    const svc = await startTestService({ ...FAST, NODE_ENV: 'production' });
    services.push(svc);
    const port = new URL(game.url).port;
    for (const host of ['127.0.0.1', 'localhost', '169.254.169.254']) {
      const app = await svc.createApp({ callbackUrls: { default: `http://${host}:${port}/cb` } });
      const {
        body: { eventId },
      } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
      const row = await waitForEvent(svc, eventId, (e) => e.state === 'dead');
      assert.match(row.last_error ?? '', /refused: .*(loopback|linkLocal)/, host);
      const log = (await svc.admin('GET', `/events/${eventId}`)).body.attemptLog;
      assert.ok(log.every((a: any) => a.outcome === 'refused' && a.httpStatus === null));
    }
    assert.equal(game.requests.length, 0, 'nothing reached the game');
  });

  it('delivers to an allow-listed private address', async () => {
    const svc = await startTestService({
      ...FAST,
      NODE_ENV: 'production',
      CALLBACK_PRIVATE_ALLOWLIST: '127.0.0.0/8, ::1',
    });
    services.push(svc);
    const app = await svc.createApp({ callbackUrls: { default: `${game.url}/cb` } });
    const {
      body: { eventId },
    } = await svc.admin('POST', `/apps/${app.appId}/test-events`, { type: 'payment' });
    await waitForEvent(svc, eventId, (e) => e.state === 'delivered');
  });
});
