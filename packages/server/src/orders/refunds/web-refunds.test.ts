import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../../testing/service.js';
import { RefundNotification } from '../notifications.schemas.js';
import {
  SANDBOX,
  appWithProducts,
  assertSchema,
  counts,
  details,
  payOk,
  placeOk,
  storeOrder,
  webOrder,
} from '../../testing/orders/orders.js';
import type { ProviderRefund } from './web-refunds.js';

/**
 * The web refund core (web-refunds.ts) on a sandbox-paid web order (channel 5): whole and partial refunds, lost
 * disputes, each once per provider id, never more than what remains, checked in the database under concurrency.
 */
describe('web refunds: applyProviderRefund', () => {
  let svc: TestService;
  let app: any;
  let n = 0;
  before(async () => {
    svc = await startTestService(SANDBOX);
    app = await appWithProducts(svc);
  });
  after(async () => {
    await svc.close();
  });

  /** A paid web order of 36.69 USD (6.99 + 3 x 9.90). */
  async function paidWebOrder(): Promise<number> {
    const order = await placeOk(svc, webOrder(app.appId));
    await payOk(svc, order.trxNo);
    return order.trxNo;
  }
  const refund = (trxNo: number, extra: Partial<ProviderRefund> = {}): ProviderRefund => ({
    appId: app.appId,
    trxNo,
    provider: 'stripe',
    providerRefundId: `re_test_${++n}`,
    amountMinor: 1000,
    currency: 'USD',
    kind: 'refund',
    refundedAt: Date.now(),
    ...extra,
  });
  const apply = (r: ProviderRefund) => svc.services.orders.webRefunds.apply(r);

  it('refunds in parts: a refund order each with a 2.5 of the part, never past the total, the history says so', async () => {
    const trxNo = await paidWebOrder();
    const first = await apply(refund(trxNo, { amountMinor: 1000, providerRefundId: 're_part_1' }));
    assert.equal(first.outcome, 'applied');
    assert.equal(first.remainingMinor, 2669);
    const again = await apply(refund(trxNo, { amountMinor: 1000, providerRefundId: 're_part_1' }));
    assert.deepEqual(again, { outcome: 'duplicate', refundTrxNo: first.refundTrxNo, remainingMinor: 2669 });
    const over = await apply(refund(trxNo, { amountMinor: 2670 }));
    assert.deepEqual(over, { outcome: 'exceeds_remaining', remainingMinor: 2669 });
    const rest = await apply(refund(trxNo, { amountMinor: 2669, kind: 'dispute_lost', providerRefundId: 'du_1' }));
    assert.equal(rest.outcome, 'applied');
    assert.equal(rest.remainingMinor, 0);

    const d = await details(svc, trxNo);
    assert.equal(d.order.status, 0, 'the payment stays succeeded (2.7)');
    assert.equal(d.refundedAmount, 36.69);
    assert.deepEqual(
      d.refunds.map((r: any) => [r.trxNo, r.trxType, r.originalTrxNo, r.totalAmount, r.bankTrxNo]),
      [
        [first.refundTrxNo, 2, trxNo, 10, 're_part_1'],
        [rest.refundTrxNo, 2, trxNo, 26.69, 'du_1'],
      ],
    );
    assert.deepEqual(
      d.webRefunds.map((w: any) => [w.kind, w.amount, w.providerRefundId, w.operator]),
      [
        ['refund', 10, 're_part_1', null],
        ['dispute_lost', 26.69, 'du_1', null],
      ],
    );
    const history = d.statusHistory.slice(-2).map((h: any) => [h.fromStatus, h.status, h.reason]);
    assert.deepEqual(history, [
      [0, 0, `partly refunded: 10.00 USD at stripe (re_part_1), refund order ${first.refundTrxNo}`],
      [0, 0, `dispute lost: 26.69 USD at stripe (du_1), refund order ${rest.refundTrxNo}`],
    ]);
    const refunds = d.notifications.filter((x: any) => x.type === 'refund').map((x: any) => x.body);
    assert.equal(refunds.length, 2);
    for (const body of refunds) assertSchema(RefundNotification, body, '2.5');
    assert.deepEqual(
      refunds.map((b: any) => [b.trxNo, b.originalTrxNo, b.totalAmount, b.currency, b.channel, b.trxType]),
      [
        [first.refundTrxNo, trxNo, 10, 'USD', 5, 2],
        [rest.refundTrxNo, trxNo, 26.69, 'USD', 5, 2],
      ],
    );
    assert.deepEqual(refunds[0].attach, d.order.attach, '2.5 rule 2: the attach of the payment');
    assert.deepEqual(refunds[0].products, d.order.products);
    assert.deepEqual(await svc.services.orders.webRefunds.remaining(trxNo), { remainingMinor: 0, currency: 'USD' });
    const nothing = await apply(refund(trxNo, { amountMinor: 1 }));
    assert.deepEqual(nothing, { outcome: 'exceeds_remaining', remainingMinor: 0 });
  });

  it("a provider's running total applies what it adds, once", async () => {
    const trxNo = await paidWebOrder();
    const total = (amountMinor: number, id: string) =>
      apply(refund(trxNo, { amountMinor, amountIs: 'total_refunded', provider: 'alipay', providerRefundId: id }));
    assert.equal((await total(500, `${trxNo}:r1`)).amountMinor, 500);
    assert.equal((await total(1500, `${trxNo}:r2`)).amountMinor, 1000);
    assert.equal((await total(1500, `${trxNo}:r2`)).outcome, 'duplicate');
    assert.equal((await total(1200, `${trxNo}:late`)).outcome, 'already_covered');
    assert.equal((await total(3670, `${trxNo}:r3`)).outcome, 'exceeds_remaining');
    assert.equal((await details(svc, trxNo)).refundedAmount, 15);
  });

  it('refuses what is not a paid web payment of this app, another currency, or an amount that is not one, writing nothing', async () => {
    const trxNo = await paidWebOrder();
    const unpaid = await placeOk(svc, webOrder(app.appId));
    const store = await placeOk(svc, storeOrder(app.appId));
    await payOk(svc, store.trxNo);
    const before = await counts(svc);
    assert.equal((await apply(refund(unpaid.trxNo))).outcome, 'not_paid');
    assert.equal(
      (await apply(refund(store.trxNo))).outcome,
      'unknown_order',
      'a store payment refunds through its store',
    );
    assert.equal((await apply(refund(trxNo, { appId: app.appId + 1000 }))).outcome, 'unknown_order');
    // A provider id another app's refund took: nothing about this app's orders, not even that it exists.
    const taken = await apply(refund(trxNo, { amountMinor: 1, providerRefundId: 're_taken' }));
    assert.equal(taken.outcome, 'applied');
    const other = await apply(refund(trxNo, { appId: app.appId + 1000, providerRefundId: 're_taken' }));
    assert.deepEqual(other, { outcome: 'unknown_order' });
    assert.equal((await apply(refund(987654321))).outcome, 'unknown_order');
    assert.equal((await apply(refund(trxNo, { currency: 'EUR' }))).outcome, 'currency_mismatch');
    for (const amountMinor of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, Number.NaN])
      assert.equal((await apply(refund(trxNo, { amountMinor }))).outcome, 'invalid_amount', String(amountMinor));
    const after = await counts(svc);
    assert.deepEqual(
      [after.orders - before.orders, after.outbox - before.outbox, after.supplements - before.supplements],
      [1, 1, 0],
      'only the one refund applied',
    );
    assert.equal((await details(svc, trxNo)).refundedAmount, 0.01);
  });

  it('concurrent copies of one refund apply it once; concurrent refunds never give back more than the payment', async () => {
    const rounds = svc.services.database.dialect.name === 'postgres' ? 25 : 5;
    for (let round = 0; round < rounds; round++) {
      const trxNo = await paidWebOrder();
      const before = await counts(svc);
      const same = await Promise.all(
        Array.from({ length: 8 }, () =>
          apply(refund(trxNo, { amountMinor: 700, providerRefundId: `re_same_${trxNo}` })),
        ),
      );
      assert.deepEqual(
        same.map((r) => r.outcome).sort(),
        ['applied', ...Array(7).fill('duplicate')],
        `round ${round}: ${JSON.stringify(same)}`,
      );
      assert.equal(new Set(same.map((r) => r.refundTrxNo)).size, 1);
      // 36.69 - 7.00 = 29.69 left: four of six 7.00 refunds fit.
      const many = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          apply(refund(trxNo, { amountMinor: 700, providerRefundId: `re_${trxNo}_${i}` })),
        ),
      );
      assert.deepEqual(
        many.map((r) => r.outcome).sort(),
        ['applied', 'applied', 'applied', 'applied', 'exceeds_remaining', 'exceeds_remaining'],
        `round ${round}`,
      );
      const d = await details(svc, trxNo);
      assert.equal(d.refundedAmount, 35);
      assert.equal(d.refunds.length, 5);
      assert.equal(d.notifications.filter((x: any) => x.type === 'refund').length, 5);
      const after = await counts(svc);
      assert.equal(after.orders - before.orders, 5);
      assert.equal(after.outbox - before.outbox, 5);
    }
  });

  it('the refund abuse view and the overview count web refunds and lost disputes beside the store refunds', async () => {
    const other = await appWithProducts(svc);
    const order = await placeOk(svc, webOrder(other.appId, { userId: 'web-refunder' }));
    await payOk(svc, order.trxNo);
    const mine = (extra: Partial<ProviderRefund>) => refund(order.trxNo, { appId: other.appId, ...extra });
    assert.equal((await apply(mine({ amountMinor: 100 }))).outcome, 'applied');
    assert.equal((await apply(mine({ amountMinor: 200 }))).outcome, 'applied');
    assert.equal((await apply(mine({ amountMinor: 300, kind: 'dispute_lost' }))).outcome, 'applied');
    const store = await placeOk(svc, storeOrder(other.appId, { userId: 'web-refunder' }));
    await payOk(svc, store.trxNo);
    assert.equal((await svc.admin('POST', `/sandbox/orders/${store.trxNo}/refund`, {})).status, 201);

    const abuse = await svc.admin('GET', `/apps/${other.appId}/refund-abuse`);
    assert.equal(abuse.status, 200, JSON.stringify(abuse.body));
    const [row] = abuse.body.refunders;
    assert.deepEqual(
      [row.userId, row.refunds, row.webRefunds, row.disputesLost],
      ['web-refunder', 4, 2, 1],
      'four refund orders: a store refund, two web refunds and a lost dispute',
    );
    const overview = await svc.admin('GET', `/overview?appId=${other.appId}`);
    assert.equal(overview.status, 200, JSON.stringify(overview.body));
    const sum = (k: string) => overview.body.commerce.reduce((n: number, d: any) => n + d[k], 0);
    assert.deepEqual([sum('refunds'), sum('webRefunds'), sum('disputesLost')], [4, 2, 1]);
  });
});
