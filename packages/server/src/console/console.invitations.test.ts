import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startTestService, type TestService } from '../testing/service.js';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-server.js';
import { codeOf, completeInvitation, createOperator, type TestOperator } from '../testing/operators.js';
import { startBrowser, waitForText, type ConsolePage, type TestBrowser } from '../testing/console/console.js';

/**
 * Issue 42 in Chromium at 1280 px: an operator invites a studio developer and an operator; each invitee completes
 * its link in a second browser (a context of its own, with Chromium's virtual authenticator), sets its own password
 * and a passkey, and signs in with the passkey alone. Every answer the inviting operator's browser received is
 * searched for the invitees' secrets. Used, revoked and expired links are refused; a mailed link (a real SMTP server
 * on loopback) works. Passkeys need a host name (the RP ID), so both browsers use http://localhost:<port>.
 */
describe('console: invitations and passkeys', () => {
  let svc: TestService;
  let smtp: TestSmtpServer;
  let operatorBrowser: TestBrowser;
  let inviteeBrowser: TestBrowser;
  let admin: TestOperator;
  let appId: number;
  let base: string;
  let offset = 0;
  /** Every answer the inviting operator's browser got (URL and body). */
  const operatorAnswers: string[] = [];

  before(async () => {
    smtp = await startSmtpServer();
    [svc, operatorBrowser, inviteeBrowser] = await Promise.all([
      startTestService({ SMTP_URL: smtp.url }, { now: () => Date.now() + offset }),
      startBrowser(),
      startBrowser(),
    ]);
    base = svc.url.replace('127.0.0.1', 'localhost');
    admin = await createOperator(svc, 'root', 'admin');
    appId = (await svc.createApp({ name: 'Invited Game' })).appId;
    operatorBrowser.context.on('response', (r) => {
      r.text().then(
        (body) => operatorAnswers.push(`${r.url()}\n${body}`),
        () => undefined,
      );
    });
  });
  after(async () => {
    await operatorBrowser?.close();
    await inviteeBrowser?.close();
    await svc?.close();
    await smtp?.close();
  });

  /** A page of the invitee's browser with a virtual authenticator of its own (a platform passkey, user verified). */
  async function inviteePage(): Promise<ConsolePage & { addSecurityKey(): Promise<void> }> {
    const watched = await inviteeBrowser.newPage();
    const cdp = await watched.page.context().newCDPSession(watched.page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const addAuthenticator = async (transport: 'internal' | 'usb') => {
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport,
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
    };
    await addAuthenticator('internal');
    return { ...watched, addSecurityKey: () => addAuthenticator('usb') };
  }

  /** Completes a link as the invitee: its own password, a passkey; answers the recovery codes shown. */
  async function acceptWithPasskey(page: Page, link: string, password: string): Promise<string[]> {
    await page.goto(link);
    await page.locator('form.invitation-accept').waitFor();
    await page.fill('#f-invitePassword', password);
    await page.fill('#f-invitePasswordAgain', password);
    await page.fill('#f-inviteKeyName', 'laptop');
    await page.click('form.invitation-accept button[type=submit]');
    await page.locator('.invitation.accepted .recovery-codes').waitFor();
    return page.locator('.invitation.accepted .recovery-codes code').allInnerTexts();
  }

  /** Opens a link in a fresh page of the invitee's browser and expects the refusal. */
  async function expectRefused(link: string): Promise<void> {
    const { page, errors } = await inviteeBrowser.newPage();
    await page.goto(link);
    await waitForText(page, '.invitation.refused', /unknown, used, expired or revoked/);
    assert.deepEqual(errors, []);
    await page.close();
  }

  let operatorPage: ConsolePage;
  let danaLink: string;
  let ottoLink: string;
  /** Waits until an answer the operator's browser recorded holds `text`. */
  async function waitForAnswer(text: string): Promise<void> {
    const until = Date.now() + 5000;
    while (!operatorAnswers.some((a) => a.includes(text))) {
      if (Date.now() > until) throw new Error(`no recorded answer holds ${text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const issuedLink = async (page: Page) => page.locator('.invitation-issued .copy-value').innerText();

  it('an operator invites a studio developer and an operator, and sees their links only', async () => {
    operatorPage = await operatorBrowser.newPage();
    const { page } = operatorPage;
    await page.goto(`${base}/console`);
    await page.fill('#f-name', 'root');
    await page.fill('#f-password', admin.password);
    await page.fill('#f-totp', codeOf(admin, svc.now()));
    await page.click('form.account-signin button[type=submit]');
    await page.locator('header.topbar').waitFor();

    await page.goto(`${base}/console#/people/developers/new`);
    await page.fill('#f-developerName', 'dana');
    await page.fill('#f-developerApps', String(appId));
    await page.click('form.developer-invite button[type=submit]');
    danaLink = await issuedLink(page);
    assert.match(danaLink, /^http:\/\/localhost:\d+\/portal#\/invitation\/gpi_[A-Za-z0-9_-]{43}$/);

    await page.goto(`${base}/console#/people/operators/new`);
    await page.fill('#f-operatorName', 'otto');
    await page.selectOption('#f-operatorRole', 'operator');
    await page.click('form.operator-create button[type=submit]');
    ottoLink = await issuedLink(page);
    assert.match(ottoLink, /^http:\/\/localhost:\d+\/console#\/invitation\/gpi_/);
    // The operator's answers held the links (the invitations they made), and were recorded.
    await waitForAnswer(ottoLink);
  });
  const secrets: string[] = [];

  it('each invitee sets its own password and passkey in a second browser, then signs in with the passkey alone', async () => {
    const links = (await svc.admin('GET', '/studio-developer-invitations')).body.invitations;
    assert.equal(links[0].state, 'pending');

    // The developer first looks at the authenticator-app way (a TOTP secret is shown to it), then takes a passkey.
    const dev = await inviteePage();
    await dev.page.goto(danaLink);
    await dev.page.locator('form.invitation-accept').waitFor();
    await dev.page.selectOption('#f-inviteWay', 'authenticator app');
    secrets.push(await dev.page.locator('.totp-setup .totp-secret').innerText());
    await dev.page.selectOption('#f-inviteWay', 'passkey');
    const danaPassword = 'dana has her own password';
    secrets.push(danaPassword, ...(await acceptWithPasskey(dev.page, danaLink, danaPassword)));
    await dev.page.goto(`${base}/portal`);
    await dev.page.click('.passkey-signin-button');
    await dev.page.locator('header.topbar').waitFor();
    await waitForText(dev.page, 'header.topbar .who', /dana/);
    await waitForText(dev.page, 'main', /Invited Game/);
    // Its passkey is listed on its account page.
    await dev.page.goto(`${base}/portal#/account`);
    await waitForText(dev.page, '.passkey-list', /laptop/);
    assert.deepEqual([dev.errors, dev.consoleErrors], [[], []]);

    const op = await inviteePage();
    const ottoPassword = 'otto chose this one himself';
    secrets.push(ottoPassword, ...(await acceptWithPasskey(op.page, ottoLink, ottoPassword)));
    await op.page.goto(`${base}/console`);
    await op.page.click('.passkey-signin-button');
    await waitForText(op.page, 'header.topbar .who', /otto \(operator\)/);
    // The passkey as the second factor after the password (POST /session with `passkey`), through the real
    // authenticator; a wrong password with it is refused all the same.
    const secondFactor = (pw: string) =>
      op.page.evaluate(async (password) => {
        const bundle = '/console/vendor/simplewebauthn-browser.js';
        await import(bundle);
        const post = (path: string, body: unknown) =>
          fetch(`/admin/v1${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const options = await (await post('/session/passkey-options', {})).json();
        const passkey = await (globalThis as any).SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: options });
        const res = await post('/session', { name: 'otto', password, passkey });
        // The new session's CSRF token, for the console page that goes on in this tab.
        if (res.status === 200)
          sessionStorage.setItem('console.csrf', ((await res.json()) as { csrfToken: string }).csrfToken);
        return res.status;
      }, pw);
    assert.equal(await secondFactor(ottoPassword), 200);
    assert.equal(await secondFactor('not the password of otto'), 401);
    // A second passkey (on a security key: the platform authenticator already holds one of otto's), then removed.
    await op.addSecurityKey();
    await op.page.goto(`${base}/console#/account`);
    await waitForText(op.page, '.passkey-list', /laptop/);
    await op.page.fill('#f-passkeyName', 'spare key');
    await op.page.click('form.passkey-add button[type=submit]');
    await waitForText(op.page, '.passkey-list', /spare key/);
    await op.page.click('.passkey-list tr:has-text("spare key") button:has-text("Remove")');
    await op.page.click('button.confirm-yes');
    await waitForText(op.page, '.passkey-list tbody', /^(?![\s\S]*spare key)[\s\S]*laptop/);
    // (The one 401 is the test's own wrong password above.)
    assert.deepEqual([op.errors, op.consoleErrors.filter((e) => !/status of 401/.test(e))], [[], []]);
    assert.equal(secrets.length, 2 + 10 + 1 + 10);
  });

  it('the operator sees the invitations accepted, and no answer or page of its ever held an invitee secret', async () => {
    const { page, errors, consoleErrors } = operatorPage;
    await page.goto(`${base}/console#/people/invitations`);
    await waitForText(page, '.operator-invitations', /otto[\s\S]*accepted/);
    await waitForText(page, '.studio-developer-invitations', /dana[\s\S]*accepted/);
    const text = await page.locator('body').innerText();
    const answers = operatorAnswers.join('\n');
    assert.ok(answers.includes('/admin/v1/operator-invitations'), 'the answers were recorded');
    for (const secret of secrets) {
      assert.ok(!answers.includes(secret), `an answer to the operator held ${secret}`);
      assert.ok(!text.includes(secret), `the operator's page showed ${secret}`);
    }
    assert.deepEqual([errors, consoleErrors], [[], []]);
  });

  it('refuses a used link, a revoked one and an expired one', async () => {
    await expectRefused(danaLink);
    await expectRefused(ottoLink);

    const { page } = operatorPage;
    const carl = await svc.admin('POST', '/operators', { name: 'carl', role: 'support' });
    await page.goto(`${base}/console#/people`);
    await page.goto(`${base}/console#/people/invitations`);
    await page.click('.operator-invitations tr:has-text("carl") button:has-text("Revoke")');
    await page.click('button.confirm-yes');
    await waitForText(page, '.operator-invitations tr:has-text("carl")', /revoked/);
    await expectRefused(carl.body.link.replace('127.0.0.1', 'localhost'));

    const late = await svc.admin('POST', '/studio-developers', { name: 'late', appIds: [appId] });
    offset += 73 * 3_600_000;
    await expectRefused(late.body.link.replace('127.0.0.1', 'localhost'));
    assert.equal(
      (await svc.admin('GET', '/studio-developer-invitations')).body.invitations.find((i: any) => i.name === 'late')
        .state,
      'expired',
    );
    offset = 0;
  });

  it('mails the link with SMTP_URL: the console says where it went, and the mailed link works', async () => {
    const { page, errors, consoleErrors } = operatorPage;
    const before = smtp.mails.length;
    await page.goto(`${base}/console#/people/operators/new`);
    await page.fill('#f-operatorName', 'erin');
    await page.fill('#f-operatorEmail', 'erin@example.test');
    await page.click('form.operator-create button[type=submit]');
    await waitForText(page, '.invitation-issued', /Mailed to erin@example\.test/);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    assert.deepEqual(mail!.to, ['erin@example.test']);
    const link = /(http:\/\/\S+#\/invitation\/gpi_[A-Za-z0-9_-]{43})/.exec(mail!.text)?.[1];
    assert.ok(link, mail!.text);
    const token = link.split('#/invitation/')[1]!;
    assert.ok(!operatorAnswers.join('\n').includes(token), 'the mailed token never reached the operator');
    const invitee = await inviteeBrowser.newPage();
    await invitee.page.goto(link.replace('127.0.0.1', 'localhost'));
    await waitForText(invitee.page, '.invitation h1', /welcome erin/);
    await invitee.page.close();
    const erin = await completeInvitation(svc, '/admin/v1', link);
    assert.equal(erin.recoveryCodes.length, 10);
    assert.deepEqual([errors, consoleErrors], [[], []]);
  });
});
