import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refundRows, startCase, type RefundCase } from '../testing/payment-providers/refunds.js';

/** Hostile and wrong input to the refund route: 4xx in the envelope, never a 5xx, nothing written, nothing sent. */
describe('refunds: hostile input', () => {
  let c: RefundCase;
  let trxNo: number;
  before(async () => {
    c = await startCase('stripe');
    trxNo = (await c.paidOrder('hostile-1', 1)).trxNo;
  });
  after(async () => {
    await c?.close();
  });

  const raw = (path: string, text: string) =>
    c.f.svc.fetch(`/admin/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.f.svc.adminToken}`, 'content-type': 'application/json' },
      body: text,
    });

  it('refuses bad amounts, reasons and keys with 400, writing and sending nothing', async () => {
    const bodies: unknown[] = [
      { reason: 'x', amount: '\u0000' },
      { reason: 'x', amount: '1\u0000' },
      { reason: 'x', amount: -1 },
      { reason: 'x', amount: '-1.00' },
      { reason: 'x', amount: 0 },
      { reason: 'x', amount: '0' },
      { reason: 'x', amount: '1.234' },
      { reason: 'x', amount: 'NaN' },
      { reason: 'x', amount: '1e3' },
      { reason: 'x', amount: true },
      { reason: 'x', amount: {} },
      { reason: 'x', amount: 9007199254740993 },
      { reason: 'x', amount: '9007199254740993' },
      {},
      { amount: '1.00' },
      { reason: '' },
      { reason: 'a\u0000b' },
      { reason: 'x'.repeat(501) },
      { reason: 'x', idempotencyKey: 'short' },
      { reason: 'x', idempotencyKey: 'with space in it' },
      { reason: 'x', extra: 1 },
    ];
    for (const body of bodies) {
      const res = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body.code, 'number');
    }
    // Lone surrogates and a number past 2^53 as the client wrote them.
    for (const text of [
      '{"reason":"\\ud800"}',
      '{"reason":"x","amount":"\\udfff"}',
      '{"reason":"x","amount":90071992547409930}',
      '{"reason":"x","amount":1e400}',
      '{"reason":"x"',
    ]) {
      const res = await raw(`/orders/${trxNo}/refunds`, text);
      assert.equal(res.status, 400, `${text}: ${res.status} ${await res.text()}`);
    }
    assert.equal(await refundRows(c.f), 0);
    assert.equal(c.refundCalls().length, 0);
  });

  it('more than paid is 409 REFUND_EXCEEDS_PAID; unknown, malformed and unpaid orders are 4xx; nothing refunded', async () => {
    const more = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, { reason: 'x', amount: '4.99001' });
    assert.equal(more.status, 400);
    const tooMuch = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, { reason: 'x', amount: '5.00' });
    assert.equal(tooMuch.status, 409, JSON.stringify(tooMuch.body));
    assert.equal(tooMuch.body.code, 40957);
    assert.equal(tooMuch.body.data.remainingMinor, 499);
    const unknown = await c.f.svc.admin('POST', '/orders/999999999/refunds', { reason: 'x' });
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    for (const bad of ['abc', '-1', '1.5', '9007199254740993', '%00'])
      assert.equal((await c.f.svc.admin('POST', `/orders/${bad}/refunds`, { reason: 'x' })).status, 400, bad);
    // A sandbox (not a provider's) order is not refunded here.
    const sandbox = await c.f.svc.admin('POST', '/sandbox/orders', {
      appId: c.appId,
      userId: 'sandbox-user',
      products: [{ productCode: 'gems_100', quantity: 1 }],
    });
    if (sandbox.status === 201 || sandbox.status === 200) {
      const no = sandbox.body.trxNo ?? sandbox.body.order?.trxNo;
      const res = await c.f.svc.admin('POST', `/orders/${no}/refunds`, { reason: 'x' });
      assert.equal(res.status, 404, JSON.stringify(res.body));
    }
    // The same key for another amount is a conflict, not a second refund.
    const first = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, {
      reason: 'k',
      amount: '1.00',
      idempotencyKey: 'same-key-0001',
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const reused = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, {
      reason: 'k',
      amount: '2.00',
      idempotencyKey: 'same-key-0001',
    });
    assert.equal(reused.status, 409, JSON.stringify(reused.body));
    assert.equal(reused.body.code, 40900);
    assert.equal(await refundRows(c.f), 1);
    assert.equal(c.refundCalls().length, 1);
  });

  it("a refund made at the provider's dashboard leaves less to refund here: past it 409, nothing sent", async () => {
    const { trxNo } = await c.paidOrder('dashboard-1', 2);
    const stripe = (c.f as any).stripe as import('../testing/stripe-fake.js').StripeFake;
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === String(trxNo))!;
    await stripe.refund(session.id, 500);
    // Its webhook applied it (web-refunds.ts): 4.98 of 9.98 remains.
    for (let i = 0; i < 100; i++) {
      const order = (await c.f.svc.admin('GET', `/orders/${trxNo}`)).body;
      if ((order.webRefunds ?? order.refunds ?? []).length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const calls = c.refundCalls().length;
    const tooMuch = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, { reason: 'rest', amount: '5.00' });
    assert.equal(tooMuch.status, 409, JSON.stringify(tooMuch.body));
    assert.equal(tooMuch.body.code, 40957);
    assert.equal(tooMuch.body.data.remainingMinor, 498);
    assert.equal(c.refundCalls().length, calls);
    const rest = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, { reason: 'rest' });
    assert.equal(rest.status, 201, JSON.stringify(rest.body));
    assert.equal(rest.body.amount, 4.98);
    assert.equal(rest.body.state, 'succeeded');
  });
});
