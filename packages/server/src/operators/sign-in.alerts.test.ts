import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { createOperator } from '../testing/operators.js';
import { assertAlertFires, Scrapes } from '../testing/promtool.js';
import { createDeveloper, portalSignIn } from '../testing/portal/portal.js';
import { signIn } from '../testing/operators/operators.js';

/**
 * Brute force on the sign-ins shows in the metrics (docs/operations.md#alerts): operator_sign_in_failures_total by
 * account kind and reason, operator_lockouts_total when an account locks; the example alerts SignInFailures and
 * AccountLockouts fire from the real scrapes.
 */
describe('sign-in failures and lockouts as metrics', () => {
  let svc: TestService;
  before(async () => {
    // Locked after 5 failures in a row (the default); no delay between answers, so the test is quick.
    svc = await startTestService({ OPERATOR_LOGIN_DELAY_MS: '0' }, { dispatcher: false });
  });
  after(async () => {
    await svc?.close();
  });

  const scrape = async () => svc.metrics();

  for (const kind of ['operator', 'studio_developer'] as const) {
    it(`ten wrong passwords of a ${kind} move the failure metric and the lockout counter; the alerts fire`, async () => {
      const name = kind === 'operator' ? 'olive' : 'stella';
      if (kind === 'operator') await createOperator(svc, name, 'support');
      else await createDeveloper(svc, name, [Number((await svc.createApp()).appId)]);
      const attempt = () =>
        kind === 'operator'
          ? signIn(svc, { name, password: 'not the password at all', totp: '000000' })
          : portalSignIn(svc, { name, password: 'not the password at all', totp: '000000' });
      const scrapes = new Scrapes();
      scrapes.add(await scrape());
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await attempt()).status);
        scrapes.add(await scrape());
      }
      // Five refused, then the account is locked: 429 for the rest.
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
      assert.equal(scrapes.last(`operator_sign_in_failures_total{account="${kind}",reason="wrong_password"}`), 5);
      assert.equal(scrapes.last(`operator_sign_in_failures_total{account="${kind}",reason="locked"}`), 5);
      assert.equal(scrapes.last(`operator_lockouts_total{account="${kind}"}`), 1);
      // An unknown name counts too, under its own reason.
      await (kind === 'operator'
        ? signIn(svc, { name: 'nobody-here', password: 'x'.repeat(12), totp: '000000' })
        : portalSignIn(svc, { name: 'nobody-here', password: 'x'.repeat(12), totp: '000000' }));
      scrapes.add(await scrape());
      assert.equal(scrapes.last(`operator_sign_in_failures_total{account="${kind}",reason="unknown_name"}`), 1);

      assertAlertFires({ alert: 'SignInFailures', scrapes, threshold: 8, labels: { account: kind } });
      assertAlertFires({ alert: 'AccountLockouts', scrapes, labels: { account: kind } });
    });
  }
});
