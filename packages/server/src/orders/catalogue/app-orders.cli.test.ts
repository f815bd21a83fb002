import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../testing/child.js';
import { TEST_DATABASE_URL } from '../../testing/database.js';
import { refundedPurchase, startRefundWorld, type RefundWorld } from '../../testing/orders/refund-abuse.js';

/** `app refunders` and `app order-settings show|set` on the database of a running service. */
describe('refund abuse CLI', () => {
  let w: RefundWorld;
  let env: Record<string, string>;
  before(async () => {
    w = await startRefundWorld();
    const schema = w.svc.services.database.schema;
    env = {
      DATA_DIR: w.svc.config.dataDir,
      MASTER_KEY: w.svc.config.MASTER_KEY!,
      ADMIN_TOKEN: w.svc.adminToken,
      ...(schema
        ? { DATABASE_URL: `${TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}` }
        : {}),
    };
    await refundedPurchase(w.svc, w.app.appId, '5005');
    await refundedPurchase(w.svc, w.app.appId, '5005', { productCode: 'kwd_item', channel: 2 });
    w.refusedUsers.add('6006');
    await refundedPurchase(w.svc, w.app.appId, '6006', { granted: false });
  });
  after(async () => {
    await w?.close();
  });

  const cli = async (...args: string[]) => {
    const res = await runCli(env, ['--json', ...args]);
    assert.equal(res.code, 0, res.stderr);
    return JSON.parse(res.stdout);
  };
  const fails = async (args: string[], message: RegExp) => {
    const res = await runCli(env, args);
    assert.equal(res.code, 1, res.stdout);
    assert.match(res.stderr, message);
  };

  it('lists the refunders as the admin API does, pages them, and says what is wrong with a bad filter', async () => {
    const id = String(w.app.appId);
    const listed = await cli('app', 'refunders', id);
    const api = (
      await w.svc.admin(
        'GET',
        `/apps/${id}/refund-abuse?from=${encodeURIComponent(listed.from)}&to=${encodeURIComponent(listed.to)}`,
      )
    ).body;
    assert.deepEqual(listed, api);
    assert.deepEqual(
      listed.refunders.map((r: any) => [r.userId, r.refunds, r.pendingSupplements]),
      [
        ['5005', 2, 2],
        ['6006', 1, 0],
      ],
    );
    const first = await cli('app', 'refunders', id, '--limit', '1');
    const second = await cli('app', 'refunders', id, '--limit', '1', '--cursor', first.nextCursor);
    assert.deepEqual(
      [...first.refunders, ...second.refunders].map((r: any) => r.userId),
      ['5005', '6006'],
    );
    const text = await runCli(env, ['app', 'refunders', id, '--currency', 'KWD']);
    assert.match(
      text.stdout,
      /user 5005 {2}refunds 1 {2}refunded 1\.25 KWD {2}pending supplements 2 {2}last refund \S+Z/,
    );
    await fails(['app', 'refunders', id, '--currency', 'kwd'], /currency: must be an ISO 4217 currency/);
    await fails(
      ['app', 'refunders', id, '--from', '2026-02-01T00:00:00Z', '--to', '2026-01-01T00:00:00Z'],
      /from: must be before to/,
    );
    await fails(['app', 'refunders', id, '--limit', '500'], /limit: must be 1-200/);
    await fails(['app', 'refunders', id, '--cursor', 'bogus'], /cursor: is not a nextCursor/);
    await fails(['app', 'refunders', '999999'], /app 999999 does not exist/);
    await fails(['app', 'refunders', 'x1'], /appId: must be a number/);
  });

  it('shows and sets the order settings, one field at a time', async () => {
    const id = String(w.app.appId);
    assert.deepEqual(await cli('app', 'order-settings', 'show', id), {
      appId: w.app.appId,
      webRegionLock: false,
      refuseStoreOrdersInArrears: false,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    const set = await cli('app', 'order-settings', 'set', id, '--refuse-store-orders-in-arrears', 'on');
    assert.deepEqual(set, {
      appId: w.app.appId,
      webRegionLock: false,
      refuseStoreOrdersInArrears: true,
      accountBinding: 'when_present',
      consumptionConsent: null,
      consumptionConsentedAt: null,
      refundPreference: null,
    });
    assert.deepEqual((await w.svc.admin('GET', `/apps/${id}/order-settings`)).body, set);
    const text = await runCli(env, ['app', 'order-settings', 'set', id, '--web-region-lock', 'on']);
    assert.match(
      text.stdout,
      /web region lock \(2\.4 rule 8\) +on\n +refuse store orders in arrears \(4\.5, 40945\) +on/,
    );
    await fails(['app', 'order-settings', 'set', id, '--refuse-store-orders-in-arrears', 'yes'], /must be on or off/);
    await fails(['app', 'order-settings', 'set', id], /give --web-region-lock, --refuse-store-orders-in-arrears/);
    // Issue 27: account binding and Apple consumption information.
    const bound = await cli(
      'app',
      'order-settings',
      'set',
      id,
      '--account-binding',
      'required',
      '--consumption-consent',
      'Players accept the consumption data clause of our terms (v3, 2026-05).',
      '--refund-preference',
      'DECLINE',
    );
    assert.deepEqual(
      [bound.accountBinding, bound.consumptionConsent, bound.refundPreference],
      ['required', 'Players accept the consumption data clause of our terms (v3, 2026-05).', 'DECLINE'],
    );
    assert.ok(bound.consumptionConsentedAt);
    const off = await cli(
      'app',
      'order-settings',
      'set',
      id,
      '--no-consumption-consent',
      '--refund-preference',
      'none',
    );
    assert.deepEqual([off.consumptionConsent, off.consumptionConsentedAt, off.refundPreference], [null, null, null]);
    await fails(['app', 'order-settings', 'set', id, '--account-binding', 'always'], /required, when_present or off/);
    await fails(['app', 'order-settings', 'set', id, '--consumption-consent', 'too short'], /10 to 2000/);
    await fails(['app', 'order-settings', 'set', id, '--refund-preference', 'GRANT'], /DECLINE, GRANT_FULL/);
    await fails(['app', 'order-settings', 'show', '999999'], /app 999999 does not exist/);
    await fails(['app', 'order-settings', 'set', '999999', '--web-region-lock', 'off'], /app 999999 does not exist/);
  });
});
