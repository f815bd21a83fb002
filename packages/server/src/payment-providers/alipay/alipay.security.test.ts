import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { AlipayAccount, FakeNotify, FakeTrade } from '../../testing/alipay-fake.js';
import { assertUnpaid as assertUnpaidOf, notificationsOf } from '../../testing/payment-providers/payment-providers.js';
import {
  age,
  mainlandSession,
  placeAlipayOrder,
  priceInYuan,
  reachCashier,
  setUpAlipay,
  startAlipay,
  type AlipayFixture,
} from '../../testing/payment-providers/alipay.js';

/**
 * Bad input at the Alipay notify URL, each refused (answered `fail` with a 4xx, so Alipay does not count it taken),
 * recorded for operators, nothing paid, never a 5xx: a forged signature (another key, a tampered field, no sign, the
 * old RSA), another merchant app's notify, a wrong amount or currency, a replay, an unknown order, another app's
 * order, a payment after the order closed, fields that are not Alipay's after the signature.
 */
describe('Alipay notify: refusals', () => {
  let f: AlipayFixture;
  let other: AlipayAccount;
  before(async () => {
    f = await startAlipay();
    // The overseas app sells in yuan too and has its own Alipay app (offered to its players for this test).
    await priceInYuan(f, f.overseas.appId);
    other = await setUpAlipay(f, f.alipay, f.overseas.appId, ['overseas', 'mainland']);
  });
  after(async () => {
    await f?.close();
  });

  async function openTrade(roleId: string): Promise<{ trxNo: number; trade: FakeTrade }> {
    const { page } = await mainlandSession(f, roleId);
    const { trxNo, url } = await placeAlipayOrder(f, page);
    return { trxNo, trade: await reachCashier(f, url) };
  }

  /** The trade's TRADE_SUCCESS notify with `change`, signed by the app's Alipay key (or `key`), sent to `appId`. */
  async function deliver(
    trade: FakeTrade,
    change: Record<string, string> = {},
    opts: { key?: crypto.KeyObject; appId?: number; after?: (p: Record<string, string>) => void } = {},
  ): Promise<FakeNotify> {
    const params = f.alipay.signNotify(f.alipay.notifyOf({ ...trade, status: 'TRADE_SUCCESS' }, change), opts.key);
    opts.after?.(params);
    return f.alipay.post(f.webhookUrl(opts.appId ?? f.mainland.appId), params);
  }

  /** Refused: `fail` with the status, and the app's newest provider message records the reason. */
  async function refusedAs(d: FakeNotify, status: number, reason: string, appId = f.mainland.appId) {
    assert.deepEqual([d.status, d.body], [status, 'fail'], JSON.stringify(d.params).slice(0, 200));
    const newest = (await f.svc.admin('GET', `/apps/${appId}/provider-messages?limit=1`)).body.messages[0];
    assert.deepEqual([newest.outcome, newest.reason], ['refused', reason]);
  }

  const assertUnpaid = (trxNo: number, status = 2) => assertUnpaidOf(f, trxNo, status);

  it('refuses a forged signature: another key, a tampered field, no sign, the old RSA', async () => {
    const { trxNo, trade } = await openTrade('forged');
    const forger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await refusedAs(await deliver(trade, {}, { key: forger }), 400, 'bad_signature');
    // Signed by Alipay for another app (the other app's Alipay key), sent to this one.
    await refusedAs(await deliver(trade, {}, { key: other.alipayPrivateKey }), 400, 'bad_signature');
    await refusedAs(await deliver(trade, {}, { after: (p) => (p.total_amount = '0.01') }), 400, 'bad_signature');
    await refusedAs(
      await deliver(trade, {}, { after: (p) => (p.out_trade_no = String(trxNo + 1)) }),
      400,
      'bad_signature',
    );
    await refusedAs(await deliver(trade, {}, { after: (p) => delete p.sign }), 400, 'missing_signature');
    await refusedAs(await deliver(trade, {}, { after: (p) => (p.sign = '') }), 400, 'missing_signature');
    await refusedAs(await deliver(trade, {}, { after: (p) => (p.sign = 'bm90IGEgc2lnbg==') }), 400, 'bad_signature');
    await refusedAs(await deliver(trade, {}, { after: (p) => (p.sign_type = 'RSA') }), 400, 'bad_signature');
    // Genuinely signed by this app's Alipay key but for another merchant app id.
    await refusedAs(
      await deliver(trade, { app_id: '2021000000000001' }, { key: f.account.alipayPrivateKey }),
      400,
      'refused',
    );
    await assertUnpaid(trxNo);
    const messages = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?outcome=refused`)).body
      .messages;
    assert.ok(messages.length >= 9);
    assert.ok(messages.every((m: any) => !JSON.stringify(m).includes(f.account.privateKey.slice(40, 80))));
  });

  it('refuses a verified payment of another amount or currency (409), paying nothing', async () => {
    const { trxNo, trade } = await openTrade('amounts');
    await refusedAs(await deliver(trade, { total_amount: '5.99' }), 409, 'amount_mismatch');
    await refusedAs(await deliver(trade, { total_amount: '600' }), 409, 'amount_mismatch');
    await refusedAs(await deliver(trade, { trans_currency: 'USD' }), 409, 'currency_mismatch');
    await assertUnpaid(trxNo);
  });

  it('refuses a refused notify again each time it is sent (never `success`, so Alipay keeps telling), recording each', async () => {
    const { trxNo, trade } = await openTrade('refused-again');
    const first = await deliver(trade, { total_amount: '5.99' });
    await refusedAs(first, 409, 'amount_mismatch');
    await refusedAs(await f.alipay.post(first.url, first.params), 409, 'amount_mismatch');
    const atOnce = await Promise.all([f.alipay.post(first.url, first.params), f.alipay.post(first.url, first.params)]);
    for (const r of atOnce) assert.deepEqual([r.status, r.body], [409, 'fail']);
    await assertUnpaid(trxNo);
    const messages = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`)).body
      .messages;
    assert.deepEqual(
      messages.filter((m: any) => m.eventId === first.params.notify_id).map((m: any) => [m.outcome, m.reason]),
      Array(4).fill(['refused', 'amount_mismatch']),
    );
    // The right notify still pays the order (its own notify_id), and its replay is the harmless duplicate.
    const paid = await deliver(trade);
    assert.deepEqual([paid.status, paid.body], [200, 'success']);
    assert.deepEqual((await f.alipay.post(paid.url, paid.params)).body, 'success');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
  });

  it("refuses an unknown order and another app's order", async () => {
    const { trxNo, trade } = await openTrade('strangers');
    await refusedAs(await deliver(trade, { out_trade_no: '987654321' }), 409, 'unknown_order');
    await refusedAs(await deliver(trade, { out_trade_no: 'ORDER-OF-SOMEONE' }), 409, 'unknown_order');
    // Signed by Alipay for the overseas app's own Alipay app, at its own notify URL, naming the mainland's order.
    await refusedAs(
      await deliver(trade, { app_id: other.appId }, { key: other.alipayPrivateKey, appId: f.overseas.appId }),
      409,
      'other_app_order',
      f.overseas.appId,
    );
    await assertUnpaid(trxNo);
  });

  it('takes a replayed notify once: the replay is answered success and pays nothing more', async () => {
    const { trxNo, trade } = await openTrade('replay');
    const first = await deliver(trade);
    assert.deepEqual([first.status, first.body], [200, 'success']);
    const again = await Promise.all([f.alipay.post(first.url, first.params), f.alipay.post(first.url, first.params)]);
    for (const r of again) assert.deepEqual([r.status, r.body], [200, 'success']);
    // Another trade_no for the paid order: refused, for operators to refund.
    await refusedAs(
      await deliver(trade, { trade_no: '2026112722001499999999999999' }),
      409,
      'paid_by_another_transaction',
    );
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, trade.tradeNo);
    const replays = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?outcome=duplicate`)).body
      .messages;
    assert.equal(replays.filter((m: any) => m.eventId === first.params.notify_id).length, 2, 'both replays recorded');
  });

  it('closes an unpaid order past its lifetime at Alipay (trade.close); a later payment is refused and recorded', async () => {
    const { trxNo, trade } = await openTrade('closed');
    // Another one the player never took to the cashier: Alipay has no trade of it (closed all the same).
    const { page } = await mainlandSession(f, 'closed-2');
    const never = await placeAlipayOrder(f, page);
    await age(f, trxNo, true);
    await age(f, never.trxNo, true);
    const report = await f.svc.services.paymentProviders.reconciliation.run();
    assert.equal(report.closed, 2, JSON.stringify(report));
    assert.equal(trade.status, 'TRADE_CLOSED', 'closed at Alipay');
    assert.ok(f.alipay.requests.some((r) => r.method === 'alipay.trade.close' && r.biz.out_trade_no === String(trxNo)));
    await assertUnpaid(trxNo, 4);
    await assertUnpaid(never.trxNo, 4);
    await refusedAs(await deliver(trade), 409, 'order_closed');
    await assertUnpaid(trxNo, 4);
    const found = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`)).body
      .messages;
    assert.deepEqual(
      found.map((m: any) => [m.outcome, m.reason]),
      [
        ['refused', 'order_closed'],
        ['applied', 'closed'],
      ],
    );
  });

  it("refuses fields that are not Alipay's after the signature (400 malformed), never a 500", async () => {
    const { trxNo, trade } = await openTrade('malformed');
    for (const change of [
      { total_amount: '6.001' },
      { total_amount: '-6.00' },
      { total_amount: '9007199254740993' },
      { total_amount: '6,00' },
      { trans_currency: 'XXY' },
      { trade_no: 'tr\u202eade' },
      { trade_status: 'TRADE_PAID' },
      { notify_id: '' },
    ] as Array<Record<string, string>>) {
      const d = await deliver(trade, change);
      assert.ok(d.status < 500);
      if (change.notify_id === '') assert.equal(d.status, 400);
      else await refusedAs(d, 400, 'malformed');
    }
    // Not a form, and nested past any provider's body: refused in the envelope, not a 500.
    const deep = await f.svc.fetch(`/notify/v1/providers/alipay/${f.mainland.appId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"notify_id":"1","sign":"x","a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    assert.equal(deep.status, 400, await deep.clone().text());
    assert.match(((await deep.json()) as any).detail, /nested deeper than 32 levels/);
    const nul = await deliver(trade, { out_trade_no: 'a\u0000b' });
    assert.equal(nul.status, 400);
    assert.equal(JSON.parse(nul.body).code, 40000);
    await assertUnpaid(trxNo);
  });
});
