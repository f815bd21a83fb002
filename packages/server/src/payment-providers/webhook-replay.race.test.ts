import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StripeFake } from '../testing/stripe-fake.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { testBackend } from '../testing/database.js';
import { gameNotifications, inBatches } from '../testing/races.js';
import { placeStripeOrder, startStripe, webViewSession, type StripeFixture } from './payment-providers.testlib.js';

failIfAnyTestReachesTheNetwork();

/**
 * Issue 39: a payment whose webhooks were lost, then 10 copies each of `checkout.session.completed` and
 * `payment_intent.succeeded` posted at once. The order is paid once (one 2.4), and the message log and the metric say
 * which delivery paid it: exactly one `applied` (holding its event id), every other copy a `duplicate`.
 */
const ROUNDS = testBackend() === 'postgres' ? 200 : 20;
const COPIES = 10;
const AT_ONCE = 5;

/** provider_notifications_total of Stripe by outcome, as /metrics shows it. */
async function stripeCounts(f: StripeFixture): Promise<Record<string, number>> {
  const text = await (await f.svc.fetch('/metrics')).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^provider_notifications_total\{provider="stripe",outcome="(\w+)"\} (\d+)$/gm))
    counts[m[1]!] = Number(m[2]);
  return counts;
}

describe('Stripe: copies of the paying events racing one another', () => {
  let f: StripeFixture;
  before(async () => {
    f = await startStripe();
  });
  after(async () => {
    await f?.close();
  });

  it(`${ROUNDS} rounds: one payment, one applied message (the delivery that paid), the rest duplicates`, async () => {
    const { page } = await webViewSession(f, 'racer');
    f.stripe.holdWebhooks = true;
    const metricsBefore = await stripeCounts(f);
    const deliver = async (event: { id: string }) => {
      const payload = JSON.stringify(event);
      const d = await f.stripe.post(
        f.webhookUrl(f.overseas.appId),
        payload,
        StripeFake.sign(payload, f.keys.webhookSecret),
      );
      return { status: d.status, body: JSON.parse(d.body), eventId: event.id };
    };
    const rounds = await inBatches(ROUNDS, AT_ONCE, async () => {
      const { trxNo, sessionId } = await placeStripeOrder(f, page);
      const events = f.stripe.eventsOf(await f.stripe.pay(sessionId));
      const answers = await Promise.all(events.flatMap((e) => Array.from({ length: COPIES }, () => deliver(e))));
      return { trxNo, events, answers };
    });

    const db = f.svc.services.database.db;
    const told = await gameNotifications(f.svc, f.overseas.appId);
    const messages = await db.selectFrom('provider_messages').selectAll().where('provider', '=', 'stripe').execute();
    const tally = (rows: Array<{ outcome: string; reason: string | null }>) =>
      rows.map((r) => `${r.outcome}/${r.reason}`).sort();
    for (const { trxNo, events, answers } of rounds) {
      const what = `order ${trxNo}: ${JSON.stringify(answers.map((a) => [a.status, a.body.data]))}`;
      const ids = events.map((e) => e.id);
      assert.ok(
        answers.every((a) => a.status === 200),
        what,
      );
      const said = answers.map((a) => ({
        ...(a.body.data as { outcome: string; reason: string | null }),
        id: a.eventId,
      }));
      const applied = said.filter((a) => a.outcome === 'applied');
      assert.deepEqual(
        applied.map((a) => a.reason),
        [null],
        `exactly one delivery paid: ${what}`,
      );
      assert.ok(
        said.every((a) => a.outcome === 'applied' || a.outcome === 'duplicate'),
        what,
      );
      const logged = messages.filter((m) => m.event_id !== null && ids.includes(m.event_id));
      assert.deepEqual(tally(logged), tally(said), `the log says what was answered: ${what}`);
      const holder = logged.filter((m) => m.outcome === 'applied');
      assert.deepEqual(
        holder.map((m) => [m.event_id, m.dedup_key, Number(m.trx_no)]),
        [[applied[0]!.id, applied[0]!.id, trxNo]],
        what,
      );
      assert.equal(told.payments.get(trxNo), 1, `one 2.4: ${what}`);
      const order = await db.selectFrom('orders').select('status').where('trx_no', '=', trxNo).executeTakeFirst();
      assert.equal(order?.status, 0, what);
    }
    const metricsAfter = await stripeCounts(f);
    const delta = (outcome: string) => (metricsAfter[outcome] ?? 0) - (metricsBefore[outcome] ?? 0);
    assert.deepEqual([delta('applied'), delta('duplicate'), delta('refused')], [ROUNDS, ROUNDS * (2 * COPIES - 1), 0]);
  });
});
