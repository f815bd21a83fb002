import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WechatpayFake } from '../../testing/wechatpay-fake.js';
import { count } from '../../testing/orders/orders.js';
import {
  assertRefunded,
  refundNotificationsOf,
  waitGranted,
  webViewSession,
} from '../../testing/payment-providers/payment-providers.js';
import { placeWechatOrder, startWechatpay, type WechatpayFixture } from '../../testing/payment-providers/wechatpay.js';

/**
 * Refunds WeChat Pay notifies (REFUND.SUCCESS, its resource AEAD_AES_256_GCM under the API v3 key, signed with the
 * platform key) reach the game (issue 39): one signed 2.5 per refund_id, replays and concurrent copies changing
 * nothing, hostile resources refused with nothing refunded. (WeChat Pay sends no dispute notifications: a complaint
 * ends in a refund, which comes here.)
 */
describe('WeChat Pay: refunds made at WeChat Pay', () => {
  let f: WechatpayFixture;
  let role = 0;
  before(async () => {
    f = await startWechatpay();
  });
  after(async () => {
    await f?.close();
  });

  /** A paid WeChat Pay transaction (quantity x 6.00 CNY) whose 2.4 the game accepted. */
  async function paidOrder(quantity = 1) {
    const { page } = await webViewSession(f, `refund-${++role}`, f.mainland);
    const o = await placeWechatOrder(f, page, 'desktop', quantity);
    await f.wechat.pay(o.outTradeNo);
    await waitGranted(f, o.trxNo);
    return o;
  }
  const url = () => f.webhookUrl(f.mainland.appId);
  const answer = (d: { status: number; body: string }) => ({
    status: d.status,
    body: d.body ? JSON.parse(d.body) : null,
  });

  it('a partial refund, then the rest: a 2.5 of each; a resent notification changes nothing', async () => {
    const o = await paidOrder(2);
    const first = await f.wechat.refund(o.outTradeNo, 250);
    assert.equal(first.delivery!.status, 200, first.delivery!.body);
    const rest = await f.wechat.refund(o.outTradeNo);
    assert.equal(rest.delivery!.status, 200);
    const d = await assertRefunded(f, o.trxNo, [
      { kind: 'refund', amount: 2.5 },
      { kind: 'refund', amount: 9.5 },
    ]);
    assert.deepEqual(
      d.refunds.map((r: any) => r.bankTrxNo),
      [first.resource.refund_id, rest.resource.refund_id],
    );
    const again = await f.wechat.send(url(), first.event);
    assert.equal(again.status, 200);
    await assertRefunded(f, o.trxNo, [
      { kind: 'refund', amount: 2.5 },
      { kind: 'refund', amount: 9.5 },
    ]);
  });

  it('hostile refund resources are refused 4xx and refund nothing', async () => {
    const o = await paidOrder(1);
    const { resource } = await f.wechat.refund(o.outTradeNo, 100, { send: false });
    const beforeOrders = await count(f.svc, 'orders');
    const event = (change: Record<string, unknown>) =>
      WechatpayFake.notification(f.merchant.apiV3Key, 'REFUND.SUCCESS', { ...resource, ...change });
    const amount = (refund: unknown) => ({ amount: { ...resource.amount, refund } });
    const hostile: Array<[string, Record<string, unknown>, number]> = [
      ['negative refund', event(amount(-100)), 400],
      ['refund past 2^53', event(amount(2 ** 53 + 2)), 400],
      ['fractional fen', event(amount(1.5)), 400],
      ['NUL in refund_id', event({ refund_id: 'a\u0000b' }), 400],
      ['lone surrogate', event({ out_refund_no: 'R\uD800' }), 400],
      ['success_time not a time', event({ success_time: 'now' }), 400],
      ['another merchant', event({ mchid: '1900000109' }), 400],
      ['zero', event(amount(0)), 409],
      ['more than was paid', event(amount(601)), 409],
    ];
    for (const [what, body, status] of hostile) {
      const res = answer(await f.wechat.send(url(), body));
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
    }
    // Encrypted under another key, or signed by someone else: not WeChat Pay.
    const otherKey = WechatpayFake.notification('0'.repeat(32), 'REFUND.SUCCESS', resource);
    assert.equal((await f.wechat.send(url(), otherKey)).status, 400);
    const payload = JSON.stringify(event({}));
    const forged = await f.wechat.post(url(), payload, { ...f.wechat.sign(payload), 'wechatpay-signature': 'AAAA' });
    assert.equal(forged.status, 400);
    assert.equal(await count(f.svc, 'orders'), beforeOrders, 'nothing refunded');
    assert.equal(refundNotificationsOf(f, o.trxNo).length, 0);
  });

  it('concurrent copies of one refund notification (PostgreSQL: many rounds) give one refund and one 2.5', async () => {
    const rounds = f.svc.services.database.dialect.name === 'postgres' ? 8 : 2;
    for (let round = 0; round < rounds; round++) {
      const o = await paidOrder(1);
      const { event } = await f.wechat.refund(o.outTradeNo, 250, { send: false });
      const answers = await Promise.all(Array.from({ length: 8 }, () => f.wechat.send(url(), event)));
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(8).fill(200),
      );
      await assertRefunded(f, o.trxNo, [{ kind: 'refund', amount: 2.5 }]);
    }
  });
});
