import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../testing/child.js';
import { TEST_DATABASE_URL } from '../testing/database.js';
import { refundNotesOf, startCase, type RefundCase } from '../testing/payment-providers/refunds.js';

/** `order refund` of a web order from the CLI: through the provider, reason required, once under a retry. */
describe('refunds from the CLI', () => {
  let c: RefundCase;
  let env: Record<string, string>;
  before(async () => {
    c = await startCase('stripe');
    const svc = c.f.svc;
    const schema = svc.services.database.schema;
    env = {
      DATA_DIR: svc.config.dataDir,
      MASTER_KEY: svc.config.MASTER_KEY!,
      ADMIN_TOKEN: svc.adminToken,
      STRIPE_API_BASE_URL: svc.config.STRIPE_API_BASE_URL,
      ...(schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
        : {}),
    };
  });
  after(async () => {
    await c?.close();
  });

  it('refunds part of a web order through Stripe once; no reason or a bad amount is refused, nothing sent', async () => {
    const { trxNo } = await c.paidOrder('cli-1', 2);
    const noReason = await runCli(env, ['order', 'refund', String(trxNo)]);
    assert.notEqual(noReason.code, 0);
    assert.match(noReason.stderr, /--reason/);
    const badAmount = await runCli(env, ['order', 'refund', String(trxNo), '--reason', 'x', '--amount', '-1']);
    assert.notEqual(badAmount.code, 0);
    assert.equal(c.refundCalls().length, 0);

    const args = ['--json', 'order', 'refund', String(trxNo), '--reason', 'asked by mail', '--amount', '1.00'];
    const first = await runCli(env, args);
    assert.equal(first.code, 0, first.stderr);
    const refund = JSON.parse(first.stdout);
    assert.equal(refund.state, 'succeeded');
    assert.equal(refund.amount, 1);
    assert.match(refund.requestedBy, /^cli:/);
    const again = await runCli(env, args);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).refundRequestId, refund.refundRequestId);
    assert.equal(c.refundCalls().length, 1);
    await c.f.game.waitFor(() => refundNotesOf(c.f, trxNo).length > 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(refundNotesOf(c.f, trxNo).length, 1);
  });

  it('grants a studio developer refunds of its apps from the CLI (set-refunds), never of an app it does not see', async () => {
    const made = await c.f.svc.admin('POST', '/studio-developers', { name: 'cli-refunds.dev', appIds: [c.appId] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const set = await runCli(env, ['--json', 'studio-developer', 'set-refunds', 'cli-refunds.dev', String(c.appId)]);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout).refundAppIds, [c.appId]);
    const outside = await runCli(env, ['studio-developer', 'set-refunds', 'cli-refunds.dev', '999999']);
    assert.notEqual(outside.code, 0);
    assert.match(outside.stderr, /refundAppIds/);
    const none = await runCli(env, ['--json', 'studio-developer', 'set-refunds', 'cli-refunds.dev', 'none']);
    assert.deepEqual(JSON.parse(none.stdout).refundAppIds, []);
  });
});
