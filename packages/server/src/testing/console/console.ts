import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { TestService } from '../service.js';

/** Helpers for the console tests: Debian's headless Chromium driven by playwright-core against a test service. */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium keeps calling home on a machine without a network. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  /** A new tab (its own sessionStorage) that records dialogs, page errors, CSP reports and every request URL. */
  newPage(): Promise<ConsolePage>;
  close(): Promise<void>;
}

export interface ConsolePage {
  page: Page;
  dialogs: string[];
  errors: string[];
  consoleErrors: string[];
  requests: string[];
}

export async function startBrowser(): Promise<TestBrowser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)`,
    );
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const watched: ConsolePage = { page, dialogs: [], errors: [], consoleErrors: [], requests: [] };
      page.on('dialog', (d) => {
        watched.dialogs.push(`${d.type()}: ${d.message()}`);
        void d.dismiss();
      });
      page.on('pageerror', (e) => watched.errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') watched.consoleErrors.push(m.text());
      });
      page.on('request', (r) => watched.requests.push(r.url()));
      return watched;
    },
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Opens the console and signs in with the service's admin token (or `token`), in the break-glass form. */
export async function signIn(
  svc: TestService,
  page: Page,
  token = svc.adminToken,
  moderator = 'mod-test',
): Promise<void> {
  await page.goto(`${svc.url}/console`);
  await page.click('details.break-glass summary');
  await page.fill('#f-token', token);
  await page.fill('#f-moderator', moderator);
  await page.click('form.token-signin button[type=submit]');
  if (token === svc.adminToken) await page.waitForSelector('header.topbar');
}

/** Opens the console and signs in with an operator account: name, password and a TOTP or recovery code. */
export async function signInAccount(svc: TestService, page: Page, name: string, password: string, code: string) {
  await page.goto(`${svc.url}/console`);
  await page.fill('#f-name', name);
  await page.fill('#f-password', password);
  await page.fill('#f-totp', code);
  await page.click('form.account-signin button[type=submit]');
}

/**
 * Goes to a hash route (`/apps/1?x=y`) of the signed-in console and waits until the shell has switched to it: a
 * hash change keeps the previous page on screen for a moment, and a test must not read that page's table.
 */
export async function go(svc: TestService, page: Page, hashPath: string): Promise<void> {
  await page.goto(`${svc.url}/console#${hashPath}`);
  const path = hashPath.split('?')[0];
  // The sign-in screen also ends the wait: a refused token sends the console there instead.
  await page
    .locator(`main[data-route=${JSON.stringify(path)}], main.signin`)
    .first()
    .waitFor();
}

/**
 * Waits until the shell shows the page of `path` (a hash path without its query) after a click that changes page:
 * the previous page stays on screen for a moment, and a test must not read it.
 */
export async function waitForRoute(page: Page, path: string): Promise<void> {
  await page.locator(`main[data-route=${JSON.stringify(path)}]`).waitFor();
}

/**
 * Clicks `selector` (e.g. a filter form's Apply) and waits for the admin API's answer to the read it causes, the one
 * whose URL contains every one of `parts`: until then the page may still show the rows of the previous query.
 */
export async function clickForApi(page: Page, selector: string, ...parts: string[]): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.url().includes('/admin/v1/') && parts.every((p) => r.url().includes(p)),
  );
  await page.click(selector);
  await answered;
}

/**
 * Waits until the main table has `n` rows: after a filter's answer arrives, the page still renders it, so a test
 * reading the rows at once may read the previous query's.
 */
export async function waitForRowCount(page: Page, n: number, timeout = 10_000): Promise<string[]> {
  const until = Date.now() + timeout;
  for (;;) {
    const rows = await page.locator('main tbody tr').allInnerTexts();
    if (rows.length === n) return rows;
    if (Date.now() > until) throw new Error(`main table never had ${n} rows; last: ${JSON.stringify(rows)}`);
    await page.waitForTimeout(50);
  }
}

/** The visible text of the page's main area. */
export async function mainText(page: Page): Promise<string> {
  return page.locator('main').innerText();
}

/** Waits until `selector` shows text matching `re`. */
export async function waitForText(
  page: Pick<Page, 'locator' | 'waitForTimeout'>,
  selector: string,
  re: RegExp,
  timeout = 10_000,
): Promise<string> {
  const until = Date.now() + timeout;
  let last = '';
  for (;;) {
    last = await page
      .locator(selector)
      .first()
      .innerText()
      .catch(() => '');
    if (re.test(last)) return last;
    if (Date.now() > until) throw new Error(`${selector} never matched ${re}; last text: ${JSON.stringify(last)}`);
    await page.waitForTimeout(50);
  }
}

/** Follows a section link of the top bar (`#/overview`), opening the menu first where it folds (below 600 px). */
export async function clickNav(page: Page, hash: string): Promise<void> {
  const menu = page.locator('header.topbar .menu-button');
  if (await menu.isVisible()) await menu.click();
  await page.click(`header.topbar nav a[href="${hash}"]`);
}
