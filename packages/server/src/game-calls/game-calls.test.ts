import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { platformPublicKeys, startGameServer, type GameReply, type GameServer } from '../testing/game-server.js';
import type { AppRecord } from '../apps/apps.service.js';
import { PreOrderCodes } from './pre-order-codes.js';

const ROLE = {
  userId: 'u-1',
  roleId: 'r-1',
  name: 'Hero',
  avatar: 'https://cdn.example/a.png',
  roleLv: 12,
  serverId: 's1',
  serverName: 'Server One',
};

describe('game-hosted calls (4.8-4.10)', () => {
  let svc: TestService;
  let game: GameServer;
  const replies = new Map<string, (i: number) => GameReply>();
  let app: AppRecord;
  before(async () => {
    svc = await startTestService({ GAME_CALL_TIMEOUT_MS: '300' }, { dispatcher: false });
    game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
      const path = req.url.split('?')[0]!;
      const seen = game.requests.filter((r) => r.url.split('?')[0] === path).length - 1;
      return replies.get(path)?.(seen) ?? { status: 200, body: JSON.stringify(ROLE) };
    });
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  const appWith = async (paths: { roleQuery?: string; roleList?: string; preOrder?: string }) => {
    const created = await svc.createApp({
      ...(paths.roleQuery ? { roleQueryUrl: `${game.url}${paths.roleQuery}` } : {}),
      ...(paths.roleList ? { roleListUrl: `${game.url}${paths.roleList}` } : {}),
      ...(paths.preOrder ? { preOrderCheckUrl: `${game.url}${paths.preOrder}` } : {}),
    });
    return (await svc.services.apps.resolveByClientId(created.clientId))!;
  };
  const callsTo = (path: string) => game.requests.filter((r) => r.url.split('?')[0] === path);
  const logOf = (appId: number) =>
    svc.services.database.db
      .selectFrom('game_calls')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('call_id')
      .execute();

  it('role query: a signed GET with an empty body and the query of 4.8; answers the role', async () => {
    app = await appWith({ roleQuery: '/role' });
    const out = await svc.services.gameCalls.roleQuery(app, { roleId: 'r-1', serverId: 's 1&x' });
    assert.deepEqual(out, { ok: true, role: ROLE });
    const [call] = callsTo('/role');
    assert.equal(call!.method, 'GET');
    assert.equal(call!.body, '');
    assert.equal(call!.verified, true, call!.verifyError);
    assert.deepEqual(Object.fromEntries(new URL(call!.url, 'http://x').searchParams), {
      roleId: 'r-1',
      serverId: 's 1&x',
    });
    const log = await logOf(app.appId);
    assert.equal(log.length, 1);
    assert.equal(log[0]!.kind, 'role_query');
    assert.equal(log[0]!.outcome, 'ok');
    assert.equal(log[0]!.http_status, 200);
    assert.equal(typeof log[0]!.latency_ms, 'number');
  });

  it('role query: an answer without the platform user id blocks (invalid_response)', async () => {
    replies.set('/role-no-user', () => ({ status: 200, body: JSON.stringify({ ...ROLE, userId: undefined }) }));
    const a = await appWith({ roleQuery: '/role-no-user' });
    const out = await svc.services.gameCalls.roleQuery(a, { roleId: 'r-1', serverId: 's1' });
    assert.equal(out.ok, false);
    assert.equal(!out.ok && out.reason, 'invalid_response');
    assert.match(!out.ok ? out.detail : '', /userId/);
  });

  it('role query: retried once after a failure to reach the game, then fails', async () => {
    replies.set('/role-flaky', (i) => (i === 0 ? { destroy: true } : { status: 200, body: JSON.stringify(ROLE) }));
    const a = await appWith({ roleQuery: '/role-flaky' });
    assert.equal((await svc.services.gameCalls.roleQuery(a, { roleId: 'r-1', serverId: 's1' })).ok, true);
    assert.equal(callsTo('/role-flaky').length, 2);

    replies.set('/role-down', () => ({ delayMs: 1000 }));
    const b = await appWith({ roleQuery: '/role-down' });
    const out = await svc.services.gameCalls.roleQuery(b, { roleId: 'r-1', serverId: 's1' });
    assert.equal(!out.ok && out.reason, 'unreachable');
    assert.equal(callsTo('/role-down').length, 2, 'one retry, no more');
    assert.deepEqual(
      (await logOf(b.appId)).map((l) => [l.try_no, l.outcome]),
      [
        [1, 'timeout'],
        [2, 'timeout'],
      ],
    );

    replies.set('/role-404', () => ({ status: 404, body: '{}' }));
    const c = await appWith({ roleQuery: '/role-404' });
    const rejected = await svc.services.gameCalls.roleQuery(c, { roleId: 'nope', serverId: 's1' });
    assert.equal(!rejected.ok && rejected.reason, 'rejected');
    assert.equal(callsTo('/role-404').length, 1, 'a 4xx answer is not retried');
  });

  it('role query: not configured', async () => {
    const a = await appWith({});
    const out = await svc.services.gameCalls.roleQuery(a, { roleId: 'r', serverId: 's' });
    assert.equal(!out.ok && out.reason, 'not_configured');
  });

  it('role list: roles on 200; 401 with empty results is no role; other statuses pass msg to the player', async () => {
    const results = [
      { roleId: 'r-1', name: 'Hero', avatar: '', serverId: 's1' },
      { roleId: 'r-2', name: 'Mage', avatar: '', roleLv: 3, serverId: 's1', serverName: 'One' },
    ];
    replies.set('/roles', () => ({ status: 200, body: JSON.stringify({ code: 0, msg: 'ok', detail: '', results }) }));
    replies.set('/roles-none', () => ({
      status: 401,
      body: JSON.stringify({ code: 1, msg: 'no role', detail: '', results: [] }),
    }));
    replies.set('/roles-maint', () => ({
      status: 503,
      body: JSON.stringify({ code: 9, msg: 'Server under maintenance', detail: 'db', results: [] }),
    }));
    const a = await appWith({ roleList: '/roles' });
    const ok = await svc.services.gameCalls.roleList(a, { userId: 'u-1', serverId: 's1' });
    assert.equal(ok.ok, true);
    assert.deepEqual(ok.ok && ok.roles.map((r) => [r.roleId, r.roleLv, r.serverName]), [
      ['r-1', null, null],
      ['r-2', 3, 'One'],
    ]);
    const call = callsTo('/roles')[0]!;
    assert.equal(call.verified, true);
    assert.deepEqual(Object.fromEntries(new URL(call.url, 'http://x').searchParams), { userId: 'u-1', serverId: 's1' });
    await svc.services.gameCalls.roleList(a, { userId: 'u-1' });
    assert.deepEqual(
      Object.fromEntries(new URL(callsTo('/roles')[1]!.url, 'http://x').searchParams),
      { userId: 'u-1' },
      'serverId is optional',
    );

    const none = await svc.services.gameCalls.roleList(await appWith({ roleList: '/roles-none' }), { userId: 'u-9' });
    assert.equal(!none.ok && none.reason, 'no_role');
    const maint = await svc.services.gameCalls.roleList(await appWith({ roleList: '/roles-maint' }), { userId: 'u-1' });
    assert.ok(!maint.ok && maint.reason === 'rejected');
    assert.equal(!maint.ok && 'msg' in maint ? maint.msg : undefined, 'Server under maintenance');
    assert.equal(!maint.ok && maint.httpStatus, 503);
  });

  it('pre-order check: a signed POST of the 4.10 body; 200 allows', async () => {
    replies.set('/pre', () => ({ status: 200, body: '' }));
    const a = await appWith({ preOrder: '/pre' });
    const out = await svc.services.gameCalls.preOrderCheck(a, {
      roleId: 'r-1',
      serverId: 's1',
      productSkuCode: 'gems.100',
      quantity: 3,
      extras: 'x',
    });
    assert.deepEqual(out, { allowed: true, checked: true });
    const call = callsTo('/pre')[0]!;
    assert.equal(call.method, 'POST');
    assert.equal(call.verified, true, call.verifyError);
    assert.equal(call.headers['content-type'], 'application/json');
    assert.equal(call.body, '{"roleId":"r-1","serverId":"s1","productSkuCode":"gems.100","quantity":3,"extras":"x"}');
  });

  it('pre-order check: any other status blocks, passing code, msg and detail through', async () => {
    replies.set('/pre-limit', () => ({
      status: 400,
      body: JSON.stringify({ code: 105, msg: 'Limit reached', detail: 'daily cap 5' }),
    }));
    replies.set('/pre-custom', () => ({
      status: 409,
      body: JSON.stringify({ code: 9001, msg: 'Event not started', detail: 'custom' }),
    }));
    replies.set('/pre-bare', () => ({ status: 500, body: 'oops' }));
    replies.set('/pre-201', () => ({ status: 201, body: '' }));
    const limit = await svc.services.gameCalls.preOrderCheck(await appWith({ preOrder: '/pre-limit' }), {
      roleId: 'r',
      serverId: 's',
      productSkuCode: 'p',
      quantity: 1,
    });
    assert.deepEqual(limit, {
      allowed: false,
      reason: 'blocked',
      httpStatus: 400,
      code: PreOrderCodes.PURCHASE_LIMIT_REACHED,
      msg: 'Limit reached',
      detail: 'daily cap 5',
      meaning: 'Order failed, purchase limit for the product reached.',
    });
    const custom = await svc.services.gameCalls.preOrderCheck(await appWith({ preOrder: '/pre-custom' }), {
      roleId: 'r',
      serverId: 's',
      productSkuCode: 'p',
      quantity: 1,
    });
    assert.deepEqual(custom, {
      allowed: false,
      reason: 'blocked',
      httpStatus: 409,
      code: 9001,
      msg: 'Event not started',
      detail: 'custom',
      meaning: null,
    });
    const bare = await svc.services.gameCalls.preOrderCheck(await appWith({ preOrder: '/pre-bare' }), {
      roleId: 'r',
      serverId: 's',
      productSkuCode: 'p',
      quantity: 1,
    });
    assert.deepEqual(bare, {
      allowed: false,
      reason: 'blocked',
      httpStatus: 500,
      code: null,
      msg: null,
      detail: null,
      meaning: null,
    });
    assert.equal(callsTo('/pre-bare').length, 1, 'an answer is not retried');
    const created = await svc.services.gameCalls.preOrderCheck(await appWith({ preOrder: '/pre-201' }), {
      roleId: 'r',
      serverId: 's',
      productSkuCode: 'p',
      quantity: 1,
    });
    assert.equal(created.allowed, false);
  });

  it('pre-order check: unreachable is retried once, then fails; not configured allows unchecked', async () => {
    replies.set('/pre-down', () => ({ destroy: true }));
    const out = await svc.services.gameCalls.preOrderCheck(await appWith({ preOrder: '/pre-down' }), {
      roleId: 'r',
      serverId: 's',
      productSkuCode: 'p',
      quantity: 1,
    });
    assert.equal(out.allowed, false);
    assert.equal(!out.allowed && out.reason, 'unreachable');
    assert.equal(callsTo('/pre-down').length, 2);
    assert.deepEqual(
      await svc.services.gameCalls.preOrderCheck(await appWith({}), {
        roleId: 'r',
        serverId: 's',
        productSkuCode: 'p',
        quantity: 1,
      }),
      { allowed: true, checked: false },
    );
  });
});
