import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StripeFake, type FakeSession } from '../../testing/stripe-fake.js';
import {
  notificationsOf,
  placeStripeOrder,
  setUpStripe,
  startStripe,
  webViewSession,
  type StripeFixture,
} from '../../testing/payment-providers/payment-providers.js';

/**
 * Bad input at the Stripe webhook, each refused with a clear error and nothing paid: a forged, missing or stale
 * signature, a wrong amount or currency, a replay, an unknown order, another app's order, a payment after the order
 * closed, fields that are not Stripe's after the signature. Every refusal is in the app's provider messages.
 */
describe('Stripe webhook: refusals', () => {
  let f: StripeFixture;
  let mainlandKeys: { secretKey: string; webhookSecret: string };
  before(async () => {
    f = await startStripe();
    mainlandKeys = await setUpStripe(f, f.stripe, f.mainland.appId, f.webhookUrl(f.mainland.appId));
  });
  after(async () => {
    await f?.close();
  });

  /** Posts `event` to an app's webhook, signed with `secret` (default: the overseas app's) at `timestamp`. */
  async function deliver(
    event: unknown,
    opts: { appId?: number; secret?: string; timestamp?: number; signature?: string | null } = {},
  ) {
    const payload = JSON.stringify(event);
    const signature =
      opts.signature !== undefined
        ? opts.signature
        : StripeFake.sign(payload, opts.secret ?? f.keys.webhookSecret, opts.timestamp);
    const d = await f.stripe.post(f.webhookUrl(opts.appId ?? f.overseas.appId), payload, signature);
    return { status: d.status, body: JSON.parse(d.body) };
  }

  /** A completed session's event for an open order, as the player's payment would make it (optionally altered). */
  const completed = (s: FakeSession, change: Partial<FakeSession> = {}) =>
    StripeFake.event('checkout.session.completed', {
      ...publicOf(s),
      status: 'complete',
      payment_status: 'paid',
      payment_intent: `pi_${Math.random().toString(36).slice(2)}`,
      ...change,
    });
  const publicOf = (s: FakeSession) => {
    const { line_items: _l, payment_intent_metadata: _m, ...rest } = s;
    return rest;
  };

  async function openOrder(roleId: string) {
    const { page } = await webViewSession(f, roleId);
    const { trxNo, sessionId } = await placeStripeOrder(f, page);
    return { page, trxNo, session: f.stripe.sessions.get(sessionId)! };
  }

  async function assertUnpaid(trxNo: number, status = 2) {
    const order = (await f.svc.admin('GET', `/orders/${trxNo}`)).body.order;
    assert.equal(order.status, status, `order ${trxNo} is ${order.statusName}`);
    assert.equal(notificationsOf(f, trxNo).length, 0, 'the game was told nothing');
  }

  const refusedAs = (res: { status: number; body: any }, status: number, code: number, reason: string) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.code, code);
    assert.deepEqual(res.body.data, { outcome: 'refused', reason });
    assert.match(res.body.detail, new RegExp(reason));
  };

  it('refuses a forged, a missing and a stale signature (400), recording each', async () => {
    const { trxNo, session } = await openOrder('forged');
    const event = completed(session);
    refusedAs(await deliver(event, { secret: 'whsec_notthesecretofthisapp' }), 400, 40051, 'bad_signature');
    refusedAs(await deliver(event, { signature: null }), 400, 40051, 'missing_signature');
    refusedAs(await deliver(event, { signature: 't=1,v1=00' }), 400, 40051, 'bad_signature');
    const old = Math.floor(Date.now() / 1000) - 600;
    refusedAs(await deliver(event, { timestamp: old }), 400, 40051, 'stale');
    await assertUnpaid(trxNo);
    const messages = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?outcome=refused`)).body
      .messages;
    assert.ok(messages.filter((m: any) => m.reason === 'bad_signature').length >= 2);
    assert.ok(messages.every((m: any) => !JSON.stringify(m).includes(f.keys.webhookSecret)));
  });

  it('refuses a verified payment of another amount or currency (409), paying nothing', async () => {
    const { trxNo, session } = await openOrder('amounts');
    refusedAs(
      await deliver(completed(session, { amount_total: session.amount_total - 1 })),
      409,
      40950,
      'amount_mismatch',
    );
    refusedAs(await deliver(completed(session, { currency: 'eur' })), 409, 40950, 'currency_mismatch');
    const pi = StripeFake.event('payment_intent.succeeded', {
      id: 'pi_cheap',
      object: 'payment_intent',
      amount_received: 1,
      currency: 'usd',
      metadata: { trxNo: String(trxNo) },
    });
    refusedAs(await deliver(pi), 409, 40950, 'amount_mismatch');
    // Stripe retries a refused event with the same id: refused again each time, never a harmless duplicate (issue 39).
    refusedAs(await deliver(pi), 409, 40950, 'amount_mismatch');
    await assertUnpaid(trxNo);
  });

  it("refuses an unknown order and another app's order", async () => {
    const { trxNo, session } = await openOrder('strangers');
    const unknown = completed(session, { id: 'cs_test_nobodyknowsthis', client_reference_id: '987654321' });
    refusedAs(await deliver(unknown), 409, 40950, 'unknown_order');
    // Signed with the mainland app's own secret, at its own URL, naming the overseas app's order.
    refusedAs(
      await deliver(completed(session), { appId: f.mainland.appId, secret: mainlandKeys.webhookSecret }),
      409,
      40950,
      'other_app_order',
    );
    const pi = StripeFake.event('payment_intent.succeeded', {
      id: 'pi_elsewhere',
      amount_received: session.amount_total,
      currency: 'usd',
      metadata: { trxNo: String(trxNo) },
    });
    refusedAs(
      await deliver(pi, { appId: f.mainland.appId, secret: mainlandKeys.webhookSecret }),
      409,
      40950,
      'other_app_order',
    );
    await assertUnpaid(trxNo);
  });

  it('takes a replayed notification once: the replay is answered as a duplicate and pays nothing more', async () => {
    const { trxNo, session } = await openOrder('replay');
    const event = completed(session);
    const first = await deliver(event);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data, { outcome: 'applied', reason: null });
    const again = await Promise.all([deliver(event), deliver(event)]);
    for (const r of again)
      assert.deepEqual([r.status, r.body.data], [200, { outcome: 'duplicate', reason: 'replayed' }]);
    // The same payment in another event (a new id): already paid by it.
    const other = await deliver({ ...event, id: 'evt_samepaymentagain' });
    assert.deepEqual(other.body.data, { outcome: 'duplicate', reason: 'already_paid' });
    // Another payment for the paid order: refused, for operators to refund.
    refusedAs(await deliver(completed(session)), 409, 40950, 'paid_by_another_transaction');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, (event.data.object as any).payment_intent);
  });

  it('closes an unpaid order past its lifetime at Stripe and here; a later payment is refused and recorded', async () => {
    const { trxNo, session } = await openOrder('closed');
    await f.svc.services.database.db
      .updateTable('provider_payments')
      .set({ opened_at: Date.now() - 3_600_000, expires_at: Date.now() - 1 })
      .where('trx_no', '=', trxNo)
      .execute();
    // Stripe's own checkout.session.expired is held back here (it would race the run; it is a duplicate then).
    f.stripe.holdWebhooks = true;
    const report = await f.svc.services.paymentProviders.reconciliation.run();
    f.stripe.holdWebhooks = false;
    assert.equal(report.closed, 1, JSON.stringify(report));
    assert.equal(f.stripe.sessions.get(session.id)!.status, 'expired', 'expired at Stripe');
    await assertUnpaid(trxNo, 4);
    refusedAs(await deliver(completed(session)), 409, 40950, 'order_closed');
    await assertUnpaid(trxNo, 4);
    const found = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${trxNo}`)).body
      .messages;
    assert.deepEqual(
      found.map((m: any) => [m.outcome, m.reason]),
      [
        ['refused', 'order_closed'],
        ['applied', 'closed'],
      ],
    );
  });

  it("refuses fields that are not Stripe's after the signature (400 malformed), never a 500", async () => {
    const { trxNo, session } = await openOrder('malformed');
    for (const change of [
      { amount_total: '999' },
      { amount_total: 9007199254740993 },
      { amount_total: -5 },
      { currency: 'US$' },
      { client_reference_id: 'DROP TABLE' },
      { payment_intent: { id: 'pi_x' } },
      { id: 'cs_\u202e' },
    ]) {
      const res = await deliver(completed(session, change as any));
      refusedAs(res, 400, 40051, 'malformed');
    }
    const nul = await deliver(completed(session, { client_reference_id: 'a\u0000b' } as any));
    assert.equal(nul.status, 400);
    assert.equal(nul.body.code, 40000);
    await assertUnpaid(trxNo);
  });

  it('records a charge.refunded that lists no refunds (API versions since 2022-11-15) and an open dispute: no 2.5 for either', async () => {
    const { trxNo, session } = await openOrder('refund');
    const paid = completed(session);
    assert.equal((await deliver(paid)).status, 200);
    const pi = (paid.data.object as any).payment_intent;
    const refund = await deliver(
      StripeFake.event('charge.refunded', {
        id: 'ch_refunded1',
        object: 'charge',
        payment_intent: pi,
        amount_refunded: session.amount_total,
        currency: 'usd',
      }),
    );
    // The refund itself comes as refund.created / refund.updated (stripe.refunds.test.ts).
    assert.deepEqual([refund.status, refund.body.data], [200, { outcome: 'recorded', reason: 'refund_not_completed' }]);
    const dispute = await deliver(
      StripeFake.event('charge.dispute.created', {
        id: 'dp_disputed1',
        object: 'dispute',
        payment_intent: pi,
        amount: session.amount_total,
        currency: 'usd',
        reason: 'fraudulent',
        status: 'needs_response',
      }),
    );
    assert.deepEqual(dispute.body.data, { outcome: 'recorded', reason: 'dispute_open' });
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.deepEqual(
      notificationsOf(f, trxNo).map((n) => n.trxType),
      [0],
      'only the payment: no 2.5 for a refund not listed, nor for an open dispute',
    );
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 0);
    const recorded = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?outcome=recorded`)).body
      .messages;
    assert.deepEqual(
      recorded.map((m: any) => [m.type, m.trxNo, m.amount]),
      [
        ['charge.dispute.created', trxNo, 4.99],
        ['charge.refunded', trxNo, 4.99],
      ],
    );
  });
});
