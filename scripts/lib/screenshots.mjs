// What the screenshot scripts share (scripts/*-screenshots.mjs): where they read the build and write the pictures,
// Debian's headless Chromium, and a page of a given width that takes full-page screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
/** A file of the server's build (`npm run build` first). */
export const dist = (p) => path.join(root, 'packages/server/dist', p);

/** docs/<folder>, made if missing: where a script writes its screenshots. */
export function docsFolder(folder) {
  const out = path.join(root, 'docs', folder);
  fs.mkdirSync(out, { recursive: true });
  return out;
}

/** Debian's Chromium (or CHROMIUM_PATH), headless. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/**
 * Runs `shoot(browser)` in headless Chromium, says where the screenshots went, and at the end (done or failed) closes
 * the browser, then `running` in order: the service and fakes the screenshots were taken against.
 * @param {string} out the folder the screenshots go to (docsFolder)
 * @param {{ close(): unknown }[]} running
 * @param {(browser: import('playwright-core').Browser) => Promise<void>} shoot
 */
export async function screenshotsIn(out, running, shoot) {
  const browser = await launchChromium();
  try {
    await shoot(browser);
    console.log(`screenshots written to ${path.relative(root, out)}`);
  } finally {
    await browser.close();
    for (const r of running) await r.close();
  }
}

/**
 * A page `width` px wide (a phone at 360, else a desktop) in a context of its own. `shot(name)` writes a full-page
 * screenshot to `fileOf(name)` once the page has settled; `text(selector, re)` waits until the selector shows `re`.
 */
export async function pageAt(browser, width, fileOf) {
  const context = await browser.newContext({ viewport: { width, height: width === 360 ? 740 : 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const shot = async (name) => {
    await page.waitForTimeout(150);
    await page.screenshot({ path: fileOf(name), fullPage: true });
  };
  const text = (selector, re) => page.locator(selector, { hasText: re }).first().waitFor();
  return { context, page, shot, text };
}
