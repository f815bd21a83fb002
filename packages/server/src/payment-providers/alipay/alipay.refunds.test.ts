import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { count } from '../../testing/orders/orders.js';
import {
  assertRefunded,
  refundNotificationsOf,
  waitGranted,
} from '../../testing/payment-providers/payment-providers.js';
import {
  mainlandSession,
  placeAlipayOrder,
  reachCashier,
  startAlipay,
  type AlipayFixture,
} from '../../testing/payment-providers/alipay.js';

/**
 * Refunds Alipay notifies (trade_status_sync with refund_fee, the trade's refunded total) reach the game (issue 39):
 * one signed 2.5 per refund request (out_biz_no), a resent notify changing nothing, hostile notifies refused `fail`
 * with nothing refunded. (Alipay sends no dispute notifications: a complaint ends in a refund, which comes here.)
 */
describe('Alipay: refunds made at Alipay', () => {
  let f: AlipayFixture;
  let role = 0;
  before(async () => {
    f = await startAlipay();
  });
  after(async () => {
    await f?.close();
  });

  /** A paid Alipay trade (quantity x 6.00 CNY) whose 2.4 the game accepted. */
  async function paidTrade(quantity = 1) {
    const { page } = await mainlandSession(f, `refund-${++role}`);
    const { trxNo, url } = await placeAlipayOrder(f, page, quantity);
    const trade = await reachCashier(f, url);
    await f.alipay.pay(trade);
    await waitGranted(f, trxNo);
    return { trxNo, trade };
  }

  it('a partial refund, then the rest (TRADE_CLOSED): a 2.5 of each part; a resent notify changes nothing', async () => {
    const { trxNo, trade } = await paidTrade(3);
    const first = await f.alipay.refund(trade, '6.00');
    assert.deepEqual([first.delivery!.status, first.delivery!.body], [200, 'success']);
    await assertRefunded(f, trxNo, [{ kind: 'refund', amount: 6 }]);
    const rest = await f.alipay.refund(trade);
    assert.equal(rest.params.trade_status, 'TRADE_CLOSED');
    assert.equal(rest.params.refund_fee, '18.00', "Alipay's refund_fee: the trade's refunded total");
    assert.deepEqual([rest.delivery!.status, rest.delivery!.body], [200, 'success']);
    const d = await assertRefunded(f, trxNo, [
      { kind: 'refund', amount: 6 },
      { kind: 'refund', amount: 12 },
    ]);
    assert.equal(d.refunds[1].bankTrxNo, `${trade.tradeNo}:${rest.params.out_biz_no}`);
    assert.equal(d.supplement, null, "a merchant's refund owes no supplement");
    // Alipay resends both (it missed our answers): nothing more.
    for (const { params } of [first, rest]) {
      const again = await f.alipay.post(trade.notifyUrl!, params);
      assert.deepEqual([again.status, again.body], [200, 'success']);
    }
    await assertRefunded(f, trxNo, [
      { kind: 'refund', amount: 6 },
      { kind: 'refund', amount: 12 },
    ]);
    const messages = await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`);
    assert.deepEqual(
      messages.body.messages
        .map((m: any) => [m.type, m.outcome, m.reason, m.amount])
        .reverse()
        .slice(1),
      [
        ['trade_status_sync:TRADE_SUCCESS', 'applied', 'refunded', 6],
        ['trade_status_sync:TRADE_CLOSED', 'applied', 'refunded', 18],
      ],
    );
  });

  it('hostile refund notifies are refused (4xx, `fail`) and refund nothing', async () => {
    const { trxNo, trade } = await paidTrade(1);
    const { params } = await f.alipay.refund(trade, '1.00', { send: false });
    const beforeOrders = await count(f.svc, 'orders');
    const resign = (change: Record<string, string>) =>
      f.alipay.signNotify({
        ...params,
        notify_id: `${params.notify_id}x${Math.random().toString(36).slice(2, 8)}`,
        ...change,
      });
    const hostile: Array<[string, Record<string, string>, number]> = [
      ['negative refund_fee', resign({ refund_fee: '-1.00' }), 400],
      ['refund_fee past 2^53 fen', resign({ refund_fee: '90071992547409.93' }), 400],
      ['three decimals', resign({ refund_fee: '1.001' }), 400],
      ['NUL in out_biz_no', resign({ out_biz_no: 'RF\u0000x' }), 400],
      ['gmt_refund not a time', resign({ gmt_refund: 'yesterday' }), 400],
      ['more than was paid', resign({ refund_fee: '6.01' }), 409],
      ['another currency', resign({ trans_currency: 'USD' }), 409],
    ];
    for (const [what, body, status] of hostile) {
      const res = await f.alipay.post(trade.notifyUrl!, body);
      assert.equal(res.status, status, `${what}: ${res.body}`);
      // NUL is refused by every route before the body is read (the 2.3 envelope); the rest answer Alipay's `fail`.
      if (!what.startsWith('NUL')) assert.equal(res.body, 'fail', what);
    }
    // Signed with a key that is not Alipay's.
    const forged = { ...params, sign: Buffer.from('forged').toString('base64') };
    assert.equal((await f.alipay.post(trade.notifyUrl!, forged)).status, 400);
    assert.equal(await count(f.svc, 'orders'), beforeOrders, 'nothing refunded');
    assert.equal(refundNotificationsOf(f, trxNo).length, 0);
  });

  it('concurrent copies of one refund notify (PostgreSQL: many rounds) give one refund and one 2.5', async () => {
    const rounds = f.svc.services.database.dialect.name === 'postgres' ? 8 : 2;
    for (let round = 0; round < rounds; round++) {
      const { trxNo, trade } = await paidTrade(1);
      const { params } = await f.alipay.refund(trade, '2.50', { send: false });
      const answers = await Promise.all(Array.from({ length: 8 }, () => f.alipay.post(trade.notifyUrl!, params)));
      assert.deepEqual(
        answers.map((a) => [a.status, a.body]),
        Array(8).fill([200, 'success']),
      );
      await assertRefunded(f, trxNo, [{ kind: 'refund', amount: 2.5 }]);
    }
  });
});
