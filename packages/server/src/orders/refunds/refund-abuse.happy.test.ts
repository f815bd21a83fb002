import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FormatRegistry } from '@sinclair/typebox';
import { assertSchema, payOk } from '../../testing/orders/orders.js';
import { Refunders } from './refund-abuse.schemas.js';
import { anotherApp, refundedPurchase, startRefundWorld, type RefundWorld } from '../../testing/orders/refund-abuse.js';

/**
 * The players of an app with the most refunds (GET /admin/v1/apps/{appId}/refund-abuse), against refunds made
 * through the store refund flow: counts, amounts per currency as exact decimals, pending supplements now, the last
 * refund, the ranking and its paging, the window and the currency filter, and only this app's refunds.
 */
// The answer's times are ISO 8601 date-times (TypeBox checks a format only once it is told what it means).
FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(v));

describe('refund abuse: the most refunded players of an app', () => {
  let w: RefundWorld;
  let other: any;
  /** Refund order times by player, for lastRefundAt. */
  const refundTimes = new Map<string, string[]>();
  let beforeLast = '';

  const refund = async (userId: string, opts: Parameters<typeof refundedPurchase>[3] = {}, appId = w.app.appId) => {
    const r = await refundedPurchase(w.svc, appId, userId, opts);
    if (appId === w.app.appId) refundTimes.set(userId, [...(refundTimes.get(userId) ?? []), r.refund.createdAt]);
    return r;
  };
  const get = async (query = '', appId = w.app.appId) => {
    const res = await w.svc.admin('GET', `/apps/${appId}/refund-abuse${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertSchema(Refunders, res.body, 'refund-abuse answer');
    return res.body;
  };

  before(async () => {
    w = await startRefundWorld();
    other = await anotherApp(w, 'Other game', 6.99, 'USD');
    w.refusedUsers.add('4004');
    // 3001: three refunds, two currencies, all granted (three supplements owed).
    await refund('3001');
    await refund('3001', { quantity: 2 });
    await refund('3001', { productCode: 'kwd_item', channel: 2 });
    // 2002 and 2003: two refunds each, 2002 for more USD (ranked first of the two).
    await refund('2002', { quantity: 3, channel: 2 });
    await refund('2002');
    await refund('2003');
    await refund('2003');
    // 4004: one refund of items the game never granted: no supplement.
    await refund('4004', { granted: false });
    beforeLast = new Date(Date.now() + 1).toISOString();
    await new Promise((r) => setTimeout(r, 5));
    // 1005: one refund, the last of all; and in another app, refunds that must not count here.
    await refund('1005');
    await refund('3001', {}, other.appId);
    await refund('9009', {}, other.appId);
  });
  after(async () => {
    await w?.close();
  });

  it('ranks by count then amount, with amounts per currency, supplements owed and the last refund', async () => {
    const page = await get();
    assert.equal(page.appId, w.app.appId);
    assert.equal(page.currency, null);
    assert.equal(page.nextCursor, null);
    assert.ok(Date.parse(page.to) - Date.parse(page.from) === 30 * 86_400_000, 'default window: 30 days');
    assert.deepEqual(
      page.refunders.map((r: any) => [r.userId, r.refunds, r.refunded, r.pendingSupplements]),
      [
        [
          '3001',
          3,
          [
            { currency: 'KWD', amount: 1.25, refunds: 1 },
            { currency: 'USD', amount: 20.97, refunds: 2 },
          ],
          3,
        ],
        ['2002', 2, [{ currency: 'USD', amount: 27.96, refunds: 2 }], 2],
        ['2003', 2, [{ currency: 'USD', amount: 13.98, refunds: 2 }], 2],
        // Equal count and amount: by userId.
        ['1005', 1, [{ currency: 'USD', amount: 6.99, refunds: 1 }], 1],
        ['4004', 1, [{ currency: 'USD', amount: 6.99, refunds: 1 }], 0],
      ],
    );
    for (const r of page.refunders) assert.equal(r.lastRefundAt, refundTimes.get(r.userId)!.at(-1), r.userId);
  });

  it('pages through the same ranking with the cursor, one player a page', async () => {
    const all = (await get()).refunders.map((r: any) => r.userId);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: any = await get(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.refunders.map((r: any) => r.userId));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, all);
    const two = await get('?limit=2');
    assert.deepEqual(
      two.refunders.map((r: any) => r.userId),
      ['3001', '2002'],
    );
    const rest = await get(`?limit=2&cursor=${two.nextCursor}`);
    assert.deepEqual(
      rest.refunders.map((r: any) => r.userId),
      ['2003', '1005'],
    );
  });

  it('counts only the window: to before the last refund, from after the first ones', async () => {
    const early = await get(`?to=${encodeURIComponent(beforeLast)}`);
    assert.ok(!early.refunders.some((r: any) => r.userId === '1005'), 'the last refund is after the window');
    assert.equal(early.refunders.length, 4);
    const late = await get(`?from=${encodeURIComponent(beforeLast)}`);
    assert.deepEqual(
      late.refunders.map((r: any) => [r.userId, r.refunds]),
      [['1005', 1]],
    );
    const past = await get('?from=0&to=1000');
    assert.deepEqual([past.refunders, past.nextCursor], [[], null]);
    assert.equal(past.from, '1970-01-01T00:00:00.000Z');
  });

  it('filters one currency: counts and amounts in it only', async () => {
    const kwd = await get('?currency=KWD');
    assert.deepEqual(
      kwd.refunders.map((r: any) => [r.userId, r.refunds, r.refunded]),
      [['3001', 1, [{ currency: 'KWD', amount: 1.25, refunds: 1 }]]],
    );
    assert.equal(kwd.currency, 'KWD');
    const usd = await get('?currency=USD');
    assert.deepEqual(
      usd.refunders.map((r: any) => [r.userId, r.refunds]),
      [
        ['2002', 2],
        ['3001', 2],
        ['2003', 2],
        ['1005', 1],
        ['4004', 1],
      ],
    );
    assert.deepEqual((await get('?currency=EUR')).refunders, []);
  });

  it('shows each app its own refunders only; a paid supplement is no longer pending', async () => {
    const theirs = await get('', other.appId);
    assert.deepEqual(
      theirs.refunders.map((r: any) => [r.userId, r.refunds]),
      [
        ['3001', 1],
        ['9009', 1],
      ],
    );
    // 1005 pays its supplement (4.5): pending now 0, the refund still counts.
    const supplements = await w.svc.admin('GET', `/supplements?appId=${w.app.appId}&userId=1005`);
    const tradeNo = supplements.body.supplements[0].tradeNo;
    const paying = await w.svc.services.orders.refunds.startSupplementPayment(w.app.appId, '1005', tradeNo);
    await payOk(w.svc, paying.order.trxNo);
    const row = (await get()).refunders.find((r: any) => r.userId === '1005');
    assert.deepEqual([row.refunds, row.pendingSupplements], [1, 0]);
  });
});
