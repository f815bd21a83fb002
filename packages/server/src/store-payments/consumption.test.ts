import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  notificationPayload,
  signApple,
  transactionPayload,
  type AppleApiServer,
  type AppleTestChain,
} from '../testing/apple-fixture.js';
import { failIfAnyTestReachesTheNetwork } from '../testing/no-network.js';
import { signMd5 } from '../testing/service.js';
import { details } from '../testing/orders/orders.js';
import {
  APPLE_SKU,
  notify,
  placeStoreOrder,
  startAppleWorld,
  submit,
  txId,
  type StoreWorld,
} from '../testing/store-payments/store-payments.js';

failIfAnyTestReachesTheNetwork();

const CONSENT = 'Players accept the consumption data clause of the terms of service (v3, May 2026).';

/** Issue 27: Apple's CONSUMPTION_REQUEST answered with Send Consumption Information (v2) from the platform's records. */
describe('App Store consumption information', () => {
  let w: StoreWorld;
  let chain: AppleTestChain;
  let api: AppleApiServer;
  const signTx = (over: Record<string, unknown> = {}) =>
    signApple(chain, transactionPayload({ productId: APPLE_SKU, transactionId: txId(), ...over }));

  /** A paid App Store order whose 2.4 notification the game accepted. */
  async function granted(): Promise<{ trxNo: number; id: string }> {
    const { order } = await placeStoreOrder(w, 1);
    const id = txId();
    const paid = await submit(w, order.trxNo, 'apple-transactions', {
      signedTransactions: [await signTx({ transactionId: id, originalTransactionId: id })],
    });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const until = Date.now() + 10_000;
    while ((await details(w.svc, order.trxNo)).notifications[0]?.state !== 'delivered') {
      if (Date.now() > until) throw new Error('payment notification not delivered');
      await new Promise((r) => setTimeout(r, 25));
    }
    return { trxNo: order.trxNo, id };
  }
  const consumptionRequest = async (id: string) =>
    notify(w, 'apple', {
      signedPayload: await signApple(
        chain,
        notificationPayload(
          'CONSUMPTION_REQUEST',
          await signTx({ transactionId: id, originalTransactionId: id }),
          {},
          {
            consumptionRequestReason: 'UNINTENDED_PURCHASE',
          },
        ),
      ),
    });
  const report = async (trxNo: number, body: Record<string, unknown>) => {
    const res = await w.svc.fetch(`/order/v1/game/orders/${trxNo}/consumption`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const seconds = () => Math.floor(Date.now() / 1000);
  const signed = (params: Record<string, string | number>, secret: string = w.app.secret) =>
    signMd5(params, secret, { timestamp: seconds(), ...(params.nonce ? { nonce: String(params.nonce) } : {}) });
  const reports = async () => {
    const row = await w.svc.services.database.db
      .selectFrom('order_consumption')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const requests = async () => {
    const res = await w.svc.admin('GET', `/apps/${w.app.appId}/store-consumption-requests`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.requests as any[];
  };
  const waitFor = async (what: string, ok: () => Promise<boolean> | boolean, ms = 10_000) => {
    const until = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  before(async () => {
    ({ w, chain, api } = await startAppleWorld({ DELIVERY_SCHEDULE: '0,300ms,300ms' }));
  });
  after(async () => {
    await w.close();
    await api.close();
  });

  it('an app without the consent statement sends nothing (off by default) and records why', async () => {
    const { id, trxNo } = await granted();
    const n = await consumptionRequest(id);
    assert.deepEqual([n.status, n.body.data], [200, { outcome: 'ignored', reason: 'no_consent' }]);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(api.consumption.length, 0);
    assert.ok(!api.requests.some((r) => r.path.includes('/consumption/')));
    const [recorded] = await requests();
    assert.deepEqual(
      [recorded.transactionId, recorded.trxNo, recorded.state, recorded.reason],
      [id, trxNo, 'skipped_no_consent', 'UNINTENDED_PURCHASE'],
    );
  });

  it('a request for a granted purchase reaches Apple with a valid bearer and the right body in one attempt', async () => {
    const set = await w.svc.admin('PUT', `/apps/${w.app.appId}/order-settings`, {
      consumptionConsent: CONSENT,
      refundPreference: 'GRANT_PRORATED',
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.consumptionConsent, CONSENT);
    const { id, trxNo } = await granted();
    const reported = await report(trxNo, signed({ appId: w.app.appId, trxNo, consumptionPercentage: 25_000 }));
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
    // A later report replaces the earlier one.
    assert.equal(
      (await report(trxNo, signed({ appId: w.app.appId, trxNo, consumptionPercentage: 50_000 }))).status,
      200,
    );
    const n = await consumptionRequest(id);
    assert.deepEqual([n.status, n.body.data], [200, { outcome: 'applied', reason: 'consumption_queued' }]);
    await waitFor('the consumption information', () => api.consumption.length === 1);
    assert.deepEqual(api.consumption[0], {
      transactionId: id,
      body: {
        customerConsented: true,
        deliveryStatus: 'DELIVERED',
        sampleContentProvided: false,
        consumptionPercentage: 50_000,
        refundPreference: 'GRANT_PRORATED',
      },
    });
    const sent = api.requests.filter((r) => r.path === `/inApps/v2/transactions/consumption/${id}`);
    assert.deepEqual(
      sent.map((r) => [r.method, r.authorized]),
      [['PUT', true]],
    );
    await waitFor('the recorded delivery', async () => (await requests())[0].eventState === 'delivered');
    const [recorded] = await requests();
    assert.deepEqual([recorded.state, recorded.attempts, recorded.trxNo], ['queued', 1, trxNo]);
    assert.ok(recorded.sentAt);
    assert.equal(recorded.body.deliveryStatus, 'DELIVERED');
    // The game's pull API does not list the store's event.
    const q = signMd5({ clientId: w.app.clientId }, w.app.secret);
    const pulled = (await (
      await w.svc.fetch(`/api/notify/v1/events?${new URLSearchParams(q as Record<string, string>)}`)
    ).json()) as any;
    assert.ok(pulled.data.list.length > 0);
    assert.ok(!pulled.data.list.some((e: any) => e.notifyId === recorded.eventId || e.type === 'store_consumption'));
  });

  it("a request signed past Apple's 12-hour window is recorded as expired and sends nothing", async () => {
    const { id } = await granted();
    const sends = api.consumption.length;
    const n = await notify(w, 'apple', {
      signedPayload: await signApple(
        chain,
        notificationPayload('CONSUMPTION_REQUEST', await signTx({ transactionId: id, originalTransactionId: id }), {
          signedDate: Date.now() - 13 * 3_600_000,
        }),
      ),
    });
    assert.deepEqual([n.status, n.body.data], [200, { outcome: 'ignored', reason: 'expired' }]);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(api.consumption.length, sends);
    assert.equal((await requests())[0].state, 'expired');
  });

  it('a failed send is retried through the delivery engine', async () => {
    const { id } = await granted();
    api.failConsumption = 1;
    const before = api.consumption.length;
    const n = await consumptionRequest(id);
    assert.equal(n.body.data.outcome, 'applied');
    await waitFor('the retried send', () => api.consumption.length === before + 1);
    const tries = api.requests.filter((r) => r.path === `/inApps/v2/transactions/consumption/${id}`);
    assert.equal(tries.length, 2, 'one failure, then the retry');
    await waitFor('the recorded delivery', async () => (await requests())[0].eventState === 'delivered');
    const [recorded] = await requests();
    assert.equal(recorded.attempts, 2);
    // No consumption was reported for this order: none is sent.
    assert.equal((api.consumption.at(-1)!.body as any).consumptionPercentage, undefined);
  });

  it("the game route refuses hostile values and other apps' orders, writing nothing", async () => {
    const { trxNo } = await granted();
    const rows = await reports();
    const bad: Array<Record<string, unknown>> = [
      { consumptionPercentage: 100_001 },
      { consumptionPercentage: -1 },
      { consumptionPercentage: 1.5 },
      { consumptionPercentage: '500' },
      { consumptionPercentage: 2 ** 53 },
      { trxNo: 2 ** 53 + 2 },
    ];
    for (const over of bad) {
      const body = { ...signed({ appId: w.app.appId, trxNo, consumptionPercentage: 1000 }), ...over };
      const res = await report(trxNo, body);
      assert.equal(res.status, 400, JSON.stringify([over, res.body]));
    }
    // A signed trxNo other than the path's.
    const mismatch = await report(trxNo, signed({ appId: w.app.appId, trxNo: trxNo + 1, consumptionPercentage: 1 }));
    assert.deepEqual([mismatch.status, mismatch.body.code], [400, 40000], JSON.stringify(mismatch.body));
    const nul = await report(trxNo, signed({ appId: w.app.appId, trxNo, consumptionPercentage: 1, nonce: 'a\u0000' }));
    assert.equal(nul.status, 400);
    const badSign = {
      ...signed({ appId: w.app.appId, trxNo, consumptionPercentage: 1000 }),
      consumptionPercentage: 2000,
    };
    assert.equal((await report(trxNo, badSign)).status, 401);
    const other = await w.svc.createApp({ name: 'other' });
    const foreign = await report(trxNo, signed({ appId: other.appId, trxNo, consumptionPercentage: 1 }, other.secret));
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    const unpaid = (await placeStoreOrder(w, 1)).order.trxNo;
    const state = await report(unpaid, signed({ appId: w.app.appId, trxNo: unpaid, consumptionPercentage: 1 }));
    assert.equal(state.status, 409, JSON.stringify(state.body));
    assert.equal(await reports(), rows);
  });
});
