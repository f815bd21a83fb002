import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StripeFake } from '../testing/stripe-fake.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { testBackend } from '../testing/database.js';
import type { TestService } from '../testing/service.js';
import { gameNotifications, inBatches } from '../testing/races.js';
import {
  placeStripeOrder,
  startStripe,
  webViewSession,
  type StripeFixture,
} from '../testing/payment-providers/payment-providers.js';
import {
  mainlandSession,
  placeAlipayOrder,
  reachCashier,
  startAlipay,
  type AlipayFixture,
} from '../testing/payment-providers/alipay.js';

failIfAnyTestReachesTheNetwork();

/**
 * Issue 39: a payment whose messages were lost, then many copies of them posted at once. The order is paid once (one
 * 2.4), and the message log and the metric say which delivery paid it: exactly one `applied` (holding its event id),
 * every other copy a `duplicate`. Stripe: 10 copies each of `checkout.session.completed` and
 * `payment_intent.succeeded`; Alipay (the same path, its own protocol): 10 copies of the TRADE_SUCCESS notify.
 */
const POSTGRES = testBackend() === 'postgres';
const COPIES = 10;
const AT_ONCE = 5;

interface Round {
  trxNo: number;
  eventIds: string[];
  /** What each delivery was answered, where the provider's answer says it (Stripe's JSON; Alipay reads `success`). */
  answers: Array<{ status: number; outcome?: string; reason?: string | null; eventId: string }>;
}

/** provider_notifications_total of a provider by outcome, as /metrics shows it. */
async function counts(svc: TestService, provider: string): Promise<Record<string, number>> {
  const text = await svc.metrics();
  const out: Record<string, number> = {};
  const line = new RegExp(`^provider_notifications_total\\{provider="${provider}",outcome="(\\w+)"\\} (\\d+)$`, 'gm');
  for (const m of text.matchAll(line)) out[m[1]!] = Number(m[2]);
  return out;
}

/** Runs the rounds and asserts each one's exact outcome, then the metric's. */
async function race(svc: TestService, provider: string, appId: number, rounds: number, round: () => Promise<Round>) {
  const before = await counts(svc, provider);
  const done = await inBatches(rounds, AT_ONCE, round);
  const db = svc.services.database.db;
  const told = await gameNotifications(svc, appId);
  const messages = await db.selectFrom('provider_messages').selectAll().where('provider', '=', provider).execute();
  const tally = (rows: Array<{ outcome?: string; reason?: string | null }>) =>
    rows.map((r) => `${r.outcome}/${r.reason}`).sort();
  let deliveries = 0;
  for (const { trxNo, eventIds, answers } of done) {
    deliveries += answers.length;
    const what = `order ${trxNo}: ${JSON.stringify(answers)}`;
    assert.ok(
      answers.every((a) => a.status === 200),
      what,
    );
    const logged = messages.filter((m) => m.event_id !== null && eventIds.includes(m.event_id));
    assert.equal(logged.length, answers.length, `every delivery recorded: ${what}`);
    if (answers.every((a) => a.outcome !== undefined))
      assert.deepEqual(tally(logged), tally(answers), `the log says what was answered: ${what}`);
    const applied = logged.filter((m) => m.outcome === 'applied');
    assert.equal(applied.length, 1, `exactly one delivery paid: ${what}`);
    assert.deepEqual(
      [applied[0]!.reason, applied[0]!.dedup_key, Number(applied[0]!.trx_no)],
      [null, applied[0]!.event_id, trxNo],
    );
    assert.ok(
      logged.every((m) => m.outcome === 'applied' || m.outcome === 'duplicate'),
      what,
    );
    assert.equal(told.payments.get(trxNo), 1, `one 2.4: ${what}`);
    const order = await db.selectFrom('orders').select('status').where('trx_no', '=', trxNo).executeTakeFirst();
    assert.equal(order?.status, 0, what);
  }
  const after = await counts(svc, provider);
  const delta = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
  assert.deepEqual([delta('applied'), delta('duplicate'), delta('refused')], [rounds, deliveries - rounds, 0]);
}

describe('Stripe: copies of the paying events racing one another', () => {
  const ROUNDS = POSTGRES ? 200 : 20;
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
    const deliver = async (event: { id: string }) => {
      const payload = JSON.stringify(event);
      const signature = StripeFake.sign(payload, f.keys.webhookSecret);
      const d = await f.stripe.post(f.webhookUrl(f.overseas.appId), payload, signature);
      return {
        status: d.status,
        ...(JSON.parse(d.body).data as { outcome: string; reason: string | null }),
        eventId: event.id,
      };
    };
    await race(f.svc, 'stripe', f.overseas.appId, ROUNDS, async () => {
      const { trxNo, sessionId } = await placeStripeOrder(f, page);
      const events = f.stripe.eventsOf(await f.stripe.pay(sessionId));
      const answers = await Promise.all(events.flatMap((e) => Array.from({ length: COPIES }, () => deliver(e))));
      return { trxNo, eventIds: events.map((e) => e.id), answers };
    });
  });
});

describe('Alipay: copies of the TRADE_SUCCESS notify racing one another', () => {
  const ROUNDS = POSTGRES ? 50 : 10;
  let f: AlipayFixture;
  before(async () => {
    f = await startAlipay();
  });
  after(async () => {
    await f?.close();
  });

  it(`${ROUNDS} rounds: one payment, one applied message, the rest duplicates, each answered success`, async () => {
    const { page } = await mainlandSession(f, 'racer');
    f.alipay.holdNotifies = true;
    await race(f.svc, 'alipay', f.mainland.appId, ROUNDS, async () => {
      const { trxNo, url } = await placeAlipayOrder(f, page);
      const trade = await reachCashier(f, url);
      await f.alipay.pay(trade);
      const params = f.alipay.signNotify(f.alipay.notifyOf(trade));
      const sent = await Promise.all(Array.from({ length: COPIES }, () => f.alipay.post(trade.notifyUrl!, params)));
      for (const s of sent) assert.equal(s.body, 'success');
      return {
        trxNo,
        eventIds: [params.notify_id!],
        answers: sent.map((s) => ({ status: s.status, eventId: params.notify_id! })),
      };
    });
  });
});
