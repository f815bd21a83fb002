import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PaypalFake } from '../../testing/paypal-fake.js';
import { count } from '../../testing/orders/orders.js';
import {
  assertRefunded,
  refundNotificationsOf,
  waitGranted,
  webViewSession,
} from '../../testing/payment-providers/payment-providers.js';
import { age, placePaypalOrder, startPaypal, type PaypalFixture } from '../../testing/payment-providers/paypal.js';

/**
 * Refunds made in PayPal and reversals (chargebacks PayPal took back) reach the game (issue 39): one signed 2.5 each,
 * replays and concurrent copies changing nothing, a dispute recorded, hostile bodies refused with nothing refunded.
 */
describe('PayPal: refunds, reversals and disputes made at PayPal', () => {
  let f: PaypalFixture;
  let role = 0;
  before(async () => {
    f = await startPaypal();
  });
  after(async () => {
    await f?.close();
  });

  /** A captured PayPal order (quantity x 4.99 USD) whose 2.4 the game accepted; answers its trxNo and order id. */
  async function paidOrder(quantity = 1) {
    const { page } = await webViewSession(f, `refund-${++role}`);
    const { trxNo, orderId } = await placePaypalOrder(f, page, quantity);
    f.paypal.approve(orderId);
    await age(f, trxNo);
    // Captured by the page's read; the capture's own webhook held back so the read alone pays.
    f.paypal.holdWebhooks = true;
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 0);
    f.paypal.holdWebhooks = false;
    await waitGranted(f, trxNo);
    return { trxNo, orderId };
  }
  const send = async (event: unknown) => {
    const d = await f.paypal.send(f.keys.clientId, event);
    return { status: d.status, body: JSON.parse(d.body) };
  };

  it('a whole refund: one 2.5, the replay changes nothing', async () => {
    const { trxNo, orderId } = await paidOrder(2);
    const event = f.paypal.refundEvent(orderId);
    assert.deepEqual(await send(event), {
      status: 200,
      body: { code: 200, msg: 'success', detail: '', data: { outcome: 'applied', reason: 'refunded' } },
    });
    const d = await assertRefunded(f, trxNo, [{ kind: 'refund', amount: 9.98 }]);
    assert.equal(d.refunds[0].bankTrxNo, (event.resource as any).id);
    assert.equal((await send(event)).body.data.outcome, 'duplicate');
    await assertRefunded(f, trxNo, [{ kind: 'refund', amount: 9.98 }]);
  });

  it('a partial refund, then a reversal of the rest: two 2.5s, a supplement for the reversal; disputes are recorded', async () => {
    const { trxNo, orderId } = await paidOrder(3);
    const opened = await send(f.paypal.disputeEvent(orderId));
    assert.deepEqual(opened.body.data, { outcome: 'recorded', reason: 'dispute_open' });
    assert.equal(refundNotificationsOf(f, trxNo).length, 0, 'no 2.5 while a dispute is open');
    assert.equal((await send(f.paypal.refundEvent(orderId, 'PAYMENT.CAPTURE.REFUNDED', '5.00'))).status, 200);
    const reversed = await send(f.paypal.refundEvent(orderId, 'PAYMENT.CAPTURE.REVERSED'));
    assert.deepEqual(reversed.body.data, { outcome: 'applied', reason: 'dispute_lost' });
    const resolved = await send(f.paypal.disputeEvent(orderId, 'CUSTOMER.DISPUTE.RESOLVED', 'RESOLVED_BUYER_FAVOUR'));
    assert.deepEqual(
      resolved.body.data,
      { outcome: 'recorded', reason: 'dispute_closed' },
      'the money moved by REVERSED',
    );
    const d = await assertRefunded(f, trxNo, [
      { kind: 'refund', amount: 5 },
      { kind: 'dispute_lost', amount: 9.97 },
    ]);
    assert.equal(d.supplement.tradeNo, d.refunds[1].trxNo, 'the reversal of granted items owes a supplement');
    assert.equal(d.supplement.refundAmount, 9.97);
  });

  it('hostile refund bodies are refused 4xx and refund nothing', async () => {
    const { trxNo, orderId } = await paidOrder(1);
    const base = f.paypal.refundEvent(orderId, 'PAYMENT.CAPTURE.REFUNDED', '1.00') as any;
    const beforeOrders = await count(f.svc, 'orders');
    const variant = (resource: Record<string, unknown>) =>
      PaypalFake.event('PAYMENT.CAPTURE.REFUNDED', { ...base.resource, ...resource });
    const hostile: Array<[string, unknown, number]> = [
      ['negative amount', variant({ amount: { currency_code: 'USD', value: '-1.00' } }), 400],
      ['amount past 2^53', variant({ amount: { currency_code: 'USD', value: '90071992547409.93' } }), 400],
      ['more decimals than USD', variant({ amount: { currency_code: 'USD', value: '1.001' } }), 400],
      ['no amount', variant({ amount: undefined }), 400],
      ['NUL in the id', variant({ id: 'A\u0000B' }), 400],
      ['lone surrogate', variant({ note_to_payer: 'x\uDC00' }), 400],
      ['create_time not a time', variant({ create_time: 'soon' }), 400],
      ['another currency', variant({ amount: { currency_code: 'EUR', value: '1.00' } }), 409],
      ['zero', variant({ amount: { currency_code: 'USD', value: '0.00' } }), 409],
      ['more than was paid', variant({ amount: { currency_code: 'USD', value: '5.00' } }), 409],
    ];
    for (const [what, event, status] of hostile) assert.equal((await send(event)).status, status, what);
    // Signed by someone else: not PayPal.
    const payload = JSON.stringify(base);
    const forged = await f.paypal.post(
      f.webhookUrl(f.overseas.appId),
      payload,
      f.paypal.sign(payload, { webhookId: 'WH-NOT-OURS' }),
    );
    assert.equal(forged.status, 400);
    assert.equal(await count(f.svc, 'orders'), beforeOrders, 'nothing refunded');
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.refundedAmount, 0);
  });

  it('concurrent copies of one refund (PostgreSQL: many rounds) give one refund and one 2.5', async () => {
    const rounds = f.svc.services.database.dialect.name === 'postgres' ? 8 : 2;
    for (let round = 0; round < rounds; round++) {
      const { trxNo, orderId } = await paidOrder(1);
      const event = f.paypal.refundEvent(orderId, 'PAYMENT.CAPTURE.REFUNDED', '2.50');
      const answers = await Promise.all(Array.from({ length: 8 }, () => send(event)));
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(8).fill(200),
      );
      // At most one copy is answered applied; which copy's record holds the event's key is i39's message-log race
      // (ProviderPayments.notified), not the refund's: the refund and its 2.5 are once either way.
      assert.ok(answers.filter((a) => a.body.data.outcome === 'applied').length <= 1, JSON.stringify(answers));
      await assertRefunded(f, trxNo, [{ kind: 'refund', amount: 2.5 }]);
    }
  });
});
