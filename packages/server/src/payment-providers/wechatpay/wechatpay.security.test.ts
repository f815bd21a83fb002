import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { WechatpayFake, type SignOptions, type WechatpayMerchant } from '../../testing/wechatpay-fake.js';
import {
  assertUnpaid as assertUnpaidOf,
  notificationsOf,
  webViewSession,
} from '../../testing/payment-providers/payment-providers.js';
import { age } from '../../testing/payment-providers/paypal.js';
import {
  placeWechatOrder,
  refusedAs,
  setUpWechatpay,
  startWechatpay,
  type WechatpayFixture,
} from '../../testing/payment-providers/wechatpay.js';

/**
 * Bad input at the WeChat Pay notify URL, each refused with a clear error (4xx, never a 5xx) and nothing paid: a forged
 * signature (another key, another serial, a tampered body, a signature probe, missing or stale headers), a resource
 * that does not decrypt under the API v3 key, another merchant's transaction, a wrong amount or currency, a replay, an
 * unknown order, another app's order, a payment after the order closed, fields that are not WeChat Pay's. Every
 * refusal is in the app's provider messages.
 */
describe('WeChat Pay notification: refusals', () => {
  let f: WechatpayFixture;
  let other: WechatpayMerchant;
  before(async () => {
    f = await startWechatpay();
    // Another app (the overseas one) with a merchant of its own.
    other = await setUpWechatpay(f, f.wechat, f.overseas.appId);
  });
  after(async () => {
    await f?.close();
  });

  /** A transaction of `o` as WeChat Pay reports it paid, changed by `change`. */
  const paid = (o: { outTradeNo: string }, change: Record<string, unknown> = {}) => ({
    ...WechatpayFake.resourceOf({
      ...f.wechat.transactions.get(o.outTradeNo)!,
      trade_state: 'SUCCESS',
      transaction_id: `4200${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}${crypto.randomInt(10 ** 9, 10 ** 10 - 1)}`,
      success_time: new Date().toISOString(),
    }),
    ...change,
  });

  /** Posts a notification of `resource` to an app's notify URL, encrypted and signed as the options say. */
  async function deliver(
    resource: unknown,
    opts: SignOptions & {
      appId?: number;
      apiV3Key?: string;
      event?: Record<string, unknown>;
      headers?: Record<string, string> | null;
      payload?: string;
    } = {},
  ) {
    const event =
      opts.event ?? WechatpayFake.notification(opts.apiV3Key ?? f.merchant.apiV3Key, 'TRANSACTION.SUCCESS', resource);
    const payload = JSON.stringify(event);
    const headers = opts.headers !== undefined ? opts.headers : f.wechat.sign(payload, opts);
    const d = await f.wechat.post(f.webhookUrl(opts.appId ?? f.mainland.appId), opts.payload ?? payload, headers);
    assert.ok(d.status < 500, `never a 5xx: ${d.status} ${d.body}`);
    return { status: d.status, body: JSON.parse(d.body), event };
  }

  async function openOrder(roleId: string) {
    const { page } = await webViewSession(f, roleId, f.mainland);
    await page.context();
    return { page, ...(await placeWechatOrder(f, page)) };
  }

  const assertUnpaid = (trxNo: number, status = 2) => assertUnpaidOf(f, trxNo, status);

  it('refuses a forged signature: another key, another serial, a tampered body, a probe, missing or stale', async () => {
    const o = await openOrder('forged');
    const resource = paid(o);
    const forger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    refusedAs(await deliver(resource, { key: forger.privateKey }), 400, 'bad_signature');
    refusedAs(await deliver(resource, { serial: 'PUB_KEY_ID_0000000000000000001' }), 400, 'bad_signature');
    // Signed, then changed on the way (another resource put in the signed body's place).
    const { event } = await deliver(resource, { headers: null });
    const payload = JSON.stringify(event);
    const headers = f.wechat.sign(payload);
    const swapped = JSON.stringify({ ...event, id: crypto.randomUUID() });
    refusedAs(await deliver(resource, { headers, payload: swapped }), 400, 'bad_signature');
    refusedAs(
      await deliver(resource, {
        headers: { ...headers, 'wechatpay-signature': `WECHATPAY/SIGNTEST/${headers['wechatpay-signature']}` },
      }),
      400,
      'bad_signature',
    );
    refusedAs(
      await deliver(resource, { headers: { ...headers, 'wechatpay-signature-type': 'WECHATPAY2-SHA256-SM2' } }),
      400,
      'bad_signature',
    );
    refusedAs(await deliver(resource, { headers: null }), 400, 'missing_signature');
    const { 'wechatpay-nonce': _n, ...noNonce } = headers;
    refusedAs(await deliver(resource, { headers: noNonce }), 400, 'missing_signature');
    // Older or newer than 5 minutes (a captured notification replayed later).
    refusedAs(await deliver(resource, { timestamp: Math.floor(Date.now() / 1000) - 301 }), 400, 'stale');
    refusedAs(await deliver(resource, { timestamp: Math.floor(Date.now() / 1000) + 600 }), 400, 'stale');
    // Signed by WeChat Pay but encrypted under another API v3 key (another merchant's), or its associated data changed.
    refusedAs(await deliver(resource, { apiV3Key: other.apiV3Key }), 400, 'malformed');
    const n = WechatpayFake.notification(f.merchant.apiV3Key, 'TRANSACTION.SUCCESS', resource) as any;
    n.resource.associated_data = 'refund';
    refusedAs(await deliver(resource, { event: n }), 400, 'malformed');
    await assertUnpaid(o.trxNo);
    const messages = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?outcome=refused`)).body
      .messages;
    assert.ok(messages.filter((m: any) => m.reason === 'bad_signature').length >= 5);
    assert.ok(messages.every((m: any) => !JSON.stringify(m).includes(f.merchant.apiV3Key)));
  });

  it('refuses a verified payment of another amount or currency (409), paying nothing', async () => {
    const o = await openOrder('amounts');
    const t = paid(o);
    refusedAs(await deliver({ ...t, amount: { ...t.amount, total: 599 } }), 409, 'amount_mismatch');
    refusedAs(await deliver({ ...t, amount: { ...t.amount, total: 60000 } }), 409, 'amount_mismatch');
    refusedAs(await deliver({ ...t, amount: { ...t.amount, currency: 'USD' } }), 409, 'currency_mismatch');
    await assertUnpaid(o.trxNo);
  });

  it("refuses an unknown order, another app's order and another merchant's transaction", async () => {
    const o = await openOrder('strangers');
    refusedAs(await deliver(paid(o, { out_trade_no: 'GP000987654321' })), 409, 'unknown_order');
    refusedAs(await deliver(paid(o, { out_trade_no: 'SOMEONE-ELSES-1' })), 409, 'unknown_order');
    // The other app's merchant, at its own notify URL, naming this app's order.
    refusedAs(
      await deliver(paid(o, { mchid: other.mchId, appid: other.wechatAppId }), {
        appId: f.overseas.appId,
        apiV3Key: other.apiV3Key,
      }),
      409,
      'other_app_order',
    );
    // This app's merchant named in a notification sent to the other app's URL (under its key): not its merchant.
    refusedAs(await deliver(paid(o), { appId: f.overseas.appId, apiV3Key: other.apiV3Key }), 400, 'refused');
    refusedAs(await deliver(paid(o, { appid: 'wx0000000000000000' })), 400, 'refused');
    await assertUnpaid(o.trxNo);
  });

  it('takes a replayed notification once: the replay is answered as a duplicate and pays nothing more', async () => {
    const o = await openOrder('replay');
    const t = paid(o);
    const first = await deliver(t);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data, { outcome: 'applied', reason: null });
    const payload = JSON.stringify(first.event);
    const again = await Promise.all([
      deliver(t, { event: first.event }),
      deliver(t, { event: first.event, headers: f.wechat.sign(payload) }),
    ]);
    for (const r of again)
      assert.deepEqual([r.status, r.body.data], [200, { outcome: 'duplicate', reason: 'replayed' }]);
    // The same transaction in another notification: already paid by it.
    assert.deepEqual((await deliver(t)).body.data, { outcome: 'duplicate', reason: 'already_paid' });
    // Another transaction for the paid order: refused, for operators to refund.
    refusedAs(await deliver(paid(o)), 409, 'paid_by_another_transaction');
    await f.game.waitFor(() => notificationsOf(f, o.trxNo).length > 0);
    assert.equal(notificationsOf(f, o.trxNo).length, 1);
    assert.equal(notificationsOf(f, o.trxNo)[0].bankTrxNo, t.transaction_id);
  });

  it('closes an unpaid order past its lifetime at WeChat Pay; a later payment is refused and recorded', async () => {
    const o = await openOrder('closed');
    await age(f, o.trxNo, true);
    const report = await f.svc.services.paymentProviders.reconciliation.run();
    assert.equal(report.closed, 1, JSON.stringify(report));
    assert.equal(f.wechat.transactions.get(o.outTradeNo)!.trade_state, 'CLOSED', 'closed at WeChat Pay');
    await assertUnpaid(o.trxNo, 4);
    refusedAs(await deliver(paid(o)), 409, 'order_closed');
    await assertUnpaid(o.trxNo, 4);
    const found = (await f.svc.admin('GET', `/apps/${f.mainland.appId}/provider-messages?trxNo=${o.trxNo}`)).body
      .messages;
    assert.deepEqual(
      found.map((m: any) => [m.outcome, m.reason]),
      [
        ['refused', 'order_closed'],
        ['applied', 'closed'],
      ],
    );
  });

  it("refuses fields that are not WeChat Pay's after the signature (400 malformed), never a 500", async () => {
    const o = await openOrder('malformed');
    const t = paid(o);
    for (const change of [
      { amount: { ...t.amount, total: '1200' } },
      { amount: { ...t.amount, total: 12.5 } },
      { amount: { ...t.amount, total: -600 } },
      { amount: { ...t.amount, total: 9007199254740993 } },
      { amount: { ...t.amount, currency: 'cny' } },
      { transaction_id: { id: 'X' } },
      { transaction_id: 'tx-\u202e' },
      { trade_state: 7 },
      { out_trade_no: 'GP\u0001' },
    ])
      refusedAs(await deliver({ ...t, ...change }), 400, 'malformed');
    // Signed and well-formed, but not a success: nothing paid, nothing closed.
    for (const trade_state of ['NOTPAY', 'CLOSED', 'PAYERROR', 'REFUND']) {
      const r = await deliver({ ...t, trade_state });
      assert.deepEqual(
        [r.status, r.body.data],
        [200, { outcome: 'ignored', reason: `trade_state_${trade_state.toLowerCase()}` }],
      );
    }
    // Not JSON inside, or the envelope not WeChat Pay's.
    const n = WechatpayFake.notification(f.merchant.apiV3Key, 'TRANSACTION.SUCCESS', t) as any;
    refusedAs(await deliver(t, { event: { ...n, resource_type: 'plain' } }), 400, 'malformed');
    refusedAs(await deliver(t, { event: { ...n, resource: { ...n.resource, ciphertext: '!!' } } }), 400, 'malformed');
    const lone = await deliver(t, { event: { ...n, id: 'a\ud800b' } });
    assert.equal(lone.status, 400);
    assert.equal(lone.body.code, 40000);
    const nul = await deliver(t, { event: { ...n, summary: 'a\u0000b' } });
    assert.equal(nul.status, 400);
    assert.equal(nul.body.code, 40000);
    const big = await deliver(t, {
      payload: `{"id":9007199254740993,"event_type":"TRANSACTION.SUCCESS","resource":{}}`,
    });
    assert.equal(big.status, 400);
    // Nested ten thousand deep: refused, not a stack or memory blow-up.
    const deep = await deliver(t, { payload: `{"id":"x","event_type":"E","resource":${'['.repeat(10000)}` });
    assert.equal(deep.status, 400);
    const nested = await deliver(t, {
      payload: `{"id":"x","event_type":"E","resource":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`,
    });
    assert.deepEqual([nested.status, nested.body.code], [400, 40000]);
    await assertUnpaid(o.trxNo);
  });
});
