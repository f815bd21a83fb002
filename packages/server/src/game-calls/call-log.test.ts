import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameServer } from '../testing/game-server.js';
import { processEnv } from '../testing/env.js';
import { runCli } from '../testing/child.js';
import { loadConfig } from '../config/config.js';
import { createServices } from '../services.js';
import type { AppRecord } from '../apps/apps.service.js';
import type { Services } from '../services.js';

const ROLE = {
  userId: 'u-1',
  roleId: 'r-1',
  name: 'Hero',
  avatar: 'https://cdn.example/a.png',
  roleLv: 3,
  serverId: 's1',
  serverName: null,
};

/** A game whose /role answers a role, /blocked blocks every pre-order check (105), /list says "no role". */
async function startGame(services: Services): Promise<GameServer> {
  return startGameServer(await platformPublicKeys(services), (req) => {
    const path = req.url.split('?')[0];
    if (path === '/blocked')
      return { status: 403, body: JSON.stringify({ code: 105, msg: 'limit reached', detail: 'daily limit' }) };
    if (path === '/list')
      return { status: 401, body: JSON.stringify({ code: 401, msg: 'no role', detail: '', results: [] }) };
    return { status: 200, body: JSON.stringify(ROLE) };
  });
}

/** An address nothing listens on: the call fails with `network` and 4.8 retries it once. */
const CLOSED = 'http://127.0.0.1:9/role';

/** Makes one successful role query, one blocked pre-order check, one "no role" list and an unreachable role query (two tries). */
async function makeCalls(services: Services, app: AppRecord): Promise<void> {
  assert.equal((await services.gameCalls.roleQuery(app, { roleId: 'r-1', serverId: 's1' })).ok, true);
  const check = await services.gameCalls.preOrderCheck(app, {
    roleId: 'r-1',
    serverId: 's1',
    productSkuCode: 'gem',
    quantity: 2,
  });
  assert.equal(check.allowed, false);
  assert.equal((await services.gameCalls.roleList(app, { userId: 'u-1' })).ok, false);
  assert.equal(
    (await services.gameCalls.roleQuery({ ...app, roleQueryUrl: CLOSED }, { roleId: 'r-2', serverId: 's1' })).ok,
    false,
  );
}

