import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  notificationsOf,
  placeStripeOrder,
  startStripe,
  webViewSession,
  type StripeFixture,
} from '../../testing/payment-providers/payment-providers.js';

/**
 * The browser's return is never trusted and a notification may never come: a payment whose webhook is held back is
 * found by the result view's late query, or by the reconciliation, and paid exactly once; the webhook arriving after
 * all is a duplicate.
 */
describe('Stripe: payments whose webhook never comes', () => {
  let f: StripeFixture;
  before(async () => {
    f = await startStripe({ PROVIDER_LATE_QUERY_SECONDS: '1' });
  });
  after(async () => {
    await f?.close();
  });

  /** Makes a payment look opened an hour ago (instead of waiting for the query delays). */
  const age = (trxNo: number) =>
    f.svc.services.database.db
      .updateTable('provider_payments')
      .set({ opened_at: Date.now() - 3_600_000 })
      .where('trx_no', '=', trxNo)
      .execute();

  it('the reconciliation queries Stripe, pays the order once, and the late webhook is a duplicate', async () => {
    const { page } = await webViewSession(f, 'late-1');
    const { trxNo, sessionId } = await placeStripeOrder(f, page, 2);
    f.stripe.holdWebhooks = true;
    const session = await f.stripe.pay(sessionId);
    f.stripe.holdWebhooks = false;
    const reconciliation = f.svc.services.paymentProviders.reconciliation;
    assert.deepEqual(await reconciliation.run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'too young to ask');
    await age(trxNo);
    assert.deepEqual(await reconciliation.run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    assert.deepEqual(
      await reconciliation.run(),
      { queried: 0, paid: 0, closed: 0, failed: 0 },
      'paid: not asked again',
    );
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note] = notificationsOf(f, trxNo);
    assert.equal(note.bankTrxNo, session.payment_intent);
    assert.equal(note.channel, 6);

    const late = await Promise.all(f.stripe.eventsOf(session).map((e) => f.stripe.send(f.keys.secretKey, e)));
    assert.deepEqual(
      late.flat().map((d) => JSON.parse(d.body).data),
      [
        { outcome: 'duplicate', reason: 'already_paid' },
        { outcome: 'duplicate', reason: 'already_paid' },
      ],
    );
    assert.equal(notificationsOf(f, trxNo).length, 1, 'paid once');
    const found = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${trxNo}`)).body
      .messages;
    assert.deepEqual(found.at(-1).source, 'reconcile');
    assert.deepEqual([found.at(-1).outcome, found.at(-1).type], ['applied', 'query:paid']);
  });

  it("the result view's read asks Stripe when the webhook is late, and shows the order paid", async () => {
    const { page } = await webViewSession(f, 'late-2');
    const { trxNo, sessionId } = await placeStripeOrder(f, page);
    f.stripe.holdWebhooks = true;
    await f.stripe.pay(sessionId);
    f.stripe.holdWebhooks = false;
    await age(trxNo);
    const read = await page.request('GET', `/orders/${trxNo}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.data.status, 0, 'paid by the query');
    const again = await page.request('GET', `/orders/${trxNo}`);
    assert.equal(again.body.data.status, 0);
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
    const found = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${trxNo}`)).body
      .messages;
    assert.deepEqual(
      found.map((m: any) => [m.source, m.outcome]),
      [['query', 'applied']],
    );
  });

  it('leaves an unpaid order awaiting payment before its lifetime ends', async () => {
    const { page } = await webViewSession(f, 'late-3');
    const { trxNo } = await placeStripeOrder(f, page);
    await age(trxNo);
    const report = await f.svc.services.paymentProviders.reconciliation.run();
    assert.deepEqual(report, { queried: 1, paid: 0, closed: 0, failed: 0 });
    assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 2);
  });
});
