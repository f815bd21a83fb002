import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { PLATFORM_PATHS } from './platform-calls.js';
import { paymentBody, refundBody, role, startTestGame, type TestGame } from './game.testlib.js';

const CB = PLATFORM_PATHS.paymentCallback;

describe('payment and refund callbacks (4.7, 2.4, 2.5)', () => {
  let game: TestGame;
  before(async () => {
    game = await startTestGame();
  });
  after(async () => {
    await game.close();
    fs.rmSync(game.dataDir, { recursive: true, force: true });
  });

  const player = async (userId: string) => (await game.ops('GET', `/ops/players/${userId}`)).body;

  test('a payment grants its items once per trxNo, however often it is delivered', async () => {
    await game.ops('POST', '/ops/roles', role('u1', 'r1'));
    const body = paymentBody({ trxNo: 501, userId: 'u1', roleId: 'r1', products: [['gems_100', 2]] });
    const first = await game.call('POST', CB, { body });
    assert.deepEqual(first, { status: 200, body: { code: 'SUCCESS', msg: 'granted' } });
    // The platform retries with a fresh nonce and signature; same body, same trxNo.
    const again = await game.call('POST', CB, { body });
    assert.deepEqual(again, { status: 200, body: { code: 'SUCCESS', msg: 'already handled' } });
    const p = await player('u1');
    assert.deepEqual(p.inventory, [{ roleId: 'r1', serverId: 's1', item: 'gems', quantity: 200 }]);
    assert.equal(p.payments.length, 1);
    assert.deepEqual(p.payments[0].items, { gems: 200 });
    assert.equal(game.server.counters.payment, 2);
  });

  test('concurrent deliveries of one payment grant once', async () => {
    const body = paymentBody({ trxNo: 502, userId: 'u2', roleId: 'r2', products: [['gems_500', 1]] });
    const answers = await Promise.all([1, 2, 3, 4].map(() => game.call('POST', CB, { body })));
    assert.ok(answers.every((a) => a.status === 200));
    assert.equal(answers.filter((a) => a.body.msg === 'granted').length, 1);
    assert.deepEqual((await player('u2')).inventory, [{ roleId: 'r2', serverId: 's1', item: 'gems', quantity: 500 }]);
  });

  test('a refund revokes what the payment granted and is never granted itself', async () => {
    const pay = paymentBody({ trxNo: 510, userId: 'u3', roleId: 'r3', products: [['starter_pack', 1]] });
    assert.equal((await game.call('POST', CB, { body: pay })).body.msg, 'granted');
    assert.deepEqual(
      (await player('u3')).inventory.map((i: any) => [i.item, i.quantity]),
      [
        ['gems', 50],
        ['sword', 1],
      ],
    );
    const refund = refundBody(pay, 9510);
    assert.deepEqual(await game.call('POST', CB, { body: refund }), {
      status: 200,
      body: { code: 'SUCCESS', msg: 'revoked' },
    });
    assert.equal((await game.call('POST', CB, { body: refund })).body.msg, 'already handled');
    const p = await player('u3');
    assert.deepEqual(p.inventory, []);
    assert.deepEqual(p.debts, []);
    assert.equal(p.payments[0].state, 'refunded');
    assert.deepEqual(p.refunds, [
      { trxNo: 9510, originalTrxNo: 510, state: 'revoked', revoked: { gems: 50, sword: 1 }, owed: {} },
    ]);
  });

  test('items already spent when the refund arrives become debt', async () => {
    const pay = paymentBody({ trxNo: 520, userId: 'u4', roleId: 'r4', products: [['gems_100', 1]] });
    await game.call('POST', CB, { body: pay });
    assert.equal(
      (await game.ops('POST', '/ops/players/u4/spend', { roleId: 'r4', serverId: 's1', item: 'gems', quantity: 70 }))
        .status,
      200,
    );
    assert.equal(
      (await game.ops('POST', '/ops/players/u4/spend', { roleId: 'r4', serverId: 's1', item: 'gems', quantity: 31 }))
        .status,
      409,
    );
    await game.call('POST', CB, { body: refundBody(pay, 9520) });
    const p = await player('u4');
    assert.deepEqual(p.inventory, []);
    assert.deepEqual(p.debts, [{ roleId: 'r4', serverId: 's1', item: 'gems', quantity: 70 }]);
    assert.deepEqual(p.refunds[0].revoked, { gems: 30 });
    assert.deepEqual(p.refunds[0].owed, { gems: 70 });
  });

  test('a refund that arrives before its payment: the late payment grants nothing', async () => {
    const pay = paymentBody({ trxNo: 530, userId: 'u5', roleId: 'r5', products: [['gems_100', 1]] });
    assert.equal((await game.call('POST', CB, { body: refundBody(pay, 9530) })).body.msg, 'awaiting_payment');
    assert.equal((await game.call('POST', CB, { body: pay })).body.msg, 'not_granted');
    const p = await player('u5');
    assert.deepEqual(p.inventory, []);
    assert.equal(p.refunds[0].state, 'nothing_granted');
    assert.equal(p.payments[0].state, 'not_granted');
  });

  test('a refund of a payment this game never saw grants nothing, although it lists products', async () => {
    // A refund of an order this game never saw (trxType 2) must not grant, even though it carries products.
    const orphan = refundBody(
      paymentBody({ trxNo: 540, userId: 'u6', roleId: 'r6', products: [['gems_500', 3]] }),
      9540,
    );
    assert.equal((await game.call('POST', CB, { body: orphan })).status, 200);
    assert.deepEqual((await player('u6')).inventory, []);
    assert.deepEqual((await player('u6')).payments, []);
  });

  test('an unknown trxType is accepted and kept, never granted (9)', async () => {
    const body = {
      ...paymentBody({ trxNo: 550, userId: 'u7', roleId: 'r7', products: [['gems_100', 1]] }),
      trxType: 7,
    };
    assert.deepEqual(await game.call('POST', CB, { body }), { status: 200, body: { code: 'SUCCESS', msg: 'kept' } });
    assert.deepEqual((await player('u7')).inventory, []);
    assert.equal((await game.ops('GET', '/ops/status')).body.stored.otherNotifications, 1);
  });

  test('a payment whose status is not "succeeded" grants nothing', async () => {
    const body = paymentBody({ trxNo: 560, userId: 'u8', roleId: 'r8', products: [['gems_100', 1]], status: 3 });
    assert.equal((await game.call('POST', CB, { body })).body.msg, 'not_succeeded');
    assert.deepEqual((await player('u8')).inventory, []);
  });

  test('a payment without attach is granted to the account; unknown products are recorded, not granted', async () => {
    const body = paymentBody({
      trxNo: 570,
      userId: 'u9',
      products: [
        ['gems_100', 1],
        ['mystery_box', 1],
      ],
    });
    assert.equal((await game.call('POST', CB, { body })).body.msg, 'granted');
    const p = await player('u9');
    assert.deepEqual(p.inventory, [{ roleId: '', serverId: '', item: 'gems', quantity: 100 }]);
    assert.deepEqual(p.payments[0].products, [
      { productCode: 'gems_100', quantity: 1 },
      { productCode: 'mystery_box', quantity: 1 },
    ]);
  });

  test('a malformed notification is refused with 400 naming the field, and nothing is written', async () => {
    const before = (await game.ops('GET', '/ops/status')).body.stored;
    const body = paymentBody({ trxNo: 580, userId: 'u10', roleId: 'r10', products: [['gems_100', 1]] });
    delete body.trxNo;
    const r = await game.call('POST', CB, { body });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'SUCCESS');
    assert.match(r.body.msg, /trxNo/);
    const r2 = await game.call('POST', CB, {
      body: {
        ...paymentBody({ trxNo: 581, userId: 'u10', products: [['gems_100', 1]] }),
        products: [{ productCode: 'gems_100', quantity: 'x' }],
      },
    });
    assert.equal(r2.status, 400);
    assert.match(r2.body.msg, /products\.0\.quantity/);
    assert.deepEqual((await game.ops('GET', '/ops/status')).body.stored, before);
  });

  test('the grant survives a restart: a repeat after restart is still a repeat', async () => {
    const dataDir = game.dataDir;
    const body = paymentBody({ trxNo: 590, userId: 'u11', roleId: 'r11', products: [['gems_100', 1]] });
    await game.call('POST', CB, { body });
    await game.server.close();
    const restarted = await startTestGame({}, { key: game.key, dataDir });
    try {
      assert.equal((await restarted.call('POST', CB, { body })).body.msg, 'already handled');
      assert.deepEqual((await restarted.ops('GET', '/ops/players/u11')).body.inventory, [
        { roleId: 'r11', serverId: 's1', item: 'gems', quantity: 100 },
      ]);
    } finally {
      await restarted.close();
    }
    game = await startTestGame({}, { key: game.key, dataDir });
  });
});
