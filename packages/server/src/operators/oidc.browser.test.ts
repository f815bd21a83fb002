import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestService, type TestService } from '../testing/service.js';
import { createOperator } from '../testing/operators.js';
import { startOidcProvider, type FixtureProvider } from '../testing/oidc-provider.js';
import { startBrowser, waitForText, type TestBrowser } from '../testing/console/console.js';

/** A free loopback port: the redirect URL registered at the provider must name the service's port before it starts. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * Operator sign-in through OpenID Connect in headless Chromium, against a loopback fixture provider: the console's
 * link, the provider, the callback and the session cookie; refused (and audited) for an operator that does not
 * exist, a forged state, and an ID token made for another client.
 */
describe('console sign-in with OpenID Connect', () => {
  let svc: TestService;
  let idp: FixtureProvider;
  let browser: TestBrowser;

  before(async () => {
    [idp, browser] = await Promise.all([startOidcProvider(), startBrowser()]);
    const port = await freePort();
    svc = await startTestService(
      {
        PORT: String(port),
        OIDC_ISSUER_URL: idp.url,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_REDIRECT_URL: `http://127.0.0.1:${port}/admin/v1/session/oidc/callback`,
        OPERATOR_LOGIN_DELAY_MS: '0',
      },
      { dispatcher: false },
    );
    await createOperator(svc, 'alice', 'operator');
  });
  beforeEach(() => {
    idp.audience = undefined;
    idp.state = undefined;
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    await idp?.close();
  });

  const trail = async (operator: string) =>
    (await svc.admin('GET', `/admin-actions?operator=${encodeURIComponent(operator)}`)).body.actions as any[];

  async function signInThroughProvider() {
    await browser.context.clearCookies();
    const watched = await browser.newPage();
    await watched.page.goto(`${svc.url}/console`);
    await watched.page.click('a:has-text("Sign in with your company account")');
    return watched;
  }

  it('signs an existing operator in through the provider, with the session cookie out of reach of scripts', async () => {
    idp.user = 'alice';
    const { page, errors, consoleErrors } = await signInThroughProvider();
    await waitForText(page, 'header.topbar .who', /as alice \(operator\)/);
    assert.equal(await page.evaluate('document.cookie'), '', 'the session cookie is HttpOnly');
    // The session works for the console's calls (a change needs its CSRF token, which the console took up).
    await page.click('nav a:has-text("Apps")');
    await page.locator('main[data-route="/apps"]').waitFor();
    const login = (await trail('alice')).find((a) => a.event === 'login');
    assert.ok(login, 'the sign-in is in the audit trail');
    assert.match(login.note ?? '', /OpenID Connect/);
    assert.deepEqual(idp.refusals, []);
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
  });

  for (const [what, arrange, why] of [
    ['an operator who does not exist', () => (idp.user = 'mallory'), /unknown operator/],
    [
      'a forged state',
      () => {
        idp.user = 'alice';
        idp.state = 'forged-state';
      },
      /did not check/,
    ],
    [
      'an ID token made for another client',
      () => {
        idp.user = 'alice';
        idp.audience = 'another-client';
      },
      /did not check/,
    ],
  ] as const)
    it(`refuses ${what}, audited, and signs nobody in`, async () => {
      arrange();
      // The page's own refused calls (401 before sign-in) are recorded as `refused`: only sign-ins are counted here.
      const signIns = async () =>
        (await trail(what.includes('exist') ? 'mallory' : '(unknown)')).filter((a: any) => a.event !== 'refused');
      const before = (await signIns()).length;
      const { page, errors } = await signInThroughProvider();
      await page.locator('.oidc-refused').waitFor();
      assert.match(page.url(), /\/console\?oidc=refused$/);
      assert.equal(await page.locator('header.topbar').count(), 0, 'still on the sign-in screen');
      const me = await page.evaluate(async () => (await fetch('/admin/v1/session')).status);
      assert.equal(me, 401, 'no session was opened');
      const after = await signIns();
      assert.equal(after.length, before + 1);
      assert.equal(after[0].event, 'login-failed');
      assert.match(after[0].note ?? '', why);
      assert.deepEqual(errors, []);
    });

  it('refuses a callback without the browser that started it (no state cookie)', async () => {
    const res = await svc.fetch('/admin/v1/session/oidc/callback?code=x&state=y', { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/console?oidc=refused');
    assert.equal(res.headers.get('set-cookie')?.includes('gp_operator_session='), false);
  });

  it('says whether OpenID Connect is on, and answers 404 to its routes when it is off', async () => {
    assert.deepEqual((await svc.admin('GET', '/session/methods')).body, {
      password: true,
      oidc: true,
      firstRun: false,
    });
    const plain = await startTestService({}, { dispatcher: false });
    try {
      // A new service has no operator account: firstRun (the sign-in screen's first-time hint) is true.
      assert.deepEqual((await plain.admin('GET', '/session/methods')).body, {
        password: true,
        oidc: false,
        firstRun: true,
      });
      assert.equal((await plain.fetch('/admin/v1/session/oidc', { redirect: 'manual' })).status, 404);
    } finally {
      await plain.close();
    }
  });
});
