import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from '../testing/service.js';
import { operatorToken } from '../testing/operators.js';
import {
  go,
  mainText,
  signIn,
  startBrowser,
  waitForRoute,
  waitForText,
  type TestBrowser,
} from '../testing/console/console.js';

/**
 * The people pages of the console (issue 34): operators, their API tokens, studio developers and pending
 * invitations. An admin changes them (each change in the audit trail); a support operator reads them only.
 */
describe('operator console: people', () => {
  let svc: TestService;
  let browser: TestBrowser;
  let appId: number;
  before(async () => {
    [svc, browser] = await Promise.all([startTestService(), startBrowser()]);
    appId = (await svc.createApp({ name: 'People Game' })).appId;
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  /** The audit trail's entries (newest first) as "event|METHOD path". */
  const audit = async () =>
    ((await svc.admin('GET', '/admin-actions?limit=200')).body.actions as any[]).map(
      (a) => `${a.event ?? ''}|${a.method} ${a.path}`,
    );

  it('operators: an admin creates one, changes its role, disables and enables it, resets it', async () => {
    const { page, errors, consoleErrors } = await browser.newPage();
    await signIn(svc, page);
    await page.click('header nav a[href="#/people"]');
    await waitForRoute(page, '/people');
    await page.click('a.new-operator');
    await waitForRoute(page, '/people/operators/new');
    await page.fill('#f-operatorName', 'bob');
    await page.selectOption('#f-operatorRole', 'operator');
    await page.click('form.operator-create button[type=submit]');
    await page.locator('.second-factor svg.qr').waitFor();
    assert.equal((await svc.admin('GET', '/operators/bob')).body.role, 'operator');

    await page.click('a:has-text("Open the operator")');
    await waitForRoute(page, '/people/operators/bob');
    await page.selectOption('#f-role', 'support');
    await page.click('button.save-role');
    await waitForText(page, '.operator-detail .details', /support/);
    await page.click('button:has-text("Disable")');
    await page.click('button.confirm-yes');
    await page.locator('button.enable').waitFor();
    assert.equal((await svc.admin('GET', '/operators/bob')).body.disabled, true);
    await page.click('button.enable');
    await page.locator('button:has-text("Disable")').waitFor();
    // A reset is a link bob completes himself: the page shows the link, never a password or a secret.
    await page.click('button:has-text("Reset link")');
    await page.click('button.confirm-yes');
    assert.match(await page.locator('.invitation-issued .copy-value').innerText(), /#\/invitation\/gpi_/);
    assert.equal(await page.locator('.second-factor').count(), 0);
    const bob = (await svc.admin('GET', '/operators/bob')).body;
    assert.deepEqual([bob.role, bob.disabled], ['support', false]);

    const trail = await audit();
    for (const entry of [
      'operator-created|POST /admin/v1/operators',
      'role-changed|PATCH /admin/v1/operators/bob',
      'operator-disabled|PATCH /admin/v1/operators/bob',
      'operator-enabled|PATCH /admin/v1/operators/bob',
      'invitation-created|POST /admin/v1/operators/bob/reset',
    ])
      assert.ok(
        trail.some((t) => t === entry || t.endsWith(`|${entry.split('|')[1]}`)),
        `${entry} in ${trail.join('\n')}`,
      );
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });

  it('API tokens: an admin mints one with an expiry for an operator and revokes it; the list shows its last use', async () => {
    await svc.admin('POST', '/operators', { name: 'carol', role: 'operator' });
    const { page, errors, consoleErrors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/people/operators/carol');
    await page.locator('.tokens-panel').waitFor();
    await page.fill('#f-tokenName', 'deploy script');
    await page.fill('#f-tokenDays', '7');
    await page.click('form.mint-token button[type=submit]');
    const token = await page.locator('.tokens-panel .secret-value').innerText();
    assert.match(token, /^gpo_/);
    // The token works, and its use shows on the tokens page.
    const used = await fetch(`${svc.url}/admin/v1/apps`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(used.status, 200);
    await used.arrayBuffer();
    const listed = (await svc.admin('GET', '/operator-tokens?operator=carol')).body.tokens[0];
    const days = (Date.parse(listed.expiresAt) - Date.parse(listed.createdAt)) / 86_400_000;
    assert.ok(Math.abs(days - 7) < 0.01, `expires in 7 days: ${days}`);
    await go(svc, page, '/people/tokens');
    await waitForText(page, 'section.tokens table', /deploy script/);
    const row = page.locator('section.tokens tr', { hasText: 'deploy script' });
    assert.match(await row.innerText(), /carol/);
    assert.doesNotMatch(await row.locator('td').nth(6).innerText(), /^-$/, 'last use shown');
    await row.locator('button:has-text("Revoke")').click();
    await row.locator('button.confirm-yes').click();
    await waitForText(page, 'section.tokens [role=status]', /revoked/);
    await waitForText(page, 'section.tokens tr:has-text("deploy script")', /revoked/);
    const refused = await fetch(`${svc.url}/admin/v1/apps`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(refused.status, 401, 'a revoked token stops working');
    await refused.arrayBuffer();
    assert.ok(!(await mainText(page)).includes(token), 'the list never shows a token value');

    const trail = await audit();
    assert.ok(
      trail.some((t) => t === 'token-created|POST /admin/v1/operator-tokens'),
      trail.join('\n'),
    );
    assert.ok(
      trail.some((t) => /^token-revoked\|DELETE \/admin\/v1\/operator-tokens\/\d+$/.test(t)),
      trail.join('\n'),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });

  it('studio developers: an admin invites one, who shows as a pending invitation, and changes its apps', async () => {
    const other = (await svc.createApp({ name: 'Second Game' })).appId;
    const { page, errors, consoleErrors } = await browser.newPage();
    await signIn(svc, page);
    await go(svc, page, '/people/developers');
    await page.click('a.invite-developer');
    await waitForRoute(page, '/people/developers/new');
    await page.fill('#f-developerName', 'dana');
    await page.fill('#f-developerApps', String(appId));
    await page.click('form.developer-invite button[type=submit]');
    assert.match(await page.locator('.invitation-issued .copy-value').innerText(), /\/portal#\/invitation\/gpi_/);
    assert.deepEqual((await svc.admin('GET', '/studio-developers/dana')).body.appIds, [appId]);
    await go(svc, page, '/people/developers');
    await waitForText(page, '.pending-invitations', /dana/);
    await go(svc, page, '/people/developers/dana');
    await page.fill('#f-developerAppIds', `${appId}, ${other}`);
    await page.click('button.save-apps');
    await page.locator(`.developer-detail .details a[href="#/apps/${other}"]`).waitFor();
    assert.deepEqual(
      (await svc.admin('GET', '/studio-developers/dana')).body.appIds.sort((a: number, b: number) => a - b),
      [appId, other],
    );
    // A bad app list is the API's error on the page, and changes nothing.
    await page.fill('#f-developerAppIds', 'x\u0000y');
    await page.click('button.save-apps');
    await page.locator('.developer-detail .error').waitFor();
    assert.equal((await svc.admin('GET', '/studio-developers/dana')).body.appIds.length, 2);

    const trail = await audit();
    assert.ok(
      trail.some((t) => t.endsWith('|POST /admin/v1/studio-developers')),
      trail.join('\n'),
    );
    assert.ok(
      trail.some((t) => t.endsWith('|PATCH /admin/v1/studio-developers/dana')),
      trail.join('\n'),
    );
    await go(svc, page, '/admin-actions');
    await waitForText(page, 'main table', /POST \/admin\/v1\/studio-developers/);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      consoleErrors.filter((e) => !/status of 400/.test(e)),
      [],
    );
    await page.close();
  });

  it('a support operator sees every people page read-only; an operator (no operators.read) does not see them', async () => {
    const token = await operatorToken(svc, 'sue', 'support');
    const { page, errors, consoleErrors } = await browser.newPage();
    await signIn(svc, page, token, 'sue');
    await page.locator('header.topbar').waitFor();
    await page.click('header nav a[href="#/people"]');
    await waitForText(page, 'section.operators table', /bob/);
    assert.equal(await page.locator('a.new-operator').count(), 0);
    await go(svc, page, '/people/operators/bob');
    await page.locator('.operator-detail .read-only').waitFor();
    await page.locator('.tokens-panel table, .tokens-panel .empty').first().waitFor();
    assert.equal(await page.locator('.operator-detail button').count(), 0, 'no change offered');
    assert.equal(await page.locator('form.mint-token').count(), 0);
    await go(svc, page, '/people/tokens');
    await waitForText(page, 'section.tokens table', /deploy script/);
    assert.equal(await page.locator('section.tokens button').count(), 0, 'no Revoke');
    await go(svc, page, '/people/developers');
    await waitForText(page, '.all-developers', /dana/);
    assert.equal(await page.locator('a.invite-developer').count(), 0);
    await go(svc, page, '/people/developers/dana');
    await page.locator('.developer-detail .read-only').waitFor();
    assert.equal(await page.locator('.developer-detail button').count(), 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(consoleErrors, []);
    await page.close();

    const modToken = await operatorToken(svc, 'otto', 'operator');
    const mod = await browser.newPage();
    // The shell asks GET /session for the role's permissions, then leaves People out of the bar.
    const permissions = mod.page.waitForResponse((r) => new URL(r.url()).pathname === '/admin/v1/session');
    await signIn(svc, mod.page, modToken, 'otto');
    await mod.page.locator('header.topbar').waitFor();
    await permissions;
    await mod.page.locator('header nav a[href="#/admin-actions"]').waitFor();
    await mod.page.waitForTimeout(100);
    assert.equal(await mod.page.locator('header nav a[href="#/people"]').count(), 0);
    await mod.page.close();
  });
});
