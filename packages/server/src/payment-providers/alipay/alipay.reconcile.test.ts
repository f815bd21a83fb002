import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { notificationsOf } from '../../testing/payment-providers/payment-providers.js';
import {
  age,
  mainlandSession,
  placeAlipayOrder,
  reachCashier,
  startAlipay,
  type AlipayFixture,
} from '../../testing/payment-providers/alipay.js';

/**
 * The browser's return is never trusted and Alipay's notify may never come: a trade paid whose notify never arrives is
 * found by alipay.trade.query (the reconciliation, or the result view's late read) and paid once; a trade still
 * waiting, or not yet made at Alipay, stays awaiting payment.
 */
describe('Alipay: payments whose notify never comes', () => {
  let f: AlipayFixture;
  before(async () => {
    f = await startAlipay({ PROVIDER_LATE_QUERY_SECONDS: '1' });
  });
  after(async () => {
    await f?.close();
  });

  const run = () => f.svc.services.paymentProviders.reconciliation.run();
  const messagesOf = async (trxNo: number) =>
    (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${trxNo}`)).body.messages;

  it('the reconciliation finds a paid trade by alipay.trade.query and pays it once; the late notify is a duplicate', async () => {
    const { page } = await mainlandSession(f, 'late-1');
    const { trxNo, url } = await placeAlipayOrder(f, page, 2);
    const trade = await reachCashier(f, url);
    f.alipay.holdNotifies = true;
    assert.equal(await f.alipay.pay(trade), null, 'no notify');
    f.alipay.holdNotifies = false;
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'too young to ask');
    await age(f, trxNo);
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    assert.deepEqual(await run(), { queried: 0, paid: 0, closed: 0, failed: 0 }, 'paid: not asked again');
    const queries = f.alipay.requests.filter((r) => r.method === 'alipay.trade.query');
    assert.equal(queries.length, 1);
    assert.equal(queries[0]!.signed, true);
    assert.equal(queries[0]!.biz.out_trade_no, String(trxNo));
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    const [note] = notificationsOf(f, trxNo);
    assert.equal(note.bankTrxNo, trade.tradeNo);
    assert.equal(note.channel, 4);
    assert.equal(note.totalAmount, 12);

    const late = await f.alipay.notify(trade);
    assert.deepEqual([late.status, late.body], [200, 'success']);
    assert.equal(notificationsOf(f, trxNo).length, 1, 'paid once');
    assert.deepEqual(
      (await messagesOf(trxNo)).map((m: any) => [m.source, m.type, m.outcome]),
      [
        ['notify', 'trade_status_sync:TRADE_SUCCESS', 'duplicate'],
        ['reconcile', 'query:paid', 'applied'],
      ],
    );
  });

  it("the result view's read asks Alipay when the notify is late, and shows the order paid", async () => {
    const { page } = await mainlandSession(f, 'late-2');
    const { trxNo, url } = await placeAlipayOrder(f, page);
    const trade = await reachCashier(f, url);
    f.alipay.holdNotifies = true;
    await f.alipay.pay(trade);
    f.alipay.holdNotifies = false;
    await age(f, trxNo);
    const read = await page.request('GET', `/orders/${trxNo}`);
    assert.equal(read.body.data.status, 0, JSON.stringify(read.body));
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo)[0].bankTrxNo, trade.tradeNo);
    assert.deepEqual(
      (await messagesOf(trxNo)).map((m: any) => [m.source, m.type, m.outcome]),
      [['query', 'query:paid', 'applied']],
    );
  });

  it('leaves a trade still waiting, or not yet made at Alipay, awaiting payment before its lifetime ends', async () => {
    const { page } = await mainlandSession(f, 'late-3');
    const waiting = await placeAlipayOrder(f, page);
    await reachCashier(f, waiting.url);
    const never = await placeAlipayOrder(f, page);
    await age(f, waiting.trxNo);
    await age(f, never.trxNo);
    assert.deepEqual(await run(), { queried: 2, paid: 0, closed: 0, failed: 0 });
    for (const trxNo of [waiting.trxNo, never.trxNo])
      assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 2);
    assert.equal(f.alipay.trade(waiting.trxNo).status, 'WAIT_BUYER_PAY');
  });

  it('pays an order whose trade was paid at the last moment when closing it past its lifetime', async () => {
    const { page } = await mainlandSession(f, 'late-4');
    const { trxNo, url } = await placeAlipayOrder(f, page);
    const trade = await reachCashier(f, url);
    f.alipay.holdNotifies = true;
    await f.alipay.pay(trade);
    f.alipay.holdNotifies = false;
    await age(f, trxNo, true);
    // trade.close refuses (ACQ.TRADE_STATUS_ERROR): the query says paid, and the order is paid, not cancelled.
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 });
    assert.equal(trade.status, 'TRADE_SUCCESS');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal((await f.svc.admin('GET', `/orders/${trxNo}`)).body.order.status, 0);
  });

  it('trusts no query answer that does not verify, and waits while Alipay cannot be reached', async () => {
    const { page } = await mainlandSession(f, 'late-5');
    const { trxNo, url } = await placeAlipayOrder(f, page);
    const trade = await reachCashier(f, url);
    f.alipay.holdNotifies = true;
    await f.alipay.pay(trade);
    f.alipay.holdNotifies = false;
    await age(f, trxNo);
    // A failed look keeps the payment leased (5 minutes) before the next run asks again: released here at once.
    const release = () =>
      f.svc.services.database.db
        .updateTable('provider_payments')
        .set({ lease_until: 0 })
        .where('trx_no', '=', trxNo)
        .execute();
    try {
      // An answer saying TRADE_SUCCESS, signed with another key (someone between us and Alipay): not taken.
      f.alipay.answers = 'forged';
      assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 0, failed: 1 });
      f.alipay.answers = 'down';
      await release();
      assert.deepEqual(await run(), { queried: 1, paid: 0, closed: 0, failed: 1 });
      assert.equal((await page.request('GET', `/orders/${trxNo}`)).body.data.status, 2, 'still awaiting payment');
      assert.equal(notificationsOf(f, trxNo).length, 0);
    } finally {
      f.alipay.answers = 'genuine';
    }
    await release();
    assert.deepEqual(await run(), { queried: 1, paid: 1, closed: 0, failed: 0 }, 'Alipay back: paid once');
    await f.game.waitFor(() => notificationsOf(f, trxNo).length > 0);
    assert.equal(notificationsOf(f, trxNo).length, 1);
  });
});
