import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guestLogin, macRequest, type Login } from '../testing/accounts/accounts.js';
import { platformPublicKeys, startGameServer, type GameRequest, type GameServer } from '../testing/game-server.js';
import { startTestService, type TestService } from '../testing/service.js';
import { PaymentNotification, PendingSupplement, RefundNotification } from './notifications.schemas.js';
import { SANDBOX, appWithProducts, assertSchema, details, payOk } from '../testing/orders/orders.js';

/**
 * The whole flow over real HTTP, against a real game server (node:http) that
 * verifies every platform call with the SDK's verifyCallback (5.3): login,
 * order placement (role query, pre-order check), sandbox payment, payment
 * notification, store refund, refund notification, arrears, supplement paid,
 * arrears empty, and no second payment notification.
 */
describe('orders end to end: login to supplement, against a real game server', () => {
  let svc: TestService;
  let game: GameServer;
  let app: any;
  let login: Login;
  before(async () => {
    svc = await startTestService({ ...SANDBOX, DELIVERY_POLL_MS: '50' });
    game = await startGameServer(await platformPublicKeys(svc.services), (req) => {
      const path = req.url.split('?')[0];
      if (req.method === 'GET' && path === '/game/role') {
        const q = new URL(req.url, 'http://x').searchParams;
        return {
          status: 200,
          body: JSON.stringify({
            userId: login.userId,
            roleId: q.get('roleId'),
            name: 'Aria',
            avatar: 'https://game.example/a.png',
            roleLv: 42,
            serverId: q.get('serverId'),
            serverName: 'Server 1',
          }),
        };
      }
      if (req.method === 'POST' && path === '/game/pre-order') return { status: 200, body: '' };
      if (req.method === 'POST' && path === '/game/pay/callback')
        return { status: 200, body: '{"code":"SUCCESS","msg":"ok"}' };
      return { status: 404, body: '{}' };
    });
    app = await appWithProducts(svc, {
      callbackUrls: { default: `${game.url}/game/pay/callback` },
      roleQueryUrl: `${game.url}/game/role`,
      preOrderCheckUrl: `${game.url}/game/pre-order`,
    });
  });
  after(async () => {
    await svc.close();
    await game.close();
  });

  const callbacks = () => game.requests.filter((r) => r.url === '/game/pay/callback');
  const bodyOf = (r: GameRequest) => JSON.parse(r.body);

  it('runs the full flow, every call signed and verified', async () => {
    // Login.
    login = await guestLogin(svc, app.clientId);

    // Order placement: the game confirms the role (4.8) and allows the order (4.10) first.
    const orderUri = `/order/v1/client/orders?clientId=${app.clientId}`;
    const placement = {
      orderId: 'game-order-0001',
      products: [{ productCode: 'gems_100', quantity: 1 }],
      game_server_id: 's1',
      game_role_id: 'role-9',
      game_ext: '{"from":"shop"}',
      platform: 1,
      channel: 1,
      paymentType: 0,
      sdkVersion: '6.9.0',
    };
    const placed = await macRequest(svc, 'POST', orderUri, login, { body: placement });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.equal(placed.body.code, 200);
    const order = placed.body.data.order;
    assert.deepEqual(
      [order.status, order.outTrxNo, order.userId, placed.body.data.created],
      [2, 'game-order-0001', login.userId, true],
    );
    const [roleQuery, preOrder] = game.requests;
    assert.equal(roleQuery!.method, 'GET');
    assert.deepEqual(Object.fromEntries(new URL(roleQuery!.url, 'http://x').searchParams), {
      roleId: 'role-9',
      serverId: 's1',
    });
    assert.equal(preOrder!.method, 'POST');
    assert.deepEqual(JSON.parse(preOrder!.body), {
      roleId: 'role-9',
      serverId: 's1',
      productSkuCode: 'gems_100',
      quantity: 1,
    });

    // Sandbox payment, then the payment notification (2.4) arrives at the game.
    await payOk(svc, order.trxNo, {
      bankTrxNo: 'apple-tx-1',
      clientAmount: 7.49,
      clientCurrency: 'EUR',
      clientRegion: 'DE',
    });
    await game.waitFor(() => callbacks().length === 1, 10_000, 'the payment notification');
    const payment = bodyOf(callbacks()[0]!);
    assertSchema(PaymentNotification, payment, '2.4 body on the wire');
    assert.deepEqual(
      {
        trxNo: payment.trxNo,
        trxType: payment.trxType,
        outTrxNo: payment.outTrxNo,
        userId: payment.userId,
        appId: payment.appId,
        status: payment.status,
        totalAmount: payment.totalAmount,
        currency: payment.currency,
      },
      {
        trxNo: order.trxNo,
        trxType: 0,
        outTrxNo: 'game-order-0001',
        userId: login.userId,
        appId: app.appId,
        status: 0,
        totalAmount: 6.99,
        currency: 'USD',
      },
    );
    assert.deepEqual(
      [payment.clientAmount, payment.clientCurrency, payment.clientRegion, payment.bankTrxNo],
      [7.49, 'EUR', 'DE', 'apple-tx-1'],
    );
    assert.deepEqual(payment.products, [{ productCode: 'gems_100', quantity: 1, channelSkuCode: 'com.game.gems100' }]);
    assert.deepEqual(payment.attach, { gameServerId: 's1', gameRoleId: 'role-9', gameExt: '{"from":"shop"}' });
    // The game accepted it: the items count as granted.
    await waitFor(
      async () => (await details(svc, order.trxNo)).notifications[0].state === 'delivered',
      'the payment notification delivered',
    );
    const [shown] = (await details(svc, order.trxNo)).notifications;
    assert.deepEqual(
      [shown.notifyId, shown.attemptLog.length, shown.attemptLog[0].outcome, shown.attemptLog[0].httpStatus],
      [payment.notifyId, 1, 'delivered', 200],
    );

    // Store refund, then the refund notification (2.5).
    const refund = await svc.admin('POST', `/sandbox/orders/${order.trxNo}/refund`, { bankRefundNo: 'apple-refund-1' });
    assert.equal(refund.status, 201, JSON.stringify(refund.body));
    await game.waitFor(() => callbacks().length === 2, 10_000, 'the refund notification');
    const refunded = bodyOf(callbacks()[1]!);
    assertSchema(RefundNotification, refunded, '2.5 body on the wire');
    assert.equal(refunded.trxType, 2);
    assert.equal(refunded.trxNo, refund.body.trxNo);
    assert.notEqual(refunded.trxNo, refunded.originalTrxNo);
    assert.equal(refunded.originalTrxNo, order.trxNo);
    assert.deepEqual(refunded.attach, payment.attach);
    assert.equal(refunded.totalAmount, 6.99);

    // Arrears (4.5): the pending supplement with every field of 2.6.
    const arrearsUri = `/order/v1/user/arrears?clientId=${app.clientId}`;
    const arrears = await macRequest(svc, 'GET', arrearsUri, login);
    assert.equal(arrears.status, 200, JSON.stringify(arrears.body));
    assert.deepEqual(
      [arrears.body.code, typeof arrears.body.msg, typeof arrears.body.detail],
      [200, 'string', 'string'],
    );
    assert.equal(arrears.body.data.list.length, 1);
    const owed = arrears.body.data.list[0];
    assertSchema(PendingSupplement, owed, '2.6 pending supplement');
    assert.deepEqual(Object.keys(owed), [
      'tradeNo',
      'productId',
      'currency',
      'outTradeNo',
      'bankTradeNo',
      'refundAmount',
      'channelId',
      'channelType',
      'supplyStatus',
      'platform',
    ]);
    assert.equal(owed.tradeNo, refund.body.trxNo);
    assert.equal(owed.productId, 'com.game.gems100');
    assert.equal(owed.currency, 'USD');
    assert.match(owed.outTradeNo, /^S[0-9a-f]{32}$/);
    assert.equal(owed.bankTradeNo, 'apple-tx-1');
    assert.equal(owed.refundAmount, 6.99);
    assert.deepEqual([owed.channelId, owed.channelType, owed.supplyStatus, owed.platform], [1, 1, 1, 1]);

    // The player pays the supplement.
    const payUri = `/order/v1/user/arrears/${owed.tradeNo}/pay?clientId=${app.clientId}`;
    const opened = await macRequest(svc, 'POST', payUri, login);
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const supplementOrder = opened.body.data.order;
    assert.deepEqual(
      [supplementOrder.trxType, supplementOrder.status, supplementOrder.originalTrxNo, supplementOrder.totalAmount],
      [1, 2, owed.tradeNo, 6.99],
    );
    const again = await macRequest(svc, 'POST', payUri, login);
    assert.deepEqual(
      [again.body.data.order.trxNo, again.body.data.created],
      [supplementOrder.trxNo, false],
      'asking again answers the open payment',
    );
    await payOk(svc, supplementOrder.trxNo, { bankTrxNo: 'apple-tx-2' });

    // Arrears empty; the supplement is supplemented; no second payment notification.
    const after = await macRequest(svc, 'GET', arrearsUri, login);
    assert.deepEqual(after.body.data, { list: [] });
    const d = await details(svc, order.trxNo);
    assert.deepEqual([d.supplement.supplyStatus, d.supplement.payingTrxNo], [2, supplementOrder.trxNo]);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(callbacks().length, 2, 'a paid supplement sends no payment notification (2.5 rule 3)');
    assert.equal((await details(svc, supplementOrder.trxNo)).notifications.length, 0);
    assert.deepEqual(
      callbacks().map((r) => bodyOf(r).trxType),
      [0, 2],
    );

    // Every call the game received carried a valid platform signature.
    assert.ok(game.requests.length >= 4);
    for (const r of game.requests) assert.equal(r.verified, true, `${r.method} ${r.url}: ${r.verifyError}`);
  });
});

async function waitFor(predicate: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