describe('game-call log (admin API, 4.8-4.10)', () => {
  let svc: TestService;
  let game: GameServer;
  let app: AppRecord;
  before(async () => {
    svc = await startTestService({ GAME_CALL_TIMEOUT_MS: '1000' }, { dispatcher: false });
    game = await startGame(svc.services);
    const created = await svc.createApp({
      roleQueryUrl: `${game.url}/role`,
      roleListUrl: `${game.url}/list`,
      preOrderCheckUrl: `${game.url}/blocked`,
    });
    app = (await svc.services.apps.resolveByClientId(created.clientId))!;
    await makeCalls(svc.services, app);
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  const list = (query = '', appId = app.appId) => svc.admin('GET', `/apps/${appId}/game-calls${query}`);

  it('lists every try newest first, with kind, outcome, status, latency and error', async () => {
    const res = await list();
    assert.equal(res.status, 200);
    const calls = res.body.calls as any[];
    assert.deepEqual(
      calls.map((c) => [c.kind, c.tryNo, c.outcome, c.httpStatus]),
      [
        ['role_query', 2, 'network', null],
        ['role_query', 1, 'network', null],
        ['role_list', 1, 'no_role', 401],
        ['pre_order_check', 1, 'blocked', 403],
        ['role_query', 1, 'ok', 200],
      ],
    );
    assert.deepEqual(
      calls.map((c) => c.callId),
      [...calls.map((c) => c.callId)].sort((a, b) => b - a),
    );
    const ok = calls[4];
    assert.equal(ok.appId, app.appId);
    assert.equal(ok.url, `${game.url}/role`);
    assert.equal(ok.error, null);
    assert.equal(typeof ok.latencyMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(ok.startedAt)) && ok.startedAt.endsWith('Z'));
    assert.match(calls[0].error, /ECONNREFUSED/);
    assert.equal(res.body.nextBefore, null);
  });

  it('filters by kind, outcome, failure and time, and pages with before', async () => {
    assert.deepEqual(
      (await list('?kind=pre_order_check')).body.calls.map((c: any) => c.outcome),
      ['blocked'],
    );
    assert.deepEqual(
      (await list('?outcome=ok')).body.calls.map((c: any) => c.kind),
      ['role_query'],
    );
    assert.deepEqual(
      (await list('?failed=true')).body.calls.map((c: any) => c.outcome),
      ['network', 'network', 'no_role', 'blocked'],
    );
    assert.equal((await list(`?from=${Date.now() + 60_000}`)).body.calls.length, 0);
    assert.equal((await list(`?to=${new Date(Date.now() + 60_000).toISOString()}`)).body.calls.length, 5);

    const first = await list('?limit=2');
    assert.equal(first.body.calls.length, 2);
    const second = await list(`?limit=2&before=${first.body.nextBefore}`);
    const third = await list(`?limit=2&before=${second.body.nextBefore}`);
    const paged = [...first.body.calls, ...second.body.calls, ...third.body.calls].map((c: any) => c.callId);
    assert.deepEqual(
      paged,
      (await list()).body.calls.map((c: any) => c.callId),
    );
    assert.equal(third.body.nextBefore, null);
  });

  it("keeps whom each call was about, and finds a player's calls by role, user or server", async () => {
    const calls = (await list()).body.calls as any[];
    assert.deepEqual(
      calls.map((c) => [c.kind, c.roleId, c.serverId, c.userId]),
      [
        ['role_query', 'r-2', 's1', null],
        ['role_query', 'r-2', 's1', null],
        ['role_list', null, null, 'u-1'],
        ['pre_order_check', 'r-1', 's1', null],
        ['role_query', 'r-1', 's1', null],
      ],
    );
    assert.deepEqual(
      (await list('?roleId=r-1')).body.calls.map((c: any) => c.kind),
      ['pre_order_check', 'role_query'],
    );
    assert.deepEqual(
      (await list('?roleId=r-2&failed=true')).body.calls.map((c: any) => c.tryNo),
      [2, 1],
    );
    assert.deepEqual(
      (await list('?userId=u-1')).body.calls.map((c: any) => c.outcome),
      ['no_role'],
    );
    assert.equal((await list('?serverId=s1')).body.calls.length, 4);
    assert.deepEqual((await list('?roleId=nobody')).body.calls, []);
    for (const query of ['?roleId=', `?userId=${'x'.repeat(129)}`]) {
      const res = await list(query);
      assert.equal(res.status, 400, query);
      assert.match(res.body.detail, /^(roleId|userId)/, query);
    }
  });

  it('keeps each app to its own calls', async () => {
    const other = await svc.createApp({ name: 'other game' });
    const res = await list('', other.appId);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.calls, []);
  });

  it('answers an unknown app with 404 and bad parameters with 400 naming the field', async () => {
    const missing = await list('', 987654);
    assert.equal(missing.status, 404);
    assert.match(missing.body.detail, /app 987654 does not exist/);
    for (const [query, field] of [
      ['?kind=payment', 'kind'],
      ['?outcome=fine', 'outcome'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?from=yesterday', 'from'],
      ['?failed=yes', 'failed'],
      ['?before=-1', 'before'],
      ['?color=red', 'color'],
    ] as const) {
      const res = await list(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 40000, query);
      assert.ok(res.body.detail.startsWith(field), `${query}: ${res.body.detail}`);
    }
    assert.equal((await svc.admin('GET', '/apps/abc/game-calls')).status, 400);
  });

  it('is behind the admin bearer token', async () => {
    const res = await svc.fetch(`/admin/v1/apps/${app.appId}/game-calls`);
    assert.equal(res.status, 401);
    const wrong = await svc.fetch(`/admin/v1/apps/${app.appId}/game-calls`, {
      headers: { authorization: 'Bearer not-the-token-not-the-token' },
    });
    assert.equal(wrong.status, 401);
  });
});

describe('game-call log (CLI)', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let appId: number;
  before(async () => {
    ({ env, cleanup } = await processEnv());
    env.MASTER_KEY ??= crypto.randomBytes(32).toString('base64');
    // The service's own writes, on the database the CLI then reads.
    const services = await createServices(loadConfig({ ...env, LOG_LEVEL: 'silent', GAME_CALL_TIMEOUT_MS: '1000' }));
    const game = await startGame(services);
    try {
      const created = await services.apps.create({
        name: 'cli game',
        roleQueryUrl: `${game.url}/role`,
        roleListUrl: `${game.url}/list`,
        preOrderCheckUrl: `${game.url}/blocked`,
      });
      appId = created.app.appId;
      await makeCalls(services, (await services.apps.resolveByClientId(created.app.clientId))!);
    } finally {
      await game.close();
      await services.close();
    }
  });
  after(async () => {
    await cleanup();
  });

  it("lists an app's calls, failed ones only with --failed, and refuses a bad kind", async () => {
    const all = await runCli(env, ['--json', 'game-calls', 'list', '--app', String(appId)]);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      JSON.parse(all.stdout).calls.map((c: any) => c.outcome),
      ['network', 'network', 'no_role', 'blocked', 'ok'],
    );
    const failed = await runCli(env, [
      'game-calls',
      'list',
      '--app',
      String(appId),
      '--failed',
      '--kind',
      'pre_order_check',
    ]);
    assert.equal(failed.code, 0, failed.stderr);
    assert.match(failed.stdout, /pre_order_check role r-1 server s1 try 1 {2}blocked HTTP 403/);
    assert.doesNotMatch(failed.stdout, /role_query/);
    const byRole = await runCli(env, ['--json', 'game-calls', 'list', '--app', String(appId), '--role', 'r-2']);
    assert.deepEqual(
      JSON.parse(byRole.stdout).calls.map((c: any) => [c.roleId, c.tryNo]),
      [
        ['r-2', 2],
        ['r-2', 1],
      ],
    );
    const byUser = await runCli(env, ['game-calls', 'list', '--app', String(appId), '--user', 'u-1']);
    assert.match(byUser.stdout, /role_list user u-1 try 1 {2}no_role HTTP 401/);
    const bad = await runCli(env, ['game-calls', 'list', '--app', String(appId), '--kind', 'payment']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /kind: must be role_query, role_list, pre_order_check/);
    const unknown = await runCli(env, ['game-calls', 'list', '--app', '987654']);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /app 987654 does not exist/);
  });
});
