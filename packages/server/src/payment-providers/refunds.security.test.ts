import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { adminAs, operatorToken } from '../testing/operators.js';
import { createDeveloper, portalAs, portalSessionOf } from '../testing/portal/portal.js';
import { setUpStripe } from '../testing/payment-providers/payment-providers.js';
import { refundNotesOf, refundRows, startCase, type RefundCase } from '../testing/payment-providers/refunds.js';

/**
 * Who may refund: an operator role with `orders.refund` (not support, 403), a studio developer only for its own
 * apps whose refunds it was granted (another studio's order: 404 as every portal route; its own app without the
 * grant: 403), and an order of another app through the portal is "not found". Each refusal writes and sends nothing.
 */
describe('refunds: permissions, studio scoping, audit', () => {
  let c: RefundCase;
  before(async () => {
    c = await startCase('stripe');
  });
  after(async () => {
    await c?.close();
  });

  it('a support (read-only) operator cannot refund (403); an operator can, and the change is in the audit trail', async () => {
    const { trxNo } = await c.paidOrder('perm-1', 1);
    const viewer = await operatorToken(c.f.svc, 'viewer', 'support');
    const refused = await adminAs(c.f.svc, viewer, 'POST', `/orders/${trxNo}/refunds`, { reason: 'please' });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 40303);
    assert.equal(await refundRows(c.f), 0);
    assert.equal(c.refundCalls().length, 0);
    // Reading the refunds is a read.
    assert.equal((await adminAs(c.f.svc, viewer, 'GET', `/orders/${trxNo}/refunds`)).status, 200);

    const operator = await operatorToken(c.f.svc, 'support-lead', 'operator');
    const ok = await adminAs(c.f.svc, operator, 'POST', `/orders/${trxNo}/refunds`, { reason: 'goodwill' });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.requestedBy, 'operator:support-lead');
    // The trail's row is written before the handler and completed with the status after the answer.
    let action: any;
    for (let i = 0; i < 100 && !action?.status; i++) {
      const trail = await c.f.svc.admin('GET', '/admin-actions?limit=50');
      action = trail.body.actions.find(
        (a: any) => a.route === '/admin/v1/orders/:trxNo/refunds' && a.operator === 'support-lead',
      );
      if (!action?.status) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(action?.status, 201);
  });

  it("a studio developer refunds its own app's order only with the grant; another studio's order is 404", async () => {
    const mine = await c.paidOrder('studio-1', 1);
    // Another studio's app, with Stripe too, and a paid order of it.
    const other = await c.f.svc.createApp({
      name: 'Other Studio',
      region: 'overseas',
      callbackUrls: { default: `${c.f.game.url}/cb` },
    });
    await setUpStripe(
      c.f as any,
      (c.f as any).stripe,
      other.appId,
      `${c.f.svc.url}/notify/v1/providers/stripe/${other.appId}`,
    );

    const dev = await createDeveloper(c.f.svc, 'studio-dev', [c.appId]);
    let s = await portalSessionOf(c.f.svc, dev);
    const path = (appId: number, trxNo: number) => `/apps/${appId}/orders/${trxNo}/refunds`;
    const noGrant = await portalAs(c.f.svc, s, 'POST', path(c.appId, mine.trxNo), { reason: 'asked by player' });
    assert.equal(noGrant.status, 403, JSON.stringify(noGrant.body));
    assert.equal(noGrant.body.code, 40319);

    const granted = await c.f.svc.admin('PATCH', '/studio-developers/studio-dev', { refundAppIds: [c.appId] });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.deepEqual(granted.body.refundAppIds, [c.appId]);
    const outside = await c.f.svc.admin('PATCH', '/studio-developers/studio-dev', { refundAppIds: [other.appId] });
    assert.equal(outside.status, 400, 'refunds only of apps it sees');
    s = await portalSessionOf(c.f.svc, dev);

    // Another studio's app: 404, as if it did not exist.
    const foreign = await portalAs(c.f.svc, s, 'POST', path(other.appId, mine.trxNo), { reason: 'x' });
    assert.equal(foreign.status, 404, JSON.stringify(foreign.body));
    // Its own app in the path, another app's order: "not found" too.
    const otherOrder = await c.f.svc.services.database.db
      .selectFrom('orders')
      .select('trx_no')
      .where('app_id', '!=', c.appId)
      .executeTakeFirst();
    if (otherOrder) {
      const cross = await portalAs(c.f.svc, s, 'POST', path(c.appId, Number(otherOrder.trx_no)), { reason: 'x' });
      assert.equal(cross.status, 404, JSON.stringify(cross.body));
    }
    const before = c.refundCalls().length;
    const rows = await refundRows(c.f);

    const ok = await portalAs(c.f.svc, s, 'POST', path(c.appId, mine.trxNo), { reason: 'asked by player', amount: 1 });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.requestedBy, 'studio:studio-dev');
    assert.equal(ok.body.amount, 1);
    assert.equal(c.refundCalls().length, before + 1);
    assert.equal(await refundRows(c.f), rows + 1);
    await c.f.game.waitFor(() => refundNotesOf(c.f, mine.trxNo).length === 1);
    const listed = await portalAs(c.f.svc, s, 'GET', path(c.appId, mine.trxNo));
    assert.equal(listed.body.refunds.length, 1);
    // Without the CSRF header a portal change is refused.
    const noCsrf = await portalAs(c.f.svc, s, 'POST', path(c.appId, mine.trxNo), { reason: 'again' }, { csrf: false });
    assert.equal(noCsrf.status, 403);
  });
});

/**
 * Races closed in the database: many refunds of one order at once never take more than was paid (the payment row's
 * lock, then the sum), and many copies of one refund (one key) reach the provider once (the unique key).
 */
describe('refunds: concurrent requests', () => {
  let c: RefundCase;
  before(async () => {
    c = await startCase('stripe');
  });
  after(async () => {
    await c?.close();
  });

  it('8 refunds of 2.00 of a 9.98 order at once: 4 taken, 4 refused, each taken once at the provider (10 rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const { trxNo } = await c.paidOrder(`race-${round}`, 2);
      const calls = c.refundCalls().length;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          c.f.svc.admin('POST', `/orders/${trxNo}/refunds`, {
            amount: '2.00',
            reason: 'race',
            idempotencyKey: `race-${round}-key-${i}`,
          }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 201, 201, 201, 409, 409, 409, 409], JSON.stringify(answers.map((a) => a.body)));
      assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.code === 40957));
      assert.equal(c.refundCalls().length, calls + 4);
      // One key clicked 8 times at once: one row, one call.
      const { trxNo: other } = await c.paidOrder(`race-click-${round}`, 1);
      const clicks = await Promise.all(
        Array.from({ length: 8 }, () =>
          c.f.svc.admin('POST', `/orders/${other}/refunds`, {
            reason: 'double click',
            idempotencyKey: `click-${round}-0001`,
          }),
        ),
      );
      assert.equal(clicks.filter((a) => a.status === 201).length, 1, JSON.stringify(clicks.map((a) => a.body)));
      assert.equal(clicks.filter((a) => a.status === 200).length, 7);
      assert.equal(c.refundCalls().length, calls + 5);
    }
  });
});
