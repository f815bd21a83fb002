import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makePaypalChain, type PaypalTestChain } from '../../testing/paypal-certs.js';
import { PaypalFake } from '../../testing/paypal-fake.js';
import {
  assertUnpaid as assertUnpaidOf,
  notificationsOf,
  refusedAs,
  webViewSession,
} from '../../testing/payment-providers/payment-providers.js';
import {
  age,
  placePaypalOrder,
  setUpPaypal,
  startPaypal,
  type PaypalFixture,
  type PaypalKeys,
} from '../../testing/payment-providers/paypal.js';

/**
 * Bad input at the PayPal webhook, each refused with a clear error and nothing paid: a forged signature (another key,
 * a certificate off PayPal's host or under a root nobody trusts, a tampered body, another webhook), a stale or missing
 * one, a wrong amount or currency, a replay, an unknown order, another app's order, a payment after the order closed,
 * fields that are not PayPal's after the signature. Every refusal is in the app's provider messages.
 */
describe('PayPal webhook: refusals', () => {
  let f: PaypalFixture;
  let mainlandKeys: PaypalKeys;
  let forged: PaypalTestChain;
  let attacker: http.Server;
  let attackerUrl: string;
  let attackerHits = 0;
  before(async () => {
    f = await startPaypal();
    mainlandKeys = await setUpPaypal(f, f.paypal, f.mainland.appId, f.webhookUrl(f.mainland.appId));
    forged = await makePaypalChain({ name: 'Forger' });
    // A host of the attacker's serving its own chain: the service must never even fetch it.
    attacker = http.createServer((_req, res) => {
      attackerHits++;
      res.end(forged.chainPem);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  });
  after(async () => {
    await f?.close();
    await new Promise((resolve) => attacker?.close(resolve));
  });

  /** Posts `event` to an app's webhook, signed for `webhookId` (default: the overseas app's) as the options say. */
  async function deliver(
    event: unknown,
    opts: Parameters<PaypalFake['sign']>[1] extends infer O
      ? Partial<O> & { appId?: number; headers?: Record<string, string> | null; payload?: string }
      : never = {},
  ) {
    const payload = JSON.stringify(event);
    const headers =
      opts.headers !== undefined
        ? opts.headers
        : f.paypal.sign(payload, { webhookId: f.keys.webhookId, ...opts } as { webhookId: string });
    const d = await f.paypal.post(f.webhookUrl(opts.appId ?? f.overseas.appId), opts.payload ?? payload, headers);
    return { status: d.status, body: JSON.parse(d.body) };
  }

  /** The PAYMENT.CAPTURE.COMPLETED PayPal would send for an open order, its capture altered by `change`. */
  const completed = (o: { orderId: string; trxNo: number }, change: Record<string, unknown> = {}) => {
    const unit = f.paypal.orders.get(o.orderId)!.purchase_units[0];
    return PaypalFake.event('PAYMENT.CAPTURE.COMPLETED', {
      id: `CAP${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
      status: 'COMPLETED',
      amount: { currency_code: unit.amount.currency_code, value: unit.amount.value },
      final_capture: true,
      custom_id: String(o.trxNo),
      supplementary_data: { related_ids: { order_id: o.orderId } },
      ...change,
    });
  };

  async function openOrder(roleId: string) {
    const { page } = await webViewSession(f, roleId);
    return { page, ...(await placePaypalOrder(f, page)) };
  }

  const assertUnpaid = (trxNo: number, status = 2) => assertUnpaidOf(f, trxNo, status);

  it('refuses a forged signature: another key, a certificate off PayPal or under an untrusted root, a tampered body', async () => {
    const o = await openOrder('forged');
    const event = completed(o);
    // Signed with the forger's key, naming PayPal's genuine certificate.
    refusedAs(await deliver(event, { key: forged.signingKey }), 400, 40051, 'bad_signature');
    // Signed with the forger's key, naming the forger's certificate on the forger's host: never fetched.
    const offHost = `${attackerUrl}/v1/notifications/certs/CERT-360caa42-fca2a594-forged`;
    refusedAs(await deliver(event, { key: forged.signingKey, certUrl: offHost }), 400, 40051, 'bad_signature');
    for (const certUrl of [
      'https://api.paypal.com.attacker.example/v1/notifications/certs/CERT-1',
      `${f.paypal.url}/v1/other/CERT-1`,
      `${f.paypal.url}/v1/notifications/certs/CERT-1?x=1`,
      `${f.paypal.url.replace('http://', 'http://user@')}/v1/notifications/certs/CERT-1`,
      'not a url',
    ])
      refusedAs(await deliver(event, { certUrl }), 400, 40051, 'bad_signature');
    assert.equal(attackerHits, 0, "the attacker's host was never asked");
    // The forger's chain served on PayPal's host: its root is not trusted.
    const onHost = f.paypal.serveCertificate(forged.chainPem);
    refusedAs(await deliver(event, { key: forged.signingKey, certUrl: onHost }), 400, 40051, 'bad_signature');
    // Signed, then the amount changed on the way.
    const payload = JSON.stringify(event);
    const headers = f.paypal.sign(payload, { webhookId: f.keys.webhookId });
    refusedAs(
      await deliver(event, { headers, payload: payload.replace(/"value":"4\.99"/, '"value":"0.01"') }),
      400,
      40051,
      'bad_signature',
    );
    // Signed for another webhook (another app's PayPal webhook id).
    refusedAs(await deliver(event, { webhookId: mainlandKeys.webhookId }), 400, 40051, 'bad_signature');
    // Missing, stale, another algorithm.
    refusedAs(await deliver(event, { headers: null }), 400, 40051, 'missing_signature');
    const { 'paypal-transmission-sig': _s, ...unsigned } = f.paypal.sign(payload, { webhookId: f.keys.webhookId });
    refusedAs(await deliver(event, { headers: unsigned }), 400, 40051, 'missing_signature');
    const old = new Date(Date.now() - 600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    refusedAs(await deliver(event, { time: old }), 400, 40051, 'stale');
    const sha1 = { ...f.paypal.sign(payload, { webhookId: f.keys.webhookId }), 'paypal-auth-algo': 'SHA1withRSA' };
    refusedAs(await deliver(event, { headers: sha1 }), 400, 40051, 'bad_signature');
    await assertUnpaid(o.trxNo);
    const messages = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?outcome=refused`)).body
      .messages;
    assert.ok(messages.filter((m: any) => m.reason === 'bad_signature').length >= 8);
    assert.ok(messages.every((m: any) => !JSON.stringify(m).includes(f.keys.clientSecret)));
  });

  it('refuses a verified payment of another amount or currency (409), paying nothing', async () => {
    const o = await openOrder('amounts');
    refusedAs(
      await deliver(completed(o, { amount: { currency_code: 'USD', value: '4.98' } })),
      409,
      40950,
      'amount_mismatch',
    );
    refusedAs(
      await deliver(completed(o, { amount: { currency_code: 'EUR', value: '4.99' } })),
      409,
      40950,
      'currency_mismatch',
    );
    await assertUnpaid(o.trxNo);
  });

  it("refuses an unknown order and another app's order", async () => {
    const o = await openOrder('strangers');
    refusedAs(
      await deliver(
        completed(o, { custom_id: '987654321', supplementary_data: { related_ids: { order_id: 'NOBODYKNOWSTHIS1' } } }),
      ),
      409,
      40950,
      'unknown_order',
    );
    // Signed for the mainland app's own webhook, at its own URL, naming the overseas app's order.
    refusedAs(
      await deliver(completed(o), { appId: f.mainland.appId, webhookId: mainlandKeys.webhookId }),
      409,
      40950,
      'other_app_order',
    );
    // The order named only by custom_id (no order id): still the overseas app's.
    refusedAs(
      await deliver(completed(o, { supplementary_data: {} }), {
        appId: f.mainland.appId,
        webhookId: mainlandKeys.webhookId,
      }),
      409,
      40950,
      'other_app_order',
    );
    // An order id of ours with another order's trxNo in custom_id.
    refusedAs(await deliver(completed(o, { custom_id: String(o.trxNo + 1) })), 409, 40950, 'order_mismatch');
    await assertUnpaid(o.trxNo);
  });

  it('takes a replayed notification once: the replay is answered as a duplicate and pays nothing more', async () => {
    const o = await openOrder('replay');
    const event = completed(o);
    const first = await deliver(event);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body.data, { outcome: 'applied', reason: null });
    // The same event again (PayPal's retry, or a captured request resent), twice at once.
    const again = await Promise.all([deliver(event), deliver(event)]);
    for (const r of again)
      assert.deepEqual([r.status, r.body.data], [200, { outcome: 'duplicate', reason: 'replayed' }]);
    // The same capture in another event: already paid by it.
    const other = await deliver({ ...event, id: 'WH-SAMECAPTUREAGAIN-1' });
    assert.deepEqual(other.body.data, { outcome: 'duplicate', reason: 'already_paid' });
    // Another capture for the paid order: refused, for operators to refund.
    refusedAs(await deliver(completed(o)), 409, 40950, 'paid_by_another_transaction');
    await f.game.waitFor(() => notificationsOf(f, o.trxNo).length > 0);
    assert.equal(notificationsOf(f, o.trxNo).length, 1);
    assert.equal(notificationsOf(f, o.trxNo)[0].bankTrxNo, (event.resource as any).id);
  });

  it('closes an unpaid order past its lifetime (never captured); a later payment is refused and recorded', async () => {
    const o = await openOrder('closed');
    // The player approved, but too late: the reconciliation closes it and does not capture.
    f.paypal.approve(o.orderId);
    await age(f, o.trxNo, true);
    const report = await f.svc.services.paymentProviders.reconciliation.run();
    assert.equal(report.closed, 1, JSON.stringify(report));
    assert.equal(f.paypal.orders.get(o.orderId)!.status, 'APPROVED', 'not captured at PayPal');
    assert.ok(!f.paypal.requests.some((r) => r.path.endsWith(`${o.orderId}/capture`)));
    await assertUnpaid(o.trxNo, 4);
    refusedAs(await deliver(completed(o)), 409, 40950, 'order_closed');
    await assertUnpaid(o.trxNo, 4);
    const found = (await f.svc.admin('GET', `/apps/${f.overseas.appId}/provider-messages?trxNo=${o.trxNo}`)).body
      .messages;
    assert.deepEqual(
      found.map((m: any) => [m.outcome, m.reason]),
      [
        ['refused', 'order_closed'],
        ['applied', 'closed'],
      ],
    );
  });

  it("refuses fields that are not PayPal's after the signature (400 malformed), never a 500", async () => {
    const o = await openOrder('malformed');
    for (const change of [
      { amount: { currency_code: 'USD', value: 4.99 } },
      { amount: { currency_code: 'USD', value: '4.999' } },
      { amount: { currency_code: 'USD', value: '-4.99' } },
      { amount: { currency_code: 'USD', value: '9007199254740993' } },
      { amount: { currency_code: 'US$', value: '4.99' } },
      { amount: { currency_code: 'XXY', value: '4.99' } },
      { id: { id: 'X' } },
      { id: 'cap-\u202e' },
      { supplementary_data: { related_ids: { order_id: 7 } } },
    ]) {
      const res = await deliver(completed(o, change));
      refusedAs(res, 400, 40051, 'malformed');
    }
    refusedAs(await deliver({ ...completed(o), id: 'not-an-event-id' }), 400, 40051, 'malformed');
    const nul = await deliver(completed(o, { custom_id: 'a\u0000b' }));
    assert.equal(nul.status, 400);
    assert.equal(nul.body.code, 40000);
    await assertUnpaid(o.trxNo);
  });
});
