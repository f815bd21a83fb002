import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refundNotesOf, startCase, waitForStatus, type RefundCase } from '../testing/payment-providers/refunds.js';

/**
 * Operators' refunds of web orders through each provider's fake (its real refunds API): a full and a partial refund
 * reach the provider once each, the game gets one signed 2.5 each, and a second click, a retried request or the
 * reconciliation's look change nothing more.
 */
for (const provider of ['stripe', 'paypal', 'alipay', 'wechatpay'] as const) {
  describe(`refunds through ${provider}`, () => {
    let c: RefundCase;
    before(async () => {
      c = await startCase(provider);
    });
    after(async () => {
      await c?.close();
    });
    const refund = (trxNo: number, body: unknown) => c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, body);

    it('refunds a whole order once: one provider call under the derived key, one signed 2.5, a second click changes nothing', async () => {
      const { trxNo, total } = await c.paidOrder('full-1');
      const first = await refund(trxNo, { reason: 'the player asked support' });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.state, 'succeeded');
      assert.equal(first.body.amount, total);
      assert.equal(first.body.currency, c.currency);
      assert.equal(first.body.provider, provider);
      assert.equal(first.body.requestedBy, 'operator:ADMIN_TOKEN');
      const key = `gpr-${c.appId}-${trxNo}-${first.body.refundRequestId}`;
      assert.deepEqual(c.refundCalls(), [{ key }]);
      await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length > 0);
      const [note] = refundNotesOf(c.f, trxNo);
      assert.equal(note.trxType, 2);
      assert.equal(note.totalAmount, total);
      assert.equal(note.currency, c.currency);

      // The double click: the same refund, answered 200, not sent again.
      const again = await refund(trxNo, { reason: 'the player asked support' });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.refundRequestId, first.body.refundRequestId);
      assert.equal(c.refundCalls().length, 1);
      // Another refund of a fully refunded order is refused before the provider.
      const more = await refund(trxNo, { reason: 'once more', amount: '1.00' });
      assert.equal(more.status, 409, JSON.stringify(more.body));
      assert.equal(more.body.code, 40957);
      assert.equal(c.refundCalls().length, 1);
      // The provider's own refund webhook came after its answer, and comes again (a retry): nothing more is applied.
      await new Promise((r) => setTimeout(r, 200));
      // It names the refund as the answer did: whichever comes first applies it, the other finds it applied.
      const named = (await c.f.svc.admin('GET', `/orders/${trxNo}/refunds`)).body.refunds[0].providerRefundId;
      if (provider !== 'paypal') assert.ok(c.webhookRefundIds().includes(named), `${named} in ${c.webhookRefundIds()}`);
      for (const status of await c.replayRefundWebhooks()) assert.ok(status < 300, `a replay is taken: ${status}`);
      // The reconciliation finds nothing left to settle; the game still has one 2.5.
      const report = await c.f.svc.services.paymentProviders.reconciliation.reconcileRefunds();
      assert.equal(report.looked, 0);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(refundNotesOf(c.f, trxNo).length, 1);
      const listed = await c.f.svc.admin('GET', `/orders/${trxNo}/refunds`);
      assert.deepEqual(
        listed.body.refunds.map((r: any) => [r.state, r.amount, r.reason]),
        [['succeeded', total, 'the player asked support']],
      );
    });

    it('refunds part of an order, twice under two keys, each once; a retried request with its key changes nothing', async () => {
      const { trxNo, total } = await c.paidOrder('part-1');
      const body = { amount: '1.50', reason: 'one item never arrived', idempotencyKey: `part-${provider}-0001` };
      const [a, b] = await Promise.all([refund(trxNo, body), refund(trxNo, body)]);
      assert.deepEqual([a.status, b.status].sort(), [200, 201], JSON.stringify([a.body, b.body]));
      assert.equal(a.body.refundRequestId, b.body.refundRequestId);
      const second = await refund(trxNo, { ...body, idempotencyKey: `part-${provider}-0002` });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      assert.equal(second.body.state, 'succeeded');
      assert.equal(second.body.amount, 1.5);
      assert.equal(c.refundCalls().filter((x) => x.key?.includes(`-${trxNo}-`)).length, 2);
      await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length >= 2);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        refundNotesOf(c.f, trxNo).map((n) => n.totalAmount),
        [1.5, 1.5],
      );
      // The order stays paid (2.7 has no refunded status); what remains is checked in the database.
      await waitForStatus(c.f, trxNo, 0);
      const tooMuch = await refund(trxNo, {
        amount: String(total),
        reason: 'all of it',
        idempotencyKey: 'too-much-0001',
      });
      assert.equal(tooMuch.status, 409, JSON.stringify(tooMuch.body));
      assert.equal(tooMuch.body.code, 40957);
      assert.equal(tooMuch.body.data.remainingMinor, Math.round(total * 100) - 300);
    });

    it('a refund the provider refuses leaves the order paid with a clear error, remembered for a second click', async () => {
      const { trxNo } = await c.paidOrder('refuse-1', 1);
      const calls = c.refundCalls().length;
      c.refuse(
        provider === 'alipay'
          ? 'ACQ.SELLER_BALANCE_NOT_ENOUGH'
          : provider === 'wechatpay'
            ? 'NOT_ENOUGH'
            : provider === 'paypal'
              ? 'REFUND_TIME_LIMIT_EXCEEDED'
              : 'charge_disputed',
      );
      try {
        const res = await refund(trxNo, { reason: 'goodwill' });
        assert.equal(res.status, 409, JSON.stringify(res.body));
        assert.equal(res.body.code, 40956);
        assert.equal(res.body.data.provider, provider);
        assert.match(res.body.detail, /refused the refund/);
        const again = await refund(trxNo, { reason: 'goodwill' });
        assert.equal(again.status, 409);
        assert.equal(c.refundCalls().length, calls + 1, 'the refusal is not sent again');
      } finally {
        c.refuse(null);
      }
      await waitForStatus(c.f, trxNo, 0);
      assert.equal(refundNotesOf(c.f, trxNo).length, 0);
      // A refused request takes nothing of what remains: a new one refunds the whole order.
      const ok = await refund(trxNo, { reason: 'goodwill, second try' });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal(ok.body.state, 'succeeded');
    });

    if (provider !== 'alipay')
      it('a refund the provider has not finished is settled by the reconciliation once it has (its webhook lost)', async () => {
        const { trxNo } = await c.paidOrder('pending-1', 1);
        c.pending(true);
        const res = await refund(trxNo, { reason: 'slow bank' });
        c.pending(false);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.state, 'pending');
        assert.ok(res.body.providerRefundId);
        const db = c.f.svc.services.database.db;
        await db
          .updateTable('refund_requests')
          .set({ requested_at: Date.now() - 3_600_000 })
          .where('trx_no', '=', trxNo)
          .execute();
        const reconciliation = c.f.svc.services.paymentProviders.reconciliation;
        assert.deepEqual(await reconciliation.reconcileRefunds(), { looked: 1, succeeded: 0, refused: 0, failed: 0 });
        assert.equal(refundNotesOf(c.f, trxNo).length, 0, 'not finished: nothing told');
        c.settle();
        await db.updateTable('refund_requests').set({ lease_until: 0 }).where('trx_no', '=', trxNo).execute();
        assert.deepEqual(await reconciliation.reconcileRefunds(), { looked: 1, succeeded: 1, refused: 0, failed: 0 });
        await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length > 0);
        await db.updateTable('refund_requests').set({ lease_until: 0 }).where('trx_no', '=', trxNo).execute();
        assert.deepEqual(await reconciliation.reconcileRefunds(), { looked: 0, succeeded: 0, refused: 0, failed: 0 });
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(refundNotesOf(c.f, trxNo).length, 1);
      });

    if (provider === 'alipay')
      it("an answer lost on the way back: the reconciliation sends the refund again under its key, Alipay's refund is applied once", async () => {
        const { trxNo } = await c.paidOrder('lost-answer-1', 1);
        const f = c.f as any;
        f.alipay.answers = 'down';
        let res;
        try {
          res = await c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, { reason: 'answer lost' });
        } finally {
          f.alipay.answers = 'genuine';
        }
        // Taken (the refund is durable) but not answered: 201, `requested`, the failure noted; the order stays paid.
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.state, 'requested');
        assert.equal(res.body.error.code, 'unreachable');
        const key = `gpr-${c.appId}-${trxNo}-${res.body.refundRequestId}`;
        const db = c.f.svc.services.database.db;
        await db
          .updateTable('refund_requests')
          .set({ requested_at: Date.now() - 3_600_000 })
          .where('trx_no', '=', trxNo)
          .execute();
        const report = await c.f.svc.services.paymentProviders.reconciliation.reconcileRefunds();
        assert.deepEqual(report, { looked: 1, succeeded: 1, refused: 0, failed: 0 });
        assert.deepEqual(
          c.refundCalls().filter((x) => x.key === key),
          [{ key }, { key }],
          'sent twice under one out_request_no',
        );
        assert.equal(
          [...f.alipay.refunds.values()].filter((r: any) => r.outRequestNo === key).length,
          1,
          'refunded once',
        );
        await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length > 0);
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(refundNotesOf(c.f, trxNo).length, 1);
      });
  });
}
