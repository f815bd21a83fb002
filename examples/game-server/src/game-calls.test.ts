import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PreOrderCode } from '@game-platform/sdk';
import { PLATFORM_PATHS } from './platform-calls.js';
import { paymentBody, refundBody, role, startTestGame, type TestGame } from './game.testlib.js';

describe('role query, role list, pre-order check (4.8-4.10), cancellation (6)', () => {
  let game: TestGame;
  before(async () => {
    game = await startTestGame({ ROLES_SEED: JSON.stringify([role('u1', 'r1'), role('u1', 'r2', 's2')]) });
  });
  after(() => game.close());

  test('role query answers the role with the platform user id that owns it', async () => {
    const r = await game.call('GET', PLATFORM_PATHS.roleQuery, { query: { roleId: 'r1', serverId: 's1' } });
    assert.deepEqual(r, {
      status: 200,
      body: {
        userId: 'u1',
        roleId: 'r1',
        name: 'Hero r1',
        avatar: 'https://game.example/a.png',
        roleLv: 12,
        serverId: 's1',
        serverName: 'Server One',
      },
    });
  });

  test('role query of an unknown role, or one on another server, is a 404', async () => {
    assert.equal(
      (await game.call('GET', PLATFORM_PATHS.roleQuery, { query: { roleId: 'nope', serverId: 's1' } })).status,
      404,
    );
    assert.equal(
      (await game.call('GET', PLATFORM_PATHS.roleQuery, { query: { roleId: 'r1', serverId: 's2' } })).status,
      404,
    );
  });

  test('role query without serverId is a 400 naming it', async () => {
    const r = await game.call('GET', PLATFORM_PATHS.roleQuery, { query: { roleId: 'r1' } });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /serverId/);
  });

  test('role list: all roles of the user, or those on one server', async () => {
    const all = await game.call('GET', PLATFORM_PATHS.roleList, { query: { userId: 'u1' } });
    assert.equal(all.status, 200);
    assert.equal(all.body.code, 200);
    assert.deepEqual(
      all.body.results.map((r: any) => [r.roleId, r.serverId]),
      [
        ['r1', 's1'],
        ['r2', 's2'],
      ],
    );
    const one = await game.call('GET', PLATFORM_PATHS.roleList, { query: { userId: 'u1', serverId: 's2' } });
    assert.deepEqual(one.body.results, [
      {
        roleId: 'r2',
        name: 'Hero r2',
        avatar: 'https://game.example/a.png',
        roleLv: 12,
        serverId: 's2',
        serverName: 'Server One',
      },
    ]);
  });

  test('role list of a user without roles is a 401 with empty results (4.9)', async () => {
    const r = await game.call('GET', PLATFORM_PATHS.roleList, { query: { userId: 'nobody' } });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body.results, []);
    assert.equal(typeof r.body.msg, 'string');
  });

  const check = (body: object) => game.call('POST', PLATFORM_PATHS.preOrderCheck, { body });

  test('pre-order check allows a known role and product', async () => {
    const r = await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'gems_100', quantity: 5 });
    assert.equal(r.status, 200);
  });

  test('pre-order check: unknown role 101, unknown product 103', async () => {
    const r1 = await check({ roleId: 'ghost', serverId: 's1', productSkuCode: 'gems_100', quantity: 1 });
    assert.equal(r1.status, 400);
    assert.equal(r1.body.code, PreOrderCode.INVALID_ROLE_ID);
    const r3 = await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'mystery_box', quantity: 1 });
    assert.equal(r3.body.code, PreOrderCode.PRODUCT_NOT_FOUND);
    assert.match(r3.body.detail, /mystery_box/);
  });

  test('pre-order check enforces the per-role purchase limit with quantity, answering 105', async () => {
    // starter_pack: limit 1 per role. Two at once is over the limit already.
    const two = await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'starter_pack', quantity: 2 });
    assert.equal(two.status, 400);
    assert.equal(two.body.code, PreOrderCode.PURCHASE_LIMIT_REACHED);
    assert.equal(
      (await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'starter_pack', quantity: 1 })).status,
      200,
    );
    const pay = paymentBody({ trxNo: 700, userId: 'u1', roleId: 'r1', products: [['starter_pack', 1]] });
    await game.call('POST', PLATFORM_PATHS.paymentCallback, { body: pay });
    const again = await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'starter_pack', quantity: 1 });
    assert.equal(again.body.code, PreOrderCode.PURCHASE_LIMIT_REACHED);
    assert.match(again.body.detail, /holds 1/);
    // The limit is per role: the user's other role may still buy one.
    assert.equal(
      (await check({ roleId: 'r2', serverId: 's2', productSkuCode: 'starter_pack', quantity: 1 })).status,
      200,
    );
    // A refunded purchase no longer counts.
    await game.call('POST', PLATFORM_PATHS.paymentCallback, { body: refundBody(pay, 9700) });
    assert.equal(
      (await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'starter_pack', quantity: 1 })).status,
      200,
    );
  });

  test('pre-order check refuses a malformed body with 400 naming the field', async () => {
    const r = await check({ roleId: 'r1', serverId: 's1', productSkuCode: 'gems_100', quantity: 0 });
    assert.equal(r.status, 400);
    assert.match(r.body.detail, /quantity/);
    const r2 = await check({ roleId: 'r1', serverId: 's1', quantity: 1 });
    assert.match(r2.body.detail, /productSkuCode/);
  });

  test('unknown paths are 404 after verification', async () => {
    assert.equal((await game.call('GET', '/nothing/here')).status, 404);
    assert.equal((await game.call('GET', PLATFORM_PATHS.paymentCallback)).status, 404);
  });

  test("the cancellation callback deletes the player's roles and items, once", async () => {
    await game.ops('POST', '/ops/roles', role('u9', 'r9'));
    await game.call('POST', PLATFORM_PATHS.paymentCallback, {
      body: paymentBody({ trxNo: 710, userId: 'u9', roleId: 'r9', products: [['gems_100', 1]] }),
    });
    const body = {
      eventType: 'account_cancellation',
      notifyId: 88,
      notifyTime: Date.now(),
      appId: 7,
      userId: 'u9',
      userCode: '000009XY',
      requestTime: Date.now() - 1000,
      cancelTime: Date.now(),
    };
    assert.deepEqual(await game.call('POST', PLATFORM_PATHS.cancellationCallback, { body }), {
      status: 200,
      body: { code: 'SUCCESS', msg: 'cancelled' },
    });
    assert.equal((await game.call('POST', PLATFORM_PATHS.cancellationCallback, { body })).body.msg, 'already handled');
    const p = (await game.ops('GET', '/ops/players/u9')).body;
    assert.deepEqual(p.roles, []);
    assert.deepEqual(p.inventory, []);
    assert.equal(p.payments.length, 1, 'the payment ledger is kept');
    assert.equal((await game.call('GET', PLATFORM_PATHS.roleList, { query: { userId: 'u9' } })).status, 401);
    const bad = await game.call('POST', PLATFORM_PATHS.cancellationCallback, { body: { notifyId: 89, appId: 7 } });
    assert.equal(bad.status, 400);
  });
});
